import templates from 'ftw:vega-templates';
import { fillTemplate } from '../fill-template.js';
import type { ChartData, GroupData } from '../view-model.js';
import { legendSignals } from './curve-legend.js';
import type { LegendState } from './legend.js';

/**
 * The Vega runtime description of one learning-curve chart: the template compiled from `curveChartSpec`
 * when the runner was built, for the chart's y scale, with its holes filled: the y-axis title, the page's
 * colour scale (groups by index), the per-seed lines' opacity (the more seeds a group has, the fainter
 * their cloud) and the legend's state now (charts drawn later start from it). Its rows go to the data sets `SEED_DATA` and `MEAN_DATA`.
 *
 * @param chart - the chart's model
 * @param groups - every group of the page (labels and colours)
 * @param state - the legend's state
 * @returns the runtime description, for `new vega.View`
 */
export function curveChartRuntime(
  chart: ChartData,
  groups: readonly GroupData[],
  state: LegendState,
): object {
  const seeds = Math.max(1, ...chart.curves.map((c) => groups[c.g]!.seeds.length));
  return fillTemplate(chart.unitInterval ? templates.curveUnit : templates.curveFree, {
    yTitle: chart.axis,
    colorDomain: groups.map((_, g) => g),
    colorRange: groups.map((g) => g.color),
    seedOpacity: Math.max(0.2, Math.min(0.45, 4 / seeds)),
    ...legendSignals(state, groups),
  }) as object;
}
