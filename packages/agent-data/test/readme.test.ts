// Runs the README's library usage block against the source, on the log its example commands write, and
// checks every figure its comments show (`expression; // value`), at the precision shown.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the package's example is plain JavaScript, run as is by node.
import { scriptedLog } from '../examples/scripted-agent.mjs';
import * as agentData from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'agent-data-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The figures a comment shows: a number, or `key: number` pairs of an object. */
function shownFigures(comment: string): { key: string | null; text: string }[] {
  const pairs = [...comment.matchAll(/(\w+): (-?\d+(?:\.\d+)?)\b/g)];
  if (comment.startsWith('{')) return pairs.map((m) => ({ key: m[1]!, text: m[2]! }));
  const number = /^-?\d+(?:\.\d+)?/.exec(comment);
  return number === null ? [] : [{ key: null, text: number[0] }];
}

describe('README usage (library)', () => {
  it('gives the figures its comments show, on the log of the example commands', async () => {
    // node packages/agent-data/examples/scripted-agent.mjs --shape ai-sdk --runs 2000 --success-rate 0.3 --seed 1
    writeFileSync(
      join(dir, 'runs.jsonl'),
      scriptedLog({ shape: 'ai-sdk', runs: 2000, successRate: 0.3, seed: 1 }),
    );
    const block = /## Usage \(library\)\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? '';
    const checks: { expression: string; figures: { key: string | null; text: string }[] }[] = [];
    const lines = block
      .replace(/^import [\s\S]*?;\n/gm, '')
      .replaceAll("'runs.jsonl'", JSON.stringify(join(dir, 'runs.jsonl')))
      .replaceAll("'sft.jsonl'", JSON.stringify(join(dir, 'sft.jsonl')))
      .split('\n')
      .map((line) => {
        // A statement followed by its value: `expression; // value`.
        const m = /^(?:await )?(.+?);\s*\/\/ (.+)$/.exec(line);
        if (m === null || /^(const|let) /.test(line)) return line;
        const figures = shownFigures(m[2]!);
        if (figures.length === 0) return line;
        checks.push({ expression: m[1]!, figures });
        return `values.push(await (${m[1]}));`;
      });
    const run = new Function(
      'lib',
      'xoroshiro128plus',
      'console',
      `return (async () => { const { ${Object.keys(agentData).join(', ')} } = lib; const values = [];\n${lines.join('\n')}\nreturn values; })();`,
    );
    const values: unknown[] = await run(agentData, xoroshiro128plus, { warn: () => {} });
    expect(checks.length).toBeGreaterThanOrEqual(8);
    expect(values).toHaveLength(checks.length);
    checks.forEach(({ expression, figures }, i) => {
      for (const { key, text } of figures) {
        const value = key === null ? values[i] : (values[i] as Record<string, unknown>)[key];
        const decimals = text.split('.')[1]?.length ?? 0;
        expect(typeof value, `${expression} ${key ?? ''}`).toBe('number');
        expect((value as number).toFixed(decimals), `${expression} ${key ?? ''}`).toBe(text);
      }
    });
  });
});
