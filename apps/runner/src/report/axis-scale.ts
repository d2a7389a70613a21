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

/** d3's thresholds for choosing a tick step of 1, 2, 5 or 10 × 10^k: √50, √10, √2. */
const E10 = Math.sqrt(50);
const E5 = Math.sqrt(10);
const E2 = Math.sqrt(2);
const MINUS = '\u2212';

/**
 * The tick step as integers, d3's `tickSpec`: ticks are `i / inc` for i in [i1, i2] when `inc < 0` is
 * reported as `-inc` (steps below 1, so that 0.1 · 3 prints as 0.3, not 0.30000000000000004), else `i · inc`.
 */
function tickSpec(
  start: number,
  stop: number,
  count: number,
): { i1: number; i2: number; inc: number; exponent: number } {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log10(step));
  const error = step / 10 ** power;
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  const exponent = power + (factor === 10 ? 1 : 0);
  let i1: number;
  let i2: number;
  let inc: number;
  if (power < 0) {
    inc = 10 ** -power / factor;
    i1 = Math.round(start * inc);
    i2 = Math.round(stop * inc);
    if (i1 / inc < start) ++i1;
    if (i2 / inc > stop) --i2;
    inc = -inc;
  } else {
    inc = 10 ** power * factor;
    i1 = Math.round(start / inc);
    i2 = Math.round(stop / inc);
    if (i1 * inc < start) ++i1;
    if (i2 * inc > stop) --i2;
  }
  if (i2 < i1 && 0.5 <= count && count < 2) return tickSpec(start, stop, count * 2);
  return { i1, i2, inc, exponent };
}

/** The step between ticks, as d3's `tickIncrement`: positive k · 10^p, or −1/step for steps below 1. */
function tickIncrement(start: number, stop: number, count: number): number {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log10(step));
  const error = step / 10 ** power;
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  return power >= 0 ? factor * 10 ** power : -(10 ** -power) / factor;
}

/** d3's linear `nice`: widens [start, stop] to multiples of the tick step until the step is stable. */
function niceLinear(start: number, stop: number, count: number): [number, number] {
  let previous: number | undefined;
  for (let i = 0; i < 10; i++) {
    const step = tickIncrement(start, stop, count);
    if (step === previous) break;
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else break;
    previous = step;
  }
  return [start, stop];
}

/** `1234.5` with 1 decimal → `1,234.5`; negative numbers take the typographic minus, as d3-format does. */
function formatFixed(value: number, decimals: number): string {
  const text = Math.abs(value).toFixed(decimals);
  const dot = text.indexOf('.');
  const whole = dot === -1 ? text : text.slice(0, dot);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const signed = value < 0 && Number(text) !== 0 ? MINUS : '';
  return signed + grouped + (dot === -1 ? '' : text.slice(dot));
}

function linearTicks(start: number, stop: number, count: number): AxisTick[] {
  if (!(stop > start)) return [{ value: start, label: formatFixed(start, 0) }];
  const { i1, i2, inc, exponent } = tickSpec(start, stop, count);
  const decimals = Math.max(0, -exponent);
  const ticks: AxisTick[] = [];
  for (let i = i1; i <= i2; i++) {
    // i = -0 (a domain starting at -0) would give a tick of -0.
    const value = i === 0 ? 0 : inc < 0 ? i / -inc : i * inc;
    ticks.push({ value, label: formatFixed(value, decimals) });
  }
  return ticks;
}

/**
 * Ticks of a log10 axis: every k · 10^p (k = 1…9) when the domain spans few decades, labelled only where
 * k ≤ max(1, 10 · count / ticks) as d3's `log.tickFormat(count)` does (so 1 and 2, say, on four decades);
 * on many decades only powers of 10, at the linear ticks of their exponents.
 */
function logTicks(low: number, high: number, count: number): AxisTick[] {
  const p0 = Math.floor(Math.log10(low));
  const p1 = Math.ceil(Math.log10(high));
  const exact = (k: number, p: number): number => Number(`${k}e${p}`);
  const values: { value: number; k: number }[] = [];
  if (p1 - p0 < count) {
    for (let p = p0; p <= p1; p++) {
      for (let k = 1; k <= 9; k++) {
        const value = exact(k, p);
        if (value >= low && value <= high) values.push({ value, k });
      }
    }
    const limit = Math.max(1, (10 * count) / Math.max(1, values.length));
    return values.map(({ value, k }) => ({ value, label: k <= limit ? String(value) : null }));
  }
  // d3: the exponents' own linear ticks (steps of a whole number of decades).
  return linearTicks(p0, p1, Math.min(p1 - p0, count))
    .map((t) => exact(1, t.value))
    .filter((value) => value >= low && value <= high)
    .map((value) => ({ value, label: String(value) }));
}

/**
 * A quantitative axis as Vega-Lite draws one by default: the data's extent (with 0 when `zero`), widened
 * to round values (`nice`), ticks at 1, 2 or 5 × 10^k (d3's `ticks`) labelled with the step's decimals and
 * thousands separators (d3-format `,.{p}f`), or on a log axis powers of 10 with their 2 and 5 multiples.
 *
 * Method: d3-array's `tickSpec` / `nice` (integer tick indices, so labels print without binary noise).
 * A one-value domain is widened by 10% of the value (1 around 0) so that a flat curve sits mid-axis.
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
      ticks: logTicks(low, high, options.count),
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
  if (options.nice ?? true) [low, high] = niceLinear(low, high, options.count);
  const span = high - low;
  return {
    domain: [low, high],
    ticks: linearTicks(low, high, options.count),
    map: (value) => r0 + ((value - low) / span) * (r1 - r0),
  };
}
