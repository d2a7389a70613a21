/**
 * Formats rows as a GitHub-flavoured Markdown table with padded columns (readable as plain text too).
 *
 * @param header - column titles
 * @param rows - cells as text, each row as long as `header`
 * @param align - per column `'l'` or `'r'`; numbers read best right-aligned
 * @returns the table, one line per row, ending with a newline
 * @throws RangeError when a row's length differs from the header's
 * @example
 * ```ts
 * markdownTable(['seed', 'p'], [['0', '0.968']], ['r', 'r']);
 * // | seed |     p |
 * // | ---: | ----: |
 * // |    0 | 0.968 |
 * ```
 */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ('l' | 'r')[] = [],
): string {
  for (const [i, row] of rows.entries()) {
    if (row.length !== header.length) {
      throw new RangeError(`rows[${i}] must have ${header.length} cells, got ${row.length}`);
    }
  }
  const widths = header.map((h, c) => Math.max(3, h.length, ...rows.map((row) => row[c]!.length)));
  const pad = (text: string, c: number): string =>
    align[c] === 'r' ? text.padStart(widths[c]!) : text.padEnd(widths[c]!);
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, c) => pad(cell, c)).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (align[c] === 'r' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return `${[line(header), rule, ...rows.map(line)].join('\n')}\n`;
}
