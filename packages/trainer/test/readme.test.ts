// Runs the README's usage block against the source: its TypeScript is transpiled (types stripped), the
// import of '@ftw/trainer' becomes the package's exports, and what each `console.log` prints must be the
// comment line right after it.
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as trainer from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README usage', () => {
  const block = /## Usage\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? '';

  it('fits in about 40 lines, with a user-written environment and policy', () => {
    expect(block.split('\n').length).toBeLessThanOrEqual(42);
    expect(block).toMatch(/class \w+ implements Environment/);
    expect(block).toMatch(/const policy: Policy = \{/);
  });

  it('trains and prints what its comments say', () => {
    const lines = block.split('\n');
    const expected = lines.flatMap((line, k) =>
      line.includes('console.log(') && lines[k + 1]?.startsWith('// ') ? [lines[k + 1]!.slice(3)] : [],
    );
    const source = block.replace(/import \{[^}]*\} from '@ftw\/trainer';/, '');
    const js = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const printed: string[] = [];
    const console = { log: (...args: unknown[]) => printed.push(format(...args)) };
    const names = Object.keys(trainer).join(', ');
    new Function('lib', 'console', `const { ${names} } = lib;\n${js}`)(trainer, console);
    expect(expected.length).toBeGreaterThan(0);
    expect(printed).toEqual(expected);
  });
});
