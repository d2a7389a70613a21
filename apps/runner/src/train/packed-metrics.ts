import type { IterationMetrics } from './train-seed.js';

/** Doubles per row in {@link PackedMetrics.values}: every numeric field of a row, in the row's order. */
const STRIDE = 14;

// Bits of PackedMetrics.flags: which of a row's fields that may be null are null, and `updated`.
const REGRET_NULL = 1;
const ELITE_MEAN_NULL = 2;
const ELITE_SPREAD_NULL = 4;
const SELECTED_NULL = 8;
const POOL_STALENESS_NULL = 16;
const SELECTION_STALENESS_NULL = 32;
const UPDATED = 64;

/**
 * A seed's metric rows as columns in transferable buffers: what a seed worker hands the main thread
 * (`postMessage(…, [buffers])` moves them without a copy). The structured clone of the rows themselves
 * costs the main thread some 2–3 µs per row to rebuild, about as much as a worker spends training the
 * iteration (2.7 µs), so with it the main thread could take in the rows of barely one worker at a time;
 * unpacking costs it about 0.6 µs.
 */
export interface PackedMetrics {
  readonly rows: number;
  /**
   * 14 doubles per row: seed, iteration, samples, reward, optimalProbability, regret, klMean, klMax, tvMax,
   * eliteMean, eliteSpread, selected, poolStaleness, selectionStaleness (0 where null).
   */
  readonly values: Float64Array<ArrayBuffer>;
  /** Per row: the null fields and `updated`, as bits. */
  readonly flags: Uint8Array<ArrayBuffer>;
  /**
   * The keys of the rows' `evaluation` details, when every row has them, in one order (Sokoban's
   * `heldOutSuccess`); null when no row has details.
   */
  readonly detailKeys: readonly string[] | null;
  /** `detailKeys.length` doubles per row. */
  readonly details: Float64Array<ArrayBuffer>;
}

/** The keys of a row's details, or null without details. */
function keysOf(row: IterationMetrics): string[] | null {
  return row.evaluation === undefined ? null : Object.keys(row.evaluation);
}

function sameKeys(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((k, i) => b[i] === k);
}

/**
 * Packs a seed's metric rows into columns ({@link PackedMetrics}); {@link unpackMetrics} gives them back,
 * equal field for field and in the same key order (so the same `JSON.stringify` text).
 *
 * @param rows - the rows, as `trainSeed` records them
 * @returns the packed rows, or null when their `evaluation` details do not all have the same keys in the
 *   same order (or some rows have details and some not), or when they record `failureShare` or
 *   `evaluatedAt`: such rows are
 *   sent as they are
 * @example
 * ```ts
 * const packed = packMetrics(result.metrics);
 * port.postMessage(packed, packed === null ? [] : [packed.values.buffer, packed.flags.buffer, packed.details.buffer]);
 * ```
 */
export function packMetrics(rows: readonly IterationMetrics[]): PackedMetrics | null {
  const n = rows.length;
  if (n > 0 && (rows[0]!.failureShare !== undefined || rows[0]!.evaluatedAt !== undefined)) return null;
  const detailKeys = n === 0 ? null : keysOf(rows[0]!);
  for (let i = 1; i < n; i++) if (!sameKeys(keysOf(rows[i]!), detailKeys)) return null;
  const values = new Float64Array(n * STRIDE);
  const flags = new Uint8Array(n);
  const width = detailKeys === null ? 0 : detailKeys.length;
  const details = new Float64Array(n * width);
  for (let i = 0; i < n; i++) {
    const m = rows[i]!;
    const o = i * STRIDE;
    let f = m.updated ? UPDATED : 0;
    values[o] = m.seed;
    values[o + 1] = m.iteration;
    values[o + 2] = m.samples;
    values[o + 3] = m.reward;
    values[o + 4] = m.optimalProbability;
    if (m.regret === null) f |= REGRET_NULL;
    else values[o + 5] = m.regret;
    values[o + 6] = m.klMean;
    values[o + 7] = m.klMax;
    values[o + 8] = m.tvMax;
    if (m.eliteMean === null) f |= ELITE_MEAN_NULL;
    else values[o + 9] = m.eliteMean;
    if (m.eliteSpread === null) f |= ELITE_SPREAD_NULL;
    else values[o + 10] = m.eliteSpread;
    if (m.selected === null) f |= SELECTED_NULL;
    else values[o + 11] = m.selected;
    if (m.poolStaleness === null) f |= POOL_STALENESS_NULL;
    else values[o + 12] = m.poolStaleness;
    if (m.selectionStaleness === null) f |= SELECTION_STALENESS_NULL;
    else values[o + 13] = m.selectionStaleness;
    flags[i] = f;
    if (width > 0) {
      const evaluation = m.evaluation!;
      for (let k = 0; k < width; k++) details[i * width + k] = evaluation[detailKeys![k]!]!;
    }
  }
  return { rows: n, values, flags, detailKeys, details };
}

/**
 * The rows {@link packMetrics} packed, as new objects with the fields (and their order) of `trainSeed`'s
 * rows.
 *
 * @param packed - what `packMetrics` returned
 * @returns the rows
 */
export function unpackMetrics(packed: PackedMetrics): IterationMetrics[] {
  const { rows: n, values, flags, detailKeys, details } = packed;
  const width = detailKeys === null ? 0 : detailKeys.length;
  const rows = new Array<IterationMetrics>(n);
  for (let i = 0; i < n; i++) {
    const o = i * STRIDE;
    const f = flags[i]!;
    let evaluation: Record<string, number> | undefined;
    if (detailKeys !== null) {
      evaluation = {};
      for (let k = 0; k < width; k++) evaluation[detailKeys[k]!] = details[i * width + k]!;
    }
    rows[i] = {
      seed: values[o]!,
      iteration: values[o + 1]!,
      samples: values[o + 2]!,
      reward: values[o + 3]!,
      optimalProbability: values[o + 4]!,
      evaluation,
      regret: f & REGRET_NULL ? null : values[o + 5]!,
      klMean: values[o + 6]!,
      klMax: values[o + 7]!,
      tvMax: values[o + 8]!,
      updated: (f & UPDATED) !== 0,
      eliteMean: f & ELITE_MEAN_NULL ? null : values[o + 9]!,
      eliteSpread: f & ELITE_SPREAD_NULL ? null : values[o + 10]!,
      selected: f & SELECTED_NULL ? null : values[o + 11]!,
      poolStaleness: f & POOL_STALENESS_NULL ? null : values[o + 12]!,
      selectionStaleness: f & SELECTION_STALENESS_NULL ? null : values[o + 13]!,
    };
  }
  return rows;
}
