// The generated blocks of the runner's Markdown (README.md and the hand-written docs/*.md): a block starts
// with `<!-- generated: <file>[, <part>] -->` and ends with `<!-- end generated -->`, and holds text taken
// from <file> in docs/ (written by `pnpm run docs`), so that printed outputs and tables are never copied by
// hand. `pnpm run docs` rewrites every block (`fillGeneratedBlocks`); a test checks that each block holds
// what its file gives (`generatedBlocks`), so a regenerated file and a stale README cannot both pass.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const BLOCK = /^<!-- generated: ([^,>]+?)(?:, (.+?))? -->\n([\s\S]*?)^<!-- end generated -->$/gm;

/**
 * The tables of a text (runs of lines that start with `|`), in order.
 *
 * @param {string} text
 * @returns {string[][]} each table's lines
 */
function tables(text) {
  const found = [];
  let current = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('|')) {
      if (current === null) found.push((current = []));
      current.push(line);
    } else current = null;
  }
  return found;
}

/**
 * What a block shows of a file's text.
 *
 * @param {string} text - the file's text
 * @param {string | undefined} part - none: the whole text as a `text` fence; `table N`: the N-th table
 *   (from 1) as Markdown; `table N, last row`: its header and last row
 * @param {string} where - the block, for the error
 * @returns {string} the block's content, ending with a newline
 * @throws {Error} when the part is not recognised or the table does not exist
 */
function render(text, part, where) {
  if (part === undefined) return `\`\`\`text\n${text.endsWith('\n') ? text : `${text}\n`}\`\`\`\n`;
  const match = /^table (\d+)(, last row)?$/.exec(part);
  if (match === null)
    throw new Error(`${where}: unknown part "${part}" (expected "table N" or "table N, last row")`);
  const table = tables(text)[Number(match[1]) - 1];
  if (table === undefined) throw new Error(`${where}: there is no table ${match[1]}`);
  const lines = match[2] === undefined ? table : [table[0], table[1], table.at(-1)];
  return `${lines.join('\n')}\n`;
}

/**
 * Every generated block of a Markdown text, with what it holds and what its file gives.
 *
 * @param {string} markdown - the text of README.md or of a hand-written docs/*.md
 * @param {string} docs - the folder the blocks' files are in
 * @returns {{ file: string, part: string | undefined, shown: string, expected: string }[]}
 * @throws {Error} when a block names a missing file, an unknown part or a missing table
 */
export function generatedBlocks(markdown, docs) {
  return [...markdown.matchAll(BLOCK)].map(([whole, file, part, shown]) => {
    const text = readFileSync(join(docs, file), 'utf8');
    return { file, part, shown, expected: render(text, part, whole.split('\n')[0]) };
  });
}

/**
 * The Markdown text with every generated block filled from its file.
 *
 * @param {string} markdown - the text of README.md or of a hand-written docs/*.md
 * @param {string} docs - the folder the blocks' files are in
 * @returns {string}
 */
export function fillGeneratedBlocks(markdown, docs) {
  const blocks = generatedBlocks(markdown, docs);
  let k = 0;
  return markdown.replace(BLOCK, (whole) => {
    const { expected } = blocks[k++];
    return `${whole.split('\n')[0]}\n${expected}<!-- end generated -->`;
  });
}
