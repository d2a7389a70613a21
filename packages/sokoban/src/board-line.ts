import { describeValue } from '@ftw/internal';
import { MAX_CELLS } from './board.js';
import { SokobanError } from './sokoban-error.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * Whether a text line is a row (or, run-length encoded, several rows) of a board: after trailing white
 * space is cut, every character is a board character of the vocabulary, a digit or `|`, and at least one
 * is a wall `#` (a board row of a level enclosed by walls always holds one; a title such as `12` or a
 * separator `----` holds none). Internal.
 *
 * @param line - the line
 * @param tiles - the tile code of each character of the vocabulary
 * @returns whether the line is read as board rows
 */
export function isBoardLine(line: string, tiles: ReadonlyMap<string, number>): boolean {
  const row = line.trimEnd();
  let wall = false;
  for (const ch of row) {
    if (ch === '#') wall = true;
    else if (!tiles.has(ch) && !isDigit(ch) && ch !== '|') return false;
  }
  return wall;
}

/**
 * Expands one board line into rows: `|` separates rows, and a run length written before a character
 * repeats it (`4#` is `####`, `3-` three floor cells), as in the run-length encoded XSB of sokobano.de's
 * level format. A plain XSB row comes back unchanged (trailing white space cut). Internal.
 *
 * @param line - a line for which {@link isBoardLine} holds, or one starting with `#` that must be a row
 * @param lineNumber - its 1-based line number, for messages
 * @param tiles - the tile code of each character of the vocabulary
 * @param vocabulary - its name, for messages
 * @returns the rows, each a string of vocabulary characters
 * @throws SokobanError `MALFORMED_LEVEL` naming the line and column of a character that is not a board
 *   character, a run length not followed by one, a run length of 0 or above 65,535, or a row longer
 *   than 65,535 cells
 */
export function expandBoardLine(
  line: string,
  lineNumber: number,
  tiles: ReadonlyMap<string, number>,
  vocabulary: Vocabulary,
): string[] {
  const rows: string[] = [];
  let row = '';
  let run = '';
  let runColumn = 0;
  const text = line.trimEnd();
  // Columns count UTF-16 units, as editors of these (ASCII or BMP) files show them.
  for (let x = 0; x < text.length; x++) {
    const ch = text[x]!;
    const where = `line ${lineNumber}, column ${x + 1}`;
    if (isDigit(ch)) {
      if (run === '') runColumn = x + 1;
      run += ch;
      continue;
    }
    if (ch === '|') {
      if (run !== '') throw badRun(lineNumber, runColumn, run);
      rows.push(row);
      row = '';
      continue;
    }
    if (!tiles.has(ch)) {
      throw new SokobanError(
        'MALFORMED_LEVEL',
        `${where}: ${describeValue(ch)} is not a ${vocabulary} level character`,
      );
    }
    let count = 1;
    if (run !== '') {
      count = Number(run);
      if (count < 1 || count > MAX_CELLS) {
        throw new SokobanError(
          'MALFORMED_LEVEL',
          `line ${lineNumber}, column ${runColumn}: a run length must be in [1, ${MAX_CELLS}], got ${run}`,
        );
      }
      run = '';
    }
    // Cut off before a long line of runs could build a row no level may hold.
    if (row.length + count > MAX_CELLS) {
      throw new SokobanError(
        'MALFORMED_LEVEL',
        `${where}: the row grows past ${MAX_CELLS} cells, more than a level may hold`,
      );
    }
    row += ch.repeat(count);
  }
  if (run !== '') throw badRun(lineNumber, runColumn, run);
  rows.push(row);
  return rows;
}

function badRun(lineNumber: number, column: number, run: string): SokobanError {
  return new SokobanError(
    'MALFORMED_LEVEL',
    `line ${lineNumber}, column ${column}: the run length ${run} must be followed by a level character`,
  );
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}
