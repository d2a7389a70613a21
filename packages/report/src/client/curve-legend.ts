import type { LEGEND_PARAMS } from '../curve-chart-spec.js';
import type { GroupData } from '../view-model.js';
import type { LegendState } from './legend.js';

/**
 * The charts' legend parameters (see `LEGEND_PARAMS`) for the legend's state: a group is hidden when its
 * own box, its run's or its method's is unchecked.
 *
 * @param state - the legend's state
 * @param groups - the page's curve groups
 * @returns the value of each parameter
 */
export function legendSignals(
  state: LegendState,
  groups: readonly GroupData[],
): Record<(typeof LEGEND_PARAMS)[number], unknown> {
  const hiddenGroups = groups.flatMap((group, g) =>
    state.hiddenGroups.includes(g) ||
    state.hiddenRuns.includes(group.run) ||
    state.hiddenMethods.includes(group.method)
      ? [g]
      : [],
  );
  return {
    hiddenGroups,
    hiddenSeeds: [...state.hiddenSeeds],
    showSeeds: state.showSeeds,
    showMean: state.showMean,
  };
}
