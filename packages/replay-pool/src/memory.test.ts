import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ReplayPool } from './replay-pool.js';
import type { Trajectory } from './trajectory.js';

// A full garbage collection on demand, without starting the test runner with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const collect = async (): Promise<void> => {
  // WeakRef targets stay alive until the end of the job that created or dereferenced them.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  gc();
};

const small = (k: number) => ({
  actions: [k & 3, 1],
  logProbs: [-0.5, -1],
  versions: k >>> 10,
  return: k % 7,
});

describe('ReplayPool memory', () => {
  it('lets evicted trajectories be garbage-collected and keeps the held ones', async () => {
    const pool = new ReplayPool({ capacity: 4 });
    const refs: WeakRef<Trajectory>[] = [];
    for (let k = 0; k < 10; k++) {
      pool.push(small(k));
      refs.push(new WeakRef(pool.at(pool.size - 1)));
    }
    await collect();
    expect(refs.map((r) => r.deref() !== undefined)).toEqual([
      ...Array(6).fill(false),
      ...Array(4).fill(true),
    ]);
  });

  it("lets evicted trajectories' columns be garbage-collected and keeps the held ones", async () => {
    // The pool holds a trajectory's columns whether or not `at` built its record: trajectories of 2,100
    // steps (33.6 KB, over the 32 KiB above which a block gets an ArrayBuffer of its own) make each
    // trajectory's columns one buffer that a WeakRef can watch, with no record kept by the test.
    const steps = 2_100;
    const pool = new ReplayPool({ capacity: 4 });
    const refs: WeakRef<ArrayBuffer>[] = [];
    for (let k = 0; k < 10; k++) {
      pool.push({
        actions: new Int32Array(steps).fill(k & 3),
        logProbs: new Float64Array(steps).fill(-0.5),
        versions: k,
        return: k,
      });
      refs.push(new WeakRef(pool.at(pool.size - 1).actions.buffer as ArrayBuffer));
    }
    await collect();
    expect(refs.map((r) => r.deref() !== undefined)).toEqual([
      ...Array(6).fill(false),
      ...Array(4).fill(true),
    ]);
    // The held ones are intact.
    expect(Array.from(pool, (t) => [t.sequence, t.return, t.actions[steps - 1], t.logProbs[0]])).toEqual([
      [6, 6, 2, -0.5],
      [7, 7, 3, -0.5],
      [8, 8, 0, -0.5],
      [9, 9, 1, -0.5],
    ]);
  });

  it('holds the heap flat once full: 10^6 pushes into capacity 10^4 (the 10^7 run is bench/memory.mjs)', async () => {
    const pool = new ReplayPool({ capacity: 10_000 });
    let k = 0;
    while (k < 100_000) pool.push(small(k++));
    await collect();
    const early = process.memoryUsage();
    while (k < 1_000_000) pool.push(small(k++));
    await collect();
    const late = process.memoryUsage();
    console.log(
      `after 1e5 pushes heapUsed ${early.heapUsed} B, arrayBuffers ${early.arrayBuffers} B; ` +
        `after 1e6 heapUsed ${late.heapUsed} B, arrayBuffers ${late.arrayBuffers} B`,
    );
    // Keeping even 8 bytes per evicted trajectory would add 7.2 MB over these 9 * 10^5 pushes; the
    // columns live in 256 KiB slabs, of which at most two beyond the held data may be alive.
    expect(late.heapUsed - early.heapUsed).toBeLessThan(2_000_000);
    expect(late.arrayBuffers - early.arrayBuffers).toBeLessThan(1_000_000);
  });
});
