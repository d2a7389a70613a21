/**
 * The rows of a Markdown table below its header and rule, as trimmed cells (tests read printed tables
 * back with it).
 *
 * @param table - a table as `markdownTable` prints it
 * @returns one array of cells per body row
 */
export const tableCells = (table: string): string[][] =>
  table
    .trimEnd()
    .split('\n')
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
