// Runs the README's usage block against the source and checks every output its comments show. Each
// `console.log(…)` statement is followed by comment lines holding what it prints (a comment on the
// statement's own last line is prose: what the value is); the test compares what it prints with them, token
// for token (line breaks and indentation aside).
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as bandit from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** A line split at its first `//` outside a string literal: the code, and the comment (or null). */
function splitComment(line: string): { code: string; comment: string | null } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '/' && line[i + 1] === '/')
      return { code: line.slice(0, i), comment: line.slice(i + 2).trim() };
  }
  return { code: line, comment: null };
}

/** The block cut into statements: a statement ends on the first line where its brackets are all closed. */
function statements(block: string): { lines: string[]; next: string[] }[] {
  const lines = block.split('\n');
  const result: { lines: string[]; next: string[] }[] = [];
  let current: string[] = [];
  let depth = 0;
  lines.forEach((line, k) => {
    const { code } = splitComment(line);
    if (current.length === 0 && code.trim() === '') return;
    current.push(line);
    for (const c of code.replace(/'(?:\\.|[^'\\])*'/g, "''")) {
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
    }
    if (depth === 0) {
      // The comment lines right after the statement.
      const next: string[] = [];
      for (let j = k + 1; j < lines.length && /^\s*\/\/ /.test(lines[j]!); j++) next.push(lines[j]!);
      result.push({ lines: current, next });
      current = [];
    }
  });
  return result;
}

const tokens = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('README usage', () => {
  it('prints what its comments say', () => {
    const block = /## Usage\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const code = (block ?? '').replace(/^import \{[\s\S]*?\} from '@ftw\/bandit';\n/m, '');
    const expected: string[] = [];
    const program = statements(code).map(({ lines, next }) => {
      const text = lines.join('\n');
      if (!/^console\.log\(/.test(text)) return text;
      // What it prints: the comment lines after it (the comment on its own line is prose).
      expect(next.length, `the output of ${text}`).toBeGreaterThan(0);
      expected.push(tokens(next.map((line) => line.replace(/^\s*\/\/ /, '')).join(' ')));
      return text.replace(/^console\.log\(/, `log(${expected.length - 1}, `);
    });
    const printed: string[][] = expected.map(() => []);
    const log = (i: number, ...args: unknown[]) => printed[i]!.push(tokens(format(...args)));
    new Function('lib', 'log', `const { ${Object.keys(bandit).join(', ')} } = lib;\n${program.join('\n')}`)(
      bandit,
      log,
    );
    // Each console.log ran once and printed what its comment shows.
    expect(printed).toEqual(expected.map((output) => [output]));
    expect(expected.length).toBe(9);
  });
});
