import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openRun } from './write-run.js';

const roots: string[] = [];
const root = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ftw-write-run-'));
  roots.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const output = (out: string) => ({ out, name: 'r', quiet: true, json: false });
const artifacts = {
  config: { seeds: [0] },
  metrics: [
    { seed: 0, iteration: 1, samples: 1, reward: -0, label: '},{' },
    { seed: 0, iteration: 2, samples: 2, reward: 1e-7, label: null },
  ],
  summary: {},
  report: '# r\n',
  files: {},
};

describe('openRun', () => {
  it('writes the metrics as one JSON.stringify line per row', async () => {
    const path = await openRun(output(root()), 'occupancy').finish(artifacts);
    expect(readFileSync(join(path, 'metrics.ndjson'), 'utf8')).toBe(
      artifacts.metrics.map((row) => `${JSON.stringify(row)}\n`).join(''),
    );
  });

  it('records the training time in timing.json beside the duration, rounded to a millisecond', async () => {
    const path = await openRun(output(root()), 'occupancy').finish({ ...artifacts, trainingMs: 12.6 });
    const timing = JSON.parse(readFileSync(join(path, 'timing.json'), 'utf8'));
    expect(Object.keys(timing)).toEqual(['startedAt', 'finishedAt', 'durationMs', 'trainingMs']);
    expect(timing.trainingMs).toBe(13);
    expect(timing.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('leaves trainingMs out for a command that does not train', async () => {
    const path = await openRun(output(root()), 'occupancy').finish(artifacts);
    const timing = JSON.parse(readFileSync(join(path, 'timing.json'), 'utf8'));
    expect(Object.keys(timing)).toEqual(['startedAt', 'finishedAt', 'durationMs']);
  });

  it('removes the unfinished folder when finishing fails, once its background write has settled', async () => {
    const dir = root();
    const bad = { ...artifacts, files: { '../escape.svg': '<svg/>' } };
    await expect(openRun(output(dir), 'occupancy').finish(bad)).rejects.toThrow(
      /file must stay inside the run/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});
