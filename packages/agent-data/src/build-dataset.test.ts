import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the example is plain JavaScript with JSDoc, run as is by node.
import { scriptedLog } from '../examples/scripted-agent.mjs';
import { AgentDataError } from './agent-data-error.js';
import { buildDataset, manifestPath } from './build-dataset.js';
import { INPUT_FORMATS } from './input-format.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-data-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A seeded uniform on [0, 1) (mulberry32), independent of the package. */
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('buildDataset', () => {
  it('turns the example agent log of every shape into the same OpenAI fine-tuning file', async () => {
    const outputs = new Map<string, string>();
    for (const shape of INPUT_FORMATS) {
      const input = join(dir, `${shape}.jsonl`);
      writeFileSync(input, scriptedLog({ shape, runs: 300, successRate: 0.4, seed: 3 }));
      const out = join(dir, `${shape}-sft.jsonl`);
      const { manifest } = await buildDataset({
        input,
        from: shape,
        capacity: 200,
        batches: 50,
        batchSize: 8,
        keep: 2,
        format: 'openai',
        out,
        random: uniform(7),
        seed: 7,
      });
      expect(manifest.input.valid).toBe(300);
      expect(manifest.input.skipped).toBe(0);
      expect(manifest.window.size).toBe(200);
      expect(manifest.output.lines).toBe(100);
      outputs.set(shape, readFileSync(out, 'utf8'));
    }
    // ai-sdk logs carry no sequence (createdAt instead) and art keeps the same order: one selection.
    const reference = outputs.get('ftw')!;
    for (const [shape, text] of outputs) expect(text, shape).toBe(reference);
    const first = JSON.parse(reference.split('\n')[0]!);
    expect(first.messages[0]).toEqual({ role: 'system', content: expect.any(String) });
    expect(first.tools[0].function.name).toBe('calculator');
  });

  it('is byte-identical for the same seed and input, and writes a manifest beside the output', async () => {
    const input = join(dir, 'same.jsonl');
    writeFileSync(input, scriptedLog({ shape: 'ftw', runs: 120, successRate: 0.3, seed: 1 }));
    const run = async (name: string) => {
      const out = join(dir, name);
      await buildDataset({
        input,
        capacity: 100,
        batches: 40,
        batchSize: 5,
        keep: 3,
        mode: 'expected',
        format: 'openai',
        out,
        random: uniform(11),
        seed: 11,
      });
      return [readFileSync(out, 'utf8'), readFileSync(manifestPath(out), 'utf8')] as const;
    };
    const [a, am] = await run('a.jsonl');
    const [b, bm] = await run('b.jsonl');
    expect(b).toBe(a);
    expect(bm.replaceAll('b.jsonl', 'a.jsonl')).toBe(am);
    const manifest = JSON.parse(am);
    expect(manifest.seed).toBe(11);
    expect(manifest.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Expected counts are fractional; the file holds their systematic rounding, total exact (J·K = 120).
    const written = manifest.selected.reduce((s: number, e: { written: number }) => s + e.written, 0);
    expect(written).toBe(120);
    expect(a.split('\n').length - 1).toBe(120);
    for (const e of manifest.selected) expect(Math.abs(e.written - e.count)).toBeLessThanOrEqual(1);
  });

  it("records the input's and the output's lines, counts and SHA-256, and the window's lines, as read and written", async () => {
    const run = (id: string, sequence: number, reward: number) =>
      JSON.stringify({ id, task: 't', sequence, messages: [{ role: 'user', content: id }], reward });
    // 8 lines: 6 runs, a bad line (skipped) and a blank line (counted, not skipped). Capacity 4 keeps the
    // newest by sequence, 3..6: r3 (line 5), r6 (line 8), r1 (line 1), r5 (line 7), oldest first.
    const text = `${[
      run('r1', 5, 1),
      run('r2', 1, 0),
      '{"id": "bad"',
      '',
      run('r3', 3, 1),
      run('r4', 2, 0),
      run('r5', 6, 0),
      run('r6', 4, 1),
    ].join('\n')}\n`;
    const input = join(dir, 'hand-written.jsonl');
    writeFileSync(input, text);
    const out = join(dir, 'hand-written-sft.jsonl');
    const { manifest, manifestFile } = await buildDataset({
      input,
      capacity: 4,
      batches: 3,
      batchSize: 2,
      keep: 1,
      mode: 'expected',
      format: 'openai',
      out,
      random: uniform(1),
      seed: 1,
    });
    expect(manifest.input).toEqual({
      file: 'hand-written.jsonl',
      sha256: createHash('sha256').update(text).digest('hex'),
      bytes: Buffer.byteLength(text),
      lines: 8,
      valid: 6,
      skipped: 1,
      // Each run is a lone user message: no assistant answer, counted with its line.
      warnings: {
        'no-final-answer': { count: 6, lines: [1, 2, 5, 6, 7, 8] },
        'undeclared-tool': { count: 0, lines: [] },
        'duplicate-tool-call-id': { count: 0, lines: [] },
      },
    });
    expect(manifest.window).toEqual({ size: 4, evicted: 2, firstLine: 5, lastLine: 7 });
    // Pairs of the window (rewards 1, 1, 1, 0) with K = 1: the failure is never kept, each success is kept
    // in 1/3 of the minibatches (alone with the failure, or on a fair tie with another success): J/3 = 1.
    const written = readFileSync(out);
    expect(manifest.output).toEqual({
      file: 'hand-written-sft.jsonl',
      format: 'openai',
      lines: 3,
      sha256: createHash('sha256').update(written).digest('hex'),
    });
    expect(
      written
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).messages[0].content),
    ).toEqual(['r3', 'r6', 'r1']);
    expect(manifest.selected.map((e) => [e.id, e.written])).toEqual([
      ['r3', 1],
      ['r6', 1],
      ['r1', 1],
    ]);
    for (const e of manifest.selected) expect(e.count).toBeCloseTo(1, 12);
    expect(manifest.report).toMatchObject({ n: 4, groups: 1, successes: 3, eliteFailures: 0 });
    expect(JSON.parse(readFileSync(manifestFile, 'utf8'))).toEqual(manifest);
  });

  const run = (id: string, sequence: number, reward: number) =>
    JSON.stringify({ id, task: 't', sequence, messages: [{ role: 'user', content: id }], reward });
  const small = {
    capacity: 10,
    batches: 4,
    batchSize: 2,
    keep: 1,
    format: 'openai' as const,
    random: uniform(3),
  };

  it('reads a log whose first line opens with a UTF-8 byte-order mark, hashing the file as it is', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${[run('a', 1, 1), run('b', 2, 0), run('c', 3, 1)].join('\n')}\n`),
    ]);
    const input = join(dir, 'bom.jsonl');
    writeFileSync(input, bytes);
    const { manifest } = await buildDataset({ ...small, input, out: join(dir, 'bom-sft.jsonl') });
    expect(manifest.input).toMatchObject({ valid: 3, skipped: 0 });
    expect(manifest.input.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('writes nothing and throws EMPTY_DATASET when the threshold keeps no run, unless allowEmpty', async () => {
    const input = join(dir, 'low.jsonl');
    writeFileSync(input, `${[run('a', 1, 0), run('b', 2, 0.5), run('c', 3, 0)].join('\n')}\n`);
    const folder = join(dir, 'empty');
    mkdirSync(folder);
    const out = join(folder, 'sft.jsonl');
    const error = await buildDataset({ ...small, input, out, threshold: 0.5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentDataError);
    expect(error).toMatchObject({
      code: 'EMPTY_DATASET',
      message:
        'no run was selected: no run of the window has a reward above threshold (0.5); the highest is 0.5',
    });
    expect(readdirSync(folder)).toEqual([]);
    // Expected mode: one success out of 3 runs, J = 1, C = 2, K = 1 gives it 2/3 of a copy, rounded with
    // the uniform u = 0.2 to none (systematic rounding: floor(2/3 + u) = 0).
    const expected = await buildDataset({
      ...small,
      input,
      out,
      threshold: 0.4,
      batches: 1,
      mode: 'expected',
      random: () => 0.2,
    }).catch((e: unknown) => e);
    expect(expected).toMatchObject({
      code: 'EMPTY_DATASET',
      message:
        "no run was selected: 1 of the window's 3 runs have a reward above threshold (0.4), and their expected counts round to no copy",
    });
    expect(readdirSync(folder)).toEqual([]);
    const { manifest } = await buildDataset({ ...small, input, out, threshold: 0.5, allowEmpty: true });
    expect(manifest.output.lines).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(readdirSync(folder).sort()).toEqual(['sft.jsonl', 'sft.manifest.json']);
  });

  it('removes the dataset and every temporary file when the manifest cannot be written', async () => {
    const input = join(dir, 'manifest-fails.jsonl');
    writeFileSync(input, `${[run('a', 1, 1), run('b', 2, 0), run('c', 3, 1)].join('\n')}\n`);
    const folder = join(dir, 'manifest-fails');
    // A folder where the manifest goes: renaming the manifest over it fails.
    mkdirSync(join(folder, 'sft.manifest.json', 'inside'), { recursive: true });
    await expect(buildDataset({ ...small, input, out: join(folder, 'sft.jsonl') })).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
    });
    expect(readdirSync(folder)).toEqual(['sft.manifest.json']);
  });
});
