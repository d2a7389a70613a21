import { scaleLinear, scaleLog } from 'd3-scale';

/** One tick of an axis: its value and its label (null: a minor tick, drawn as a grid line only). */
export interface AxisTick {
  readonly value: number;
  readonly label: string | null;
}

/** A quantitative axis: its domain, its ticks and the map from values to pixels. */
export interface AxisScale {
  /** The drawn domain [low, high] (niced when asked). */
  readonly domain: readonly [number, number];
  /** Ticks inside the domain, ascending. */
  readonly ticks: readonly AxisTick[];
  /** Maps a value to a pixel of the range (linear in the value, or in its log10 on a log axis). */
  map(value: number): number;
}

/** Options of {@link axisScale}. */
export interface AxisScaleOptions {
  /** `linear` or `log` (base 10; every value must be > 0). @defaultValue 'linear' */
  readonly type?: 'linear' | 'log';
  /** Pixels of the domain's low and high ends (e.g. [300, 0] for a y axis that grows upwards). */
  readonly range: readonly [number, number];
  /** Approximate number of ticks wanted (Vega-Lite uses one per 40 px). */
  readonly count: number;
  /** Extend the domain to round tick values (to powers of 10 on a log axis). @defaultValue true */
  readonly nice?: boolean;
  /** Include 0 in a linear domain. @defaultValue false */
  readonly zero?: boolean;
}

/**
 * Labels of a log axis where d3's `log.tickFormat(count)` writes one: on ticks k · 10^p whose k is at most
 * max(1, 10 · count / ticks), so 1 and 2, say, on four decades. k is read off the tick's decimal digits,
 * where d3 divides by a power of 10 and can land on the wrong side of a whole bound (2e-4 / 10^-4 =
 * 2.0000000000000004). The label is the number as JavaScript writes it (`0.0001`, `1e-7`), not d3's
 * default SI format (`100µ`).
 */
function logLabels(values: readonly number[], count: number): AxisTick[] {
  const limit = Math.max(1, (10 * count) / Math.max(1, values.length));
  return values.map((value) => {
    const k = Number(value.toExponential().split('e')[0]);
    return { value, label: k <= limit ? String(value) : null };
  });
}

/**
 * A quantitative axis as Vega-Lite draws one by default: the data's extent (with 0 when `zero`), widened
 * to round values (`nice`), ticks at 1, 2 or 5 × 10^k (d3's `ticks`) labelled with the step's decimals and
 * thousands separators (d3-format `,.{p}f`), or on a log axis powers of 10 with their 2 and 5 multiples.
 *
 * Method: d3-scale's `scaleLinear` / `scaleLog` (`nice`, `ticks`, `tickFormat`), the scales Vega-Lite
 * itself draws with, so the runner's SVG charts and the `ftw view` page tick alike. A one-value domain is
 * widened by 10% of the value (1 around 0) so that a flat curve sits mid-axis; a log domain is niced to
 * exact decimal powers (`1e-5`, where d3's product gives 0.000009999999999999999).
 *
 * @param extent - the smallest and largest value to show, finite (both > 0 on a log axis)
 * @param options - type, pixel range, tick count, nice, zero
 * @returns the scale: domain, ticks, value → pixel
 * @throws RangeError when the extent is not finite, is reversed, or is not positive on a log axis, or when
 * `count` is not a positive integer or the range not finite
 * @example
 * ```ts
 * const y = axisScale([0.43, 1.27], { range: [300, 0], count: 8 });
 * y.domain; // [0.4, 1.3]
 * y.ticks.map((t) => t.label); // ['0.4', '0.5', …, '1.3']
 * y.map(0.4); // 300
 * ```
 */
export function axisScale(extent: readonly [number, number], options: AxisScaleOptions): AxisScale {
  const [min, max] = extent;
  const type = options.type ?? 'linear';
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) {
    throw new RangeError(`extent must be two finite numbers, low ≤ high, got [${min}, ${max}]`);
  }
  if (!Number.isInteger(options.count) || options.count < 1) {
    throw new RangeError(`count must be a positive integer, got ${options.count}`);
  }
  const [r0, r1] = options.range;
  if (!Number.isFinite(r0) || !Number.isFinite(r1)) {
    throw new RangeError(`range must be two finite pixels, got [${r0}, ${r1}]`);
  }
  if (type === 'log') {
    if (!(min > 0)) throw new RangeError(`a log axis needs values > 0, got ${min}`);
    let low = min;
    let high = max;
    if (options.nice ?? true) {
      // 1e-5, not 10 ** -5 (0.000009999999999999999).
      low = Number(`1e${Math.floor(Math.log10(low))}`);
      high = Number(`1e${Math.ceil(Math.log10(high))}`);
    }
    if (low === high) {
      low /= 10;
      high *= 10;
    }
    const l0 = Math.log10(low);
    const span = Math.log10(high) - l0;
    return {
      domain: [low, high],
      ticks: logLabels(scaleLog().domain([low, high]).ticks(options.count), options.count),
      map: (value) => r0 + ((Math.log10(value) - l0) / span) * (r1 - r0),
    };
  }
  let low = options.zero === true ? Math.min(0, min) : min;
  let high = options.zero === true ? Math.max(0, max) : max;
  if (low === high) {
    const pad = low === 0 ? 1 : Math.abs(low) * 0.1;
    low -= pad;
    high += pad;
  }
  const scale = scaleLinear().domain([low, high]);
  if (options.nice ?? true) scale.nice(options.count);
  const [d0, d1] = scale.domain() as [number, number];
  const span = d1 - d0;
  const format = scale.tickFormat(options.count);
  return {
    domain: [d0, d1],
    ticks: scale.ticks(options.count).map((value) => ({ value, label: format(value) })),
    // The pixel map stays this one expression (d3's interpolation rounds differently in the last bit).
    map: (value) => r0 + ((value - d0) / span) * (r1 - r0),
  };
}
