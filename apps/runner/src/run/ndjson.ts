/**
 * Newline-delimited JSON: `JSON.stringify(row)` and a newline for each row.
 *
 * One `JSON.stringify` per row. A former fast path stringified all the rows in one call and split the
 * text at its `},{` boundaries; on Node 20.20 it was no faster (per-row time / its time: 0.84–0.97 over
 * four runs of 24,000 metric rows, whether built as literals or parsed from a run's metrics.ndjson), so
 * it went. No library either: the npm `ndjson` streams do this same call per row, behind a stream.
 *
 * @param rows - the rows (anything JSON.stringify takes)
 * @returns the lines, each ending with a newline; '' for no rows
 * @throws TypeError from JSON.stringify on a cycle or a BigInt
 * @example
 * ```ts
 * ndjson([{ seed: 0, reward: -0 }, { seed: 1, reward: null }]); // '{"seed":0,"reward":0}\n{"seed":1,"reward":null}\n'
 * ```
 */
export function ndjson(rows: readonly unknown[]): string {
  let out = '';
  for (const row of rows) out += `${JSON.stringify(row)}\n`;
  return out;
}

/**
 * Rows per chunk of {@link ndjsonChunks}: some 1.5 MB of text for the runner's metric rows, far below
 * V8's longest string (2^29 − 24 characters, about 512 MB), which the text of one long run exceeds.
 */
export const NDJSON_CHUNK_ROWS = 4096;

/**
 * {@link ndjson} of the rows, `rowsPerChunk` rows at a time: the chunks, joined, are `ndjson(rows)` byte
 * for byte (each row's line depends on that row alone), but no string ever holds more than `rowsPerChunk`
 * lines. A run of 2·10^6 iterations writes some 740 MB of metrics, which no single JavaScript string can
 * hold (`RangeError: Invalid string length`).
 *
 * @param rows - the rows (as for {@link ndjson})
 * @param rowsPerChunk - lines per chunk, an integer ≥ 1 (default {@link NDJSON_CHUNK_ROWS})
 * @returns the chunks, in order; none for no rows
 * @throws RangeError when `rowsPerChunk` is not an integer ≥ 1
 * @example
 * ```ts
 * [...ndjsonChunks([{ a: 1 }, { a: 2 }, { a: 3 }], 2)]; // ['{"a":1}\n{"a":2}\n', '{"a":3}\n']
 * ```
 */
export function* ndjsonChunks(
  rows: readonly unknown[],
  rowsPerChunk: number = NDJSON_CHUNK_ROWS,
): Generator<string, void, undefined> {
  if (!Number.isInteger(rowsPerChunk) || rowsPerChunk < 1) {
    throw new RangeError(`rowsPerChunk must be an integer >= 1, got ${String(rowsPerChunk)}`);
  }
  for (let from = 0; from < rows.length; from += rowsPerChunk) {
    yield ndjson(from === 0 && rows.length <= rowsPerChunk ? rows : rows.slice(from, from + rowsPerChunk));
  }
}
