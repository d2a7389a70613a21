import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from './sokoban-features.js';

/**
 * Features of many rows without their zeros (compressed sparse rows): row i's nonzero features are
 * `columns[k]` with `values[k]` for k in `rowStart[i]` … `rowStart[i + 1] − 1`, columns increasing (below
 * 256: {@link FEATURE_COUNT} is 84). A linear policy reads only these (Sokoban's are about a quarter of
 * the features): a zero feature adds w · 0 = ±0 to a sum that starts at +0 and is never −0, so skipping it
 * changes no bit while the weights are finite.
 */
export interface SparseFeatures {
  readonly rowStart: Int32Array;
  readonly columns: Uint8Array;
  readonly values: Float32Array | Float64Array;
}

/** Compressed rows being filled: the arrays are replaced as they grow, the object stays. */
export interface GrowingRows<V extends Float32Array | Float64Array> {
  rowStart: Int32Array;
  columns: Uint8Array;
  values: V;
}

/**
 * New, empty compressed rows.
 *
 * @param makeValues - allocates the values (Float32Array or Float64Array) of a length
 * @returns rows with room for 64 rows of 32 nonzero features before they grow
 */
export function growingRows<V extends Float32Array | Float64Array>(
  makeValues: (length: number) => V,
): GrowingRows<V> {
  return { rowStart: new Int32Array(65), columns: new Uint8Array(64 * 32), values: makeValues(64 * 32) };
}

/**
 * Appends a row's nonzero features, columns increasing, after row `row − 1`.
 *
 * @param rows - the rows (grown as needed)
 * @param row - the new row's index: the number of rows so far
 * @param features - the row's {@link FEATURE_COUNT} features, from `from`
 * @param from - offset of the first feature in `features`
 * @param makeValues - allocates values when they grow (the same type as `rows.values`)
 */
export function appendRow<V extends Float32Array | Float64Array>(
  rows: GrowingRows<V>,
  row: number,
  features: ArrayLike<number>,
  from: number,
  makeValues: (length: number) => V,
): void {
  if (row + 2 > rows.rowStart.length) {
    const grown = new Int32Array(2 * rows.rowStart.length);
    grown.set(rows.rowStart);
    rows.rowStart = grown;
  }
  let k = rows.rowStart[row]!;
  if (k + FEATURE_COUNT > rows.values.length) {
    const columns = new Uint8Array(2 * rows.columns.length + FEATURE_COUNT);
    columns.set(rows.columns);
    rows.columns = columns;
    const values = makeValues(columns.length);
    values.set(rows.values);
    rows.values = values;
  }
  for (let f = 0; f < FEATURE_COUNT; f++) {
    const v = features[from + f]!;
    if (v === 0) continue;
    rows.columns[k] = f;
    rows.values[k++] = v;
  }
  rows.rowStart[row + 1] = k;
}
