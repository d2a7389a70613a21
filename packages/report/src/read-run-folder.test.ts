import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunFolder } from './read-run-folder.js';
import { RunFolderError } from './run-folder-error.js';

const root = mkdtempSync(join(tmpdir(), 'ftw-report-read-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const line = (seed: number, iteration: number): string =>
  JSON.stringify({ seed, iteration, samples: iteration, reward: 0.5 });

/** A run folder with the files given. */
function runFolder(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  return dir;
}

const config = JSON.stringify({ command: 'train', environment: { kind: 'bernoulli', probs: [0.2, 0.8] } });

describe('readRunFolder', () => {
  it('reads config, summary and every metric line, byte-order marks and all', async () => {
    const dir = runFolder('good', {
      'config.json': `\uFEFF${config}`,
      'summary.json': '{"n": 1}',
      'metrics.ndjson': `\uFEFF${line(0, 1)}\n${line(0, 2)}\n${line(1, 1)}\n`,
    });
    const run = await readRunFolder(dir);
    expect(run.name).toBe('good');
    expect(run.config['command']).toBe('train');
    expect(run.summary).toEqual({ n: 1 });
    expect(run.metrics.map((r) => [r['seed'], r['iteration']])).toEqual([
      [0, 1],
      [0, 2],
      [1, 1],
    ]);
    expect(run.notices).toBeUndefined();
  });

  it('leaves out a last line cut short and names it in a notice', async () => {
    const dir = runFolder('cut', {
      'config.json': config,
      'summary.json': '{}',
      'metrics.ndjson': `${line(0, 1)}\n${line(0, 2)}\n{"seed": 0, "itera`,
    });
    const run = await readRunFolder(dir);
    expect(run.metrics).toHaveLength(2);
    expect(run.notices).toEqual([
      'cut: the last line of metrics.ndjson (line 3) is cut short, as when a run is killed while writing; the 2 complete lines are drawn',
    ]);
  });

  it('throws a RunFolderError with code FTW_RUN_FOLDER naming the folder and what is wrong', async () => {
    const refused = async (path: string): Promise<RunFolderError> => {
      const error = await readRunFolder(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunFolderError);
      expect((error as RunFolderError).code).toBe('FTW_RUN_FOLDER');
      return error as RunFolderError;
    };
    expect((await refused(join(root, 'missing'))).message).toMatch(/^run folder ".*missing" does not exist$/);
    const noSummary = runFolder('no-summary', { 'config.json': config, 'metrics.ndjson': line(0, 1) });
    expect((await refused(noSummary)).message).toMatch(
      /no-summary is not an ftw run: it has no summary\.json/,
    );
    const occupancy = runFolder('occupancy', {
      'config.json': '{"command": "occupancy"}',
      'summary.json': '{}',
      'metrics.ndjson': line(0, 1),
    });
    expect((await refused(occupancy)).message).toMatch(
      /is a run of "ftw occupancy", which has no learning curves/,
    );
    const old = runFolder('old', {
      'config.json': config,
      'summary.json': '{}',
      'metrics.ndjson': `${JSON.stringify({ iteration: 1, reward: 0.5 })}\n`,
    });
    expect((await refused(old)).message).toMatch(/line 1 has no numeric "seed" field \(got nothing\)/);
    const broken = runFolder('broken', {
      'config.json': config,
      'summary.json': '{}',
      'metrics.ndjson': `${line(0, 1)}\n{"seed": 0,\n${line(0, 3)}\n`,
    });
    expect((await refused(broken)).message).toMatch(/metrics\.ndjson line 2 is not valid JSON/);
  });
});
