import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PoolError } from './pool-error.js';
import { ReplayPool } from './replay-pool.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'replay-pool-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The snapshot already on disk before the child starts: small, and different from the child's. */
function previousSnapshot(path: string): Uint8Array {
  const pool = new ReplayPool({ capacity: 3, maxVersionLag: 1 });
  pool.push({ actions: [1, 2], logProbs: [-0, -3], versions: [0, 1], return: -0, metadata: 'previous' });
  pool.save(path);
  return pool.toBytes();
}

interface Child {
  /** Resolves with the first stdout line that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  kill(): Promise<NodeJS.Signals | null>;
}

function startChild(path: string, mode: 'block' | 'free', trajectories: number, steps: number): Child {
  const child = spawn(
    process.execPath,
    [
      '--import',
      './test/register-ts.mjs',
      'test/save-child.ts',
      path,
      mode,
      String(trajectories),
      String(steps),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
  const deliver = () => {
    for (const w of [...waiting]) {
      const line = out.split('\n').find((l) => l.startsWith(w.prefix));
      if (line !== undefined) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    deliver();
  });
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_, signal) => resolve(signal)),
  );
  return {
    line: (prefix) =>
      new Promise((resolve, reject) => {
        waiting.push({ prefix, resolve });
        deliver();
        void exited.then(() => reject(new Error(`child exited before "${prefix}": ${out} ${err}`)));
      }),
    kill: () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
}

describe('ReplayPool.save', () => {
  it('keeps the previous snapshot loadable when the writer is killed mid-write', async () => {
    const path = join(dir, 'blocked.snap');
    const previous = previousSnapshot(path);
    const child = startChild(path, 'block', 400, 1000);
    const total = Number((await child.line('saving ')).split(' ')[1]);
    const partial = Number((await child.line('partial ')).split(' ')[1]);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(total);
    const temporaries = readdirSync(dir).filter((f) => f.startsWith('.blocked.snap.') && f.endsWith('.tmp'));
    expect(temporaries).toHaveLength(1);
    const temporary = join(dir, temporaries[0]!);
    expect(statSync(temporary).size).toBe(partial);

    expect(await child.kill()).toBe('SIGKILL');

    // The file at the path is the previous snapshot, byte for byte, and loads.
    expect(new Uint8Array(readFileSync(path))).toEqual(previous);
    expect(ReplayPool.load(path).toBytes()).toEqual(previous);
    // The half-written temporary file is never taken for a snapshot.
    expect(() => ReplayPool.load(temporary)).toThrow(PoolError);
    expect(() => ReplayPool.load(temporary)).toThrow(expect.objectContaining({ code: 'SNAPSHOT_TRUNCATED' }));
    // A later save still succeeds next to the leftover.
    ReplayPool.load(path).save(path);
    expect(new Uint8Array(readFileSync(path))).toEqual(previous);
  });

  it.each([0, 50])(
    'leaves either the previous or the complete new snapshot when killed %i ms after the write began',
    async (delay) => {
      const path = join(dir, `free-${delay}.snap`);
      const temporary = (name: string) => name.startsWith(`.free-${delay}.snap.`);
      const previous = previousSnapshot(path);
      const child = startChild(path, 'free', 1000, 1000);
      await child.line('saving ');
      // Poll for the temporary file (the write has begun), then let the writer run `delay` ms more.
      const began = Date.now();
      while (!readdirSync(dir).some(temporary) && Date.now() - began < 20_000) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      await child.kill();
      // Whenever the kill landed, the path holds a complete snapshot: the old one or the child's.
      const loaded = ReplayPool.load(path);
      const bytes = new Uint8Array(readFileSync(path));
      if (loaded.capacity === 3) expect(bytes).toEqual(previous);
      else
        expect([loaded.size, loaded.at(999).return, loaded.at(0).metadata]).toEqual([
          1000,
          999,
          { writer: 'child', k: 0 },
        ]);
      // Any temporary file left behind is either incomplete (refused) or a complete copy of the child's.
      for (const f of readdirSync(dir).filter(temporary)) {
        try {
          expect(ReplayPool.load(join(dir, f)).size).toBe(1000);
        } catch (error) {
          expect(error).toMatchObject({ code: 'SNAPSHOT_TRUNCATED' });
        }
      }
    },
  );
});
