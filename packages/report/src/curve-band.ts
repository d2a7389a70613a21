import { seedBand } from './seed-band.js';

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
 * Averages per-seed curves that share an x grid into mean ± 95% Student-t interval points (the interval of
 * `meanInterval`, computed by {@link seedBand}).
 *
 * @param series - the curve's name
 * @param samples - the x value of each point (shared by every seed)
 * @param curves - one array per seed, each as long as `samples`
 * @param every - keep one point in `every` (and always the last), to keep charts light
 * @returns the averaged points
 * @throws RangeError when a curve's length differs from `samples`, `curves` is empty, or a kept point has a
 *   value that is not finite
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
  // One pass per point with the t quantile computed once (seedBand), not once per point.
  const band = seedBand(curves);
  const points: BandPoint[] = [];
  for (let t = 0; t < samples.length; t++) {
    if (t % every !== 0 && t !== samples.length - 1) continue;
    const mean = band.mean[t]!;
    if (Number.isNaN(mean)) {
      const s = curves.findIndex((curve) => !Number.isFinite(curve[t]!));
      throw new RangeError(`curves[${s}][${t}] must be finite, got ${curves[s]![t]}`);
    }
    points.push({ series, samples: samples[t]!, mean, lower: band.lower[t]!, upper: band.upper[t]! });
  }
  return points;
}
