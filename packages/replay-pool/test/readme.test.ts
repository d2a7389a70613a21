// Runs the README's usage block (and the two blocks of "With @ftw/selection" after it) against the source and
// checks every output their comments show:
// - `console.log(…)`: what it prints is in the comment lines right after the statement, or else in the
//   statement's last comment (after the statement on the same line); in that comment, what follows three
//   spaces is prose (`// 2   (index i of …)`). Compared token for token (line breaks and indentation aside).
// - `expression; // 0` (a number first in the comment, prose after a comma): the expression's value.
// - `expression;` then `// RangeError: message`: the expression throws that error with that message, and
//   leaves the pool unchanged (the comment's prose says so).
// Comments that do none of these are prose. The snapshot path '/data/pool.snap' becomes a file in a temp folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { splitComment, statements, tokens } from '@ftw/internal/readme-block';
import { afterAll, describe, expect, it } from 'vitest';
import * as replayPool from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'replay-pool-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The text of comment lines, whitespace collapsed; with `prose`, what follows three spaces is dropped first. */
const commentText = (lines: string[], prose = false): string =>
  tokens(
    lines
      .map((line) => line.replace(/^\s*\/\/ /, ''))
      .map((text) => (prose ? text.split(/ {3}/)[0]! : text))
      .join(' '),
  );

type Check =
  | { kind: 'print'; statement: string; output: string }
  | { kind: 'value'; statement: string; output: string }
  | { kind: 'throw'; statement: string; name: string; message: string };

/** The block as a program whose shown outputs are recorded by `log(i, …)`, `value(i, …)` and `throws(i, …)`. */
function instrument(block: string, checks: Check[]): string {
  return statements(block)
    .map(({ lines, next }) => {
      const text = lines.join('\n');
      const last = [...lines].reverse().find((line) => splitComment(line).comment !== null);
      const trailing = last === undefined ? null : splitComment(last).comment!.split(/ {3}/)[0]!;
      if (text.includes('console.log(')) {
        const output = next.length > 0 ? commentText(next) : trailing;
        if (output === null) throw new Error(`no output shown for ${text}`);
        checks.push({ kind: 'print', statement: text, output });
        return text.replace('console.log(', `log(${checks.length - 1}, `);
      }
      if (/^(const|let|try|if|for)\b/.test(text)) return text;
      const code = lines.map((line) => splitComment(line).code).join('\n');
      const error = next.length > 0 ? /^(\w*Error): (.*)$/.exec(commentText(next, true)) : null;
      if (error !== null) {
        checks.push({ kind: 'throw', statement: text, name: error[1]!, message: error[2]! });
        return `throws(${checks.length - 1}, () => { ${code} }, pool);`;
      }
      const number = trailing === null ? null : /^-?\d+(?:\.\d+)?(?=$|,)/.exec(trailing);
      if (number === null) return text;
      checks.push({ kind: 'value', statement: text, output: number[0] });
      return `value(${checks.length - 1}, ${code.trim().replace(/;$/, '')});`;
    })
    .join('\n');
}

describe('README usage', () => {
  it('prints, returns and throws what its comments say', () => {
    const usage = /## Usage\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
    const [join1, join2] = [
      ...(/### With `@ftw\/selection`\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '').matchAll(
        /```ts\n([\s\S]*?)\n```/g,
      ),
    ].map((m) => m[1]!);
    expect([usage, join1, join2].every((block) => block !== undefined)).toBe(true);
    const checks: Check[] = [];
    const main = instrument(
      usage!.replace(/^import \{[\s\S]*?\} from '@ftw\/replay-pool';\n/m, ''),
      checks,
    ).replaceAll("'/data/pool.snap'", JSON.stringify(join(dir, 'pool.snap')));
    const selection = instrument(join1!, checks);
    const drawingChecks = checks.length;
    const drawing = instrument(join2!, checks);
    const outputs: string[][] = checks.map(() => []);
    const log = (i: number, ...args: unknown[]) => outputs[i]!.push(tokens(format(...args)));
    const value = (i: number, v: unknown) => outputs[i]!.push(String(v));
    const throws = (i: number, f: () => void, pool: replayPool.ReplayPool) => {
      const before = pool.toBytes();
      try {
        f();
        outputs[i]!.push('no error');
      } catch (error) {
        const { name, message } = error as Error;
        const unchanged = Buffer.compare(before, pool.toBytes()) === 0;
        outputs[i]!.push(`${name}: ${message}${unchanged ? '' : ' (pool changed)'}`);
      }
    };
    // The joining blocks run on the usage block's pool at its policy version 8: `indices` (from a sampler,
    // `…` in the block) are [0, 1, 1] and `random()` takes each of the `index.size` values (k + 0.5) / size.
    const run = new Function(
      'lib',
      'log',
      'value',
      'throws',
      `const { ${Object.keys(replayPool).join(', ')} } = lib;
${main}
const version = 8;
const joined = {};
{
  const indices = [0, 1, 1];
${selection}
  Object.assign(joined, { returns, positions, chosen, age });
}
const size = pool.selectableIndex(version).size;
for (let j = 0; j < size; j++) {
  const random = () => (j + 0.5) / size;
${drawing}
}
return { pool, size, joined };`,
    );
    const { pool, size, joined } = run(replayPool, log, value, throws);
    const expected = checks.map((check, i) => {
      const times = i >= drawingChecks ? size : 1; // the last block ran once per value of random()
      return Array.from({ length: times }, () =>
        check.kind === 'throw' ? `${check.name}: ${check.message}` : check.output,
      );
    });
    expect(outputs).toEqual(expected);
    expect(checks.map(({ kind }) => kind)).toEqual([
      ...['value', 'value', 'value', 'value'],
      ...['print', 'print', 'print', 'print', 'print', 'print', 'print'],
      'throw',
      'print',
      'print',
    ]);
    expect(size).toBe(2);
    // The selection block's comment: "Float64Array of returns, Uint32Array of positions".
    expect(joined.returns).toBeInstanceOf(Float64Array);
    expect(joined.positions).toBeInstanceOf(Uint32Array);
    expect(joined.chosen.map((t: replayPool.Trajectory) => t.sequence)).toEqual([2, 3, 3]);
    expect(joined.age.distinct).toBe(2);
    expect(pool.pushedCount).toBe(4);
  });
});
