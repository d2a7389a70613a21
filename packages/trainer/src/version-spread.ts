import type { Episode } from './episode.js';

/** What {@link versionSpread} returns. */
export interface VersionSpread {
  /** Σ over the episodes of (newest − oldest policy version among its steps). */
  readonly spread: number;
  /** Episodes whose steps came from more than one policy version. */
  readonly multiVersion: number;
}

/**
 * How far the episodes of one iteration span policy versions (the research note's mixed-version rollouts):
 * per episode the newest minus the oldest version v_t among its steps, summed, and the number of episodes
 * with more than one version. A caller divides both by the number of episodes for its per-iteration
 * `versionSpread` and `multiVersionShare`.
 *
 * @param episodes - the iteration's completed episodes (each with at least one step)
 * @returns the summed spread and the count of multi-version episodes
 * @example
 * ```ts
 * versionSpread([{ versions: Uint32Array.of(3, 3, 4) }, { versions: Uint32Array.of(4) }] as Episode[]);
 * // { spread: 1, multiVersion: 1 }
 * ```
 */
export function versionSpread(episodes: readonly Pick<Episode, 'versions' | 'length'>[]): VersionSpread {
  let spread = 0;
  let multiVersion = 0;
  for (const e of episodes) {
    let lo = e.versions[0]!;
    let hi = lo;
    for (let t = 1; t < e.length; t++) {
      const v = e.versions[t]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    spread += hi - lo;
    if (hi > lo) multiVersion++;
  }
  return { spread, multiVersion };
}
