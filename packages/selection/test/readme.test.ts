// Runs the README's usage block against the source and checks every output its comments show: an
// `expression;` statement followed by comment lines shows its value, a typed array as `Float64Array [a, b, …]`
// or an object of them as `{ key: Uint32Array […], … }` (text after a closing `]` is prose). Each number is
// compared at the precision shown: its shortest round-trip form (`String(x)`), or `x.toFixed(d)` for a number
// shown with d decimals. The training-loop block after it runs too; its comment's claim ("the same object
// each time") is checked on what `selectElites` returns.
import { readFileSync } from 'node:fs';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import * as selection from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
/** The ```ts blocks of the Usage section: the usage block, then the training loop. */
const [usage, loop] = [
  ...(/## Usage\n\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '').matchAll(/```ts\n([\s\S]*?)\n```/g),
].map((m) => m[1]!);

type TypedArray = Float64Array | Uint32Array;
/** A value a comment shows: a typed array (`key` null), or the typed arrays of an object, by key. */
type Shown = { key: string | null; type: string; numbers: string[] };

/** What a comment shows, or null when it shows no typed array (prose). */
function shownValue(comment: string): Shown[] | null {
  const arrays = [...comment.matchAll(/(?:(\w+):\s+)?(\w+Array) \[([^\]]*)\]/g)].map((m) => ({
    key: m[1] ?? null,
    type: m[2]!,
    numbers: m[3]!.split(',').map((text) => text.trim()),
  }));
  if (arrays.length === 0) return null;
  if (comment.startsWith('{') !== arrays.every(({ key }) => key !== null)) throw new Error(comment);
  return arrays;
}

/** Whether `value` is `text` at the precision shown. */
function matches(value: number, text: string): boolean {
  const decimals = /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
  return String(value) === text || (decimals > 0 && value.toFixed(decimals) === text);
}

describe('README usage', () => {
  it('gives the values its comments show', () => {
    expect(usage).toBeDefined();
    const lines = usage!.replace(/^import [\s\S]*?;\n/gm, '').split('\n');
    const checks: { expression: string; shown: Shown[] }[] = [];
    const program = lines.map((line, k) => {
      const m = /^([^/].*);$/.exec(line);
      if (m === null || /^(const|let) /.test(line)) return line;
      const comment: string[] = [];
      for (let j = k + 1; j < lines.length && lines[j]!.startsWith('// '); j++)
        comment.push(lines[j]!.slice(3));
      const shown = shownValue(comment.join(' ').replace(/\s+/g, ' '));
      if (shown === null) return line;
      checks.push({ expression: m[1]!, shown });
      return `values.push(${m[1]});`;
    });
    const values: unknown[] = new Function(
      'lib',
      'xoroshiro128plus',
      `const { ${Object.keys(selection).join(', ')} } = lib; const values = [];\n${program.join('\n')}\nreturn values;`,
    )(selection, xoroshiro128plus);
    expect(checks.map(({ expression }) => expression.replace(/\(.*/, ''))).toEqual([
      'rankOccupancy',
      'selectElites',
      'expectedCounts',
      'expectedCounts',
    ]);
    expect(values).toHaveLength(checks.length);
    let numbers = 0;
    checks.forEach(({ expression, shown }, i) => {
      const value = values[i] as TypedArray | Record<string, TypedArray>;
      if (shown[0]!.key !== null) expect(Object.keys(value), expression).toEqual(shown.map(({ key }) => key));
      for (const { key, type, numbers: texts } of shown) {
        const array = (key === null ? value : (value as Record<string, TypedArray>)[key]) as TypedArray;
        const where = `${expression} ${key ?? ''}`;
        expect(array?.constructor.name, where).toBe(type);
        expect(array.length, where).toBe(texts.length);
        texts.forEach((text, j) => {
          expect(matches(array[j]!, text), `${where}[${j}] = ${array[j]}, shown ${text}`).toBe(true);
          numbers++;
        });
      }
    });
    expect(numbers).toBe(8 + 4 + 6 + 5 + 6 + 6);
  });

  it('runs the training loop, selecting into the same object each time', () => {
    expect(loop).toContain(
      'selection = selectElites(pool, { batches: 4, batchSize: 3, keep: 1 }, generator, selection);',
    );
    const calls: { out: unknown; result: unknown }[] = [];
    const recording = (...args: Parameters<typeof selection.selectElites>) => {
      const result = selection.selectElites(...args);
      calls.push({ out: args[3], result });
      return result;
    };
    new Function('selectElites', 'xoroshiro128plus', loop!)(recording, xoroshiro128plus);
    expect(calls).toHaveLength(4);
    for (const { out, result } of calls.slice(1)) expect(result).toBe(out);
    expect(new Set(calls.map(({ result }) => result)).size).toBe(1);
  });
});
