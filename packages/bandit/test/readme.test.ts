// Runs the README's usage block against the source and checks every output its comments show. Each
// `console.log(…)` statement is followed by comment lines holding what it prints (a comment on the
// statement's own last line is prose: what the value is); the test compares what it prints with them, token
// for token (line breaks and indentation aside).
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import { statements, tokens } from '@ftw/internal/readme-block';
import { describe, expect, it } from 'vitest';
import * as bandit from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

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
