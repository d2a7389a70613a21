import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NDJSON_CHUNK_ROWS } from './ndjson.js';
import { RunDirectory } from './run-directory.js';
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

  it('writes metrics of more rows than one chunk holds, byte for byte', async () => {
    const metrics = Array.from({ length: 2 * NDJSON_CHUNK_ROWS + 3 }, (_, i) => ({
      seed: i % 7,
      iteration: i + 1,
      samples: i + 1,
      reward: Math.sin(i) / 3,
      label: i % 1000 === 0 ? '},{' : null,
    }));
    const chunks: string[] = [];
    const write = RunDirectory.prototype.writeChunksInBackground;
    const spy = vi.spyOn(RunDirectory.prototype, 'writeChunksInBackground').mockImplementation(function (
      this: RunDirectory,
      file,
      given,
    ) {
      const seen = [...given];
      if (file === 'metrics.ndjson') chunks.push(...seen);
      return write.call(this, file, seen);
    });
    try {
      const path = await openRun(output(root()), 'occupancy').finish({ ...artifacts, metrics });
      expect(readFileSync(join(path, 'metrics.ndjson'), 'utf8')).toBe(
        metrics.map((row) => `${JSON.stringify(row)}\n`).join(''),
      );
    } finally {
      spy.mockRestore();
    }
    // Never one string of every row (a long run's would exceed V8's longest string): 4,096 rows at most.
    expect(chunks.map((c) => c.split('\n').length - 1)).toEqual([NDJSON_CHUNK_ROWS, NDJSON_CHUNK_ROWS, 3]);
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

  it('waits for a write still in flight before it removes a failed run', async () => {
    // metrics.ndjson is made a named pipe whose reader the test holds: the metrics write blocks once the
    // pipe is full, so the run fails (a file outside the run) while that write is still in flight. The
    // folder may only go once the write has settled: finish must not settle before the pipe is drained.
    const dir = root();
    const run = openRun(output(dir), 'occupancy');
    const partial = readdirSync(dir).find((name) => name.startsWith('.r.partial-'));
    expect(partial).toBeDefined();
    const fifo = join(dir, partial!, 'metrics.ndjson');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      // About 0.5 MB of lines, far beyond a pipe's 64 KiB.
      const metrics = Array.from({ length: 10_000 }, (_, i) => ({ seed: 0, iteration: i, reward: i / 3 }));
      const bad = { ...artifacts, metrics, files: { '../escape.svg': '<svg/>' } };
      let settled = false;
      const finished = run.finish(bad).finally(() => {
        settled = true;
      });
      finished.catch(() => undefined);
      await sleep(200);
      expect(settled).toBe(false);
      // Drain the pipe until the writer closes it (EOF), then the run may fail and be removed.
      const buffer = Buffer.alloc(1 << 16);
      let received = 0;
      for (;;) {
        let n: number;
        try {
          n = readSync(reader, buffer);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
          await sleep(1);
          continue;
        }
        if (n === 0 && received > 0) break;
        received += n;
        if (n === 0) await sleep(1);
      }
      await expect(finished).rejects.toThrow(/file must stay inside the run/);
      expect(readdirSync(dir)).toEqual([]);
      expect(received).toBeGreaterThan(1 << 16);
    } finally {
      closeSync(reader);
    }
  });
});
