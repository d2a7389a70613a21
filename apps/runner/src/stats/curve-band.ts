import { meanInterval } from './mean-interval.js';

/** One point of a learning curve averaged over seeds. */
export interface BandPoint {
  /** The curve's name (method, seed…). */
  readonly series: string;
  /** Environment samples so far (the x axis). */
  readonly samples: number;
  /** Mean over seeds. */
  readonly mean: number;
  /** Lower end of the 95% interval (the mean when there is one seed). */
  readonly lower: number;
  /** Upper end of the 95% interval. */
  readonly upper: number;
}

/**
 * Averages per-seed curves that share an x grid into mean ± 95% Student-t interval points.
 *
 * @param series - the curve's name
 * @param samples - the x value of each point (shared by every seed)
 * @param curves - one array per seed, each as long as `samples`
 * @param every - keep one point in `every` (and always the last), to keep charts light
 * @returns the averaged points
 * @throws RangeError when a curve's length differs from `samples`, or `curves` is empty
 * @example
 * ```ts
 * curveBand('ftw', [4, 8], [[0.5, 0.7], [0.5, 0.9]]);
 * // [{ series: 'ftw', samples: 4, mean: 0.5, lower: 0.5, upper: 0.5 }, { …, samples: 8, mean: 0.8, … }]
 * ```
 */
export function curveBand(
  series: string,
  samples: readonly number[],
  curves: readonly (readonly number[])[],
  every = 1,
): BandPoint[] {
  if (curves.length === 0) throw new RangeError('curves must not be empty, got []');
  for (const [i, curve] of curves.entries()) {
    if (curve.length !== samples.length) {
      throw new RangeError(`curves[${i}] must have ${samples.length} points, got ${curve.length}`);
    }
  }
  const points: BandPoint[] = [];
  // One buffer for every point's values (meanInterval keeps none of them).
  const values = new Array<number>(curves.length);
  for (let t = 0; t < samples.length; t++) {
    if (t % every !== 0 && t !== samples.length - 1) continue;
    for (let s = 0; s < curves.length; s++) values[s] = curves[s]![t]!;
    const interval = meanInterval(values);
    points.push({
      series,
      samples: samples[t]!,
      mean: interval.mean,
      lower: interval.mean - interval.halfWidth,
      upper: interval.mean + interval.halfWidth,
    });
  }
  return points;
}
