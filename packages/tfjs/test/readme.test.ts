// Runs the README's usage block against the source: its TypeScript is transpiled (types stripped), the
// imports of '@ftw/trainer' and '@ftw/tfjs' become those packages, and what each `console.log` prints
// must be the comment line right after it.
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import * as trainer from '@ftw/trainer';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as tfjs from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README usage', () => {
  const block = /## Usage\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? '';

  it('trains an MLP with train(), saves and loads it, and prints what its comments say', async () => {
    const lines = block.split('\n');
    const expected = lines.flatMap((line, k) =>
      line.includes('console.log(') && lines[k + 1]?.startsWith('// ') ? [lines[k + 1]!.slice(3)] : [],
    );
    const source = block.replace(/import \{[^}]*\} from '@ftw\/(trainer|tfjs)';/g, '');
    const js = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const printed: string[] = [];
    const console = { log: (...args: unknown[]) => printed.push(format(...args)) };
    const names = [...Object.keys(trainer), ...Object.keys(tfjs)].join(', ');
    const AsyncFunction = (async () => {}).constructor as new (
      ...args: string[]
    ) => (...a: unknown[]) => Promise<void>;
    await new AsyncFunction('lib', 'console', `const { ${names} } = lib;\n${js}`)(
      { ...trainer, ...tfjs },
      console,
    );
    expect(expected.length).toBe(2);
    expect(printed).toEqual(expected);
  });
});
