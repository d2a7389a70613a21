import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations (typed by its JSDoc)
import { buildFromSource } from '../../scripts/build-from-source.mjs';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { trainSeed } from '../train/train-seed.js';
import { reportPage } from '../view/report-page.js';
import type { RunData } from '../view/run-data.js';
import { ndjson } from './ndjson.js';
import { type RunFormatting, startRunFormatting } from './run-formatting.js';

/** The worker's script built from the current sources (never a stale dist/), removed after the tests. */
let built: { file: string; remove: () => void };
beforeAll(async () => {
  built = await buildFromSource({ entry: 'src/run/run-formatter-worker.ts', name: 'run-formatter-worker' });
});
afterAll(() => built?.remove());

const config = { ...REPRODUCE_CONFIG, iterations: 30, seeds: [0, 1] };
const seeds = config.seeds.map((seed) => trainSeed(config, seed).metrics);
/** Rows of another shape: strings (a compare run's labels) and a nested object (Sokoban's evaluation). */
const labelled = seeds[0]!.slice(0, 5).map((row, i) => ({
  scenario: 'bandit',
  method: i < 3 ? 'ftw' : 'grpo',
  ...row,
  evaluation: { heldOutSuccess: i / 4 },
}));
const page = { name: 'r', config: { command: 'train', ...config }, summary: { seeds: 2 } };
const text = (bytes: Uint8Array | null): string | null =>
  bytes === null ? null : new TextDecoder().decode(bytes);

/** Every way of running the formatting: on a worker thread (the CLI) and on the calling thread. */
const threads = (): [string, () => RunFormatting][] => [
  ['worker', () => startRunFormatting({ script: built.file })],
  ['inline', () => startRunFormatting({ script: null })],
  // Told the seeds in advance (a train run), the page thins each seed as it comes: the same page.
  ['worker told the seeds', () => startRunFormatting({ script: built.file, seedCurves: 2 })],
];

describe('startRunFormatting', () => {
  it('formats on a worker thread when given its script, on the calling thread otherwise', async () => {
    const worker = startRunFormatting({ script: built.file });
    const inline = startRunFormatting({ script: null });
    expect([worker.thread, inline.thread]).toEqual(['worker', 'inline']);
    await worker.stop();
    // From the sources (as here) no worker script sits beside the module.
    expect(startRunFormatting().thread).toBe('inline');
  });

  for (const [name, start] of threads()) {
    it(`${name}: metrics.ndjson holds every row handed over, in order, byte for byte; report.html is the run's page`, async () => {
      const formatting = start();
      // Seed by seed, as a training run hands them over; then rows that cannot cross as columns.
      for (const rows of seeds) formatting.add(rows);
      formatting.add([]);
      formatting.add(labelled);
      const all = [...seeds.flat(), ...labelled];
      const { metrics, page: html } = await formatting.finish(page);
      expect(text(metrics)).toBe(ndjson(all));
      expect(text(metrics)).toBe(all.map((row) => `${JSON.stringify(row)}\n`).join(''));
      expect(text(html)).toBe(reportPage([{ ...page, metrics: all as unknown as RunData['metrics'] }]));
    });

    it(`${name}: no page when none is asked for, and an empty file for no rows`, async () => {
      const formatting = start();
      const { metrics, page: html } = await formatting.finish(null);
      expect(metrics.byteLength).toBe(0);
      expect(html).toBeNull();
    });

    it(`${name}: a row JSON cannot write fails the run with JSON's message`, async () => {
      const formatting = start();
      const bad = [{ seed: 0, reward: 1n }];
      // On the calling thread the failure is immediate; on the worker it is reported when finishing.
      let failure: unknown;
      try {
        formatting.add(bad);
        await formatting.finish(null);
      } catch (error) {
        failure = error;
      }
      expect(String(failure)).toMatch(/BigInt/);
      await formatting.stop();
    });
  }

  it('reports a worker thread that cannot start, naming its error', async () => {
    const formatting = startRunFormatting({ script: `${built.file}.missing.js` });
    formatting.add(seeds[0]!);
    await expect(formatting.finish(null)).rejects.toThrow(/Cannot find module|ERR_MODULE_NOT_FOUND|exited/);
  });

  it('stops its worker thread when abandoned, after which finishing fails', async () => {
    const formatting = startRunFormatting({ script: built.file });
    formatting.add(seeds[0]!);
    await formatting.stop();
    await expect(formatting.finish(null)).rejects.toThrow(/exited/);
  });
});
