import { expandBoardLine, isBoardLine } from './board-line.js';
import { SokobanError } from './sokoban-error.js';
import type { Vocabulary } from './vocabulary.js';

/** A note of a level file: a key of the SOK format, or a free text line (a title candidate). */
export interface TextEntry {
  readonly kind: 'title' | 'author' | 'comment' | 'solution' | 'note' | 'text';
  readonly value: string;
  /** 1-based line of the entry's first line. */
  readonly line: number;
}

/** One line (or block of lines) of a level file, as {@link scanLevelText} classifies it. */
export type Token =
  | { readonly kind: 'blank' }
  | { readonly kind: 'rows'; readonly rows: readonly string[]; readonly line: number }
  | { readonly kind: 'entry'; readonly entry: TextEntry };

const KEY = /^([A-Za-z][A-Za-z -]{0,30}?)\s*:(.*)$/;
const COMMENT_END = /^comment[-_ ]?end\s*:?\s*$/i;
const MOVES = /^[\sudlrUDLR0-9]+$/;
const KNOWN_KEYS: ReadonlyMap<string, TextEntry['kind']> = new Map([
  ['title', 'title'],
  ['author', 'author'],
  ['comment', 'comment'],
  ['solution', 'solution'],
]);

/**
 * Classifies the lines of a level file (the SOK / XSB conventions of sokobano.de): blank lines; board
 * lines (see {@link isBoardLine}; run-length encoded ones expanded into rows); `::` lines, dropped (notes
 * for a reader of the raw file); `Key: value` lines, of which `Title`, `Author`, `Comment` and `Solution`
 * are kept (`Comment:` alone opens a block closed by `Comment-End:`, `Solution:` takes the lines of moves
 * that follow it); `;` comment lines and other text, kept as title candidates. A line starting with `#`
 * must be a board line. Internal.
 *
 * @param text - the file's text
 * @param tiles - the tile code of each character of the vocabulary
 * @param vocabulary - its name, for messages
 * @returns the tokens in order
 * @throws SokobanError `MALFORMED_LEVEL` naming the line (and column) of a bad board line or an unclosed
 *   comment block
 */
export function scanLevelText(
  text: string,
  tiles: ReadonlyMap<string, number>,
  vocabulary: Vocabulary,
): Token[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const tokens: Token[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    const number = i + 1;
    if (trimmed === '') {
      tokens.push(BLANK);
    } else if (trimmed.startsWith('::')) {
      // Raw-file notes: not part of any level.
    } else if (isBoardLine(line, tiles) || trimmed.startsWith('#')) {
      tokens.push({ kind: 'rows', rows: expandBoardLine(line, number, tiles, vocabulary), line: number });
    } else if (trimmed.startsWith(';')) {
      tokens.push(entry('text', trimmed.slice(1).trim(), number));
    } else {
      const key = KEY.exec(trimmed);
      const kind = key === null ? 'text' : (KNOWN_KEYS.get(key[1]!.toLowerCase()) ?? 'note');
      let value = key === null ? trimmed : key[2]!.trim();
      if (kind === 'comment' && value === '') {
        const body: string[] = [];
        for (i++; i < lines.length && !COMMENT_END.test(lines[i]!.trim()); i++)
          body.push(lines[i]!.trimEnd());
        if (i === lines.length) {
          throw new SokobanError(
            'MALFORMED_LEVEL',
            `line ${number}: the Comment: block is never closed by a Comment-End: line`,
          );
        }
        value = body.join('\n').trim();
      } else if (kind === 'solution') {
        while (i + 1 < lines.length && lines[i + 1]!.trim() !== '' && MOVES.test(lines[i + 1]!)) {
          value += lines[++i]!.trim();
        }
      }
      tokens.push(entry(kind, value, number));
    }
  }
  return tokens;
}

const BLANK: Token = { kind: 'blank' };

function entry(kind: TextEntry['kind'], value: string, line: number): Token {
  return { kind: 'entry', entry: { kind, value, line } };
}
