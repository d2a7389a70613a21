// Runs the README's usage block against the source and checks every output its comments show.
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as objective from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README usage', () => {
  it('prints what its comments say', () => {
    const block = /## Usage\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const lines = (block ?? '').split('\n');
    // Each console.log line is followed by one comment line with its output.
    const expected = lines.flatMap((line, k) =>
      line.includes('console.log(') && lines[k + 1]?.startsWith('// ') ? [lines[k + 1]!.slice(3)] : [],
    );
    const code = (block ?? '')
      .replace(/import \{[\s\S]*?\} from '@ftw\/objective';/, '')
      .replaceAll(' as const', '');
    const printed: string[] = [];
    const console = { log: (...args: unknown[]) => printed.push(format(...args)) };
    new Function('lib', 'console', `const { ${Object.keys(objective).join(', ')} } = lib;\n${code}`)(
      objective,
      console,
    );
    expect(printed).toEqual(expected);
    expect(printed.length).toBe(9);
  });
});
