// pnpm build && node bench/level-split.mjs: how fast levelSplit generates a training set of 10^4 levels
// and a held-out set of 500 for the two settings of issue 40, how fast cachedLevelSplit reads them back,
// and both against a floor measured in the same run: 2 · 10^6 SokobanEnv steps (the goal budget of one
// training run) on the generated levels, the least a run does besides acting. Prints, exits 0: the
// figures are reported, not goals (one generation per setting and seed is cached; see the README).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedLevelSplit, SokobanEnv } from '../dist/index.js';

const STEPS = 2_000_000;
const SETTINGS = [
  { name: '6×6, 1 box', width: 6, height: 6, boxes: 1 },
  { name: '8×8, 2 boxes', width: 8, height: 8, boxes: 2 },
];
const dir = mkdtempSync(join(tmpdir(), 'ftw-level-bench-'));
const seconds = (f) => {
  const start = process.hrtime.bigint();
  const value = f();
  return { value, s: Number(process.hrtime.bigint() - start) / 1e9 };
};
try {
  for (const { name, ...setting } of SETTINGS) {
    const options = { ...setting, seed: 0, training: 10_000, heldOut: 500 };
    const generated = seconds(() => cachedLevelSplit(options, dir));
    const read = seconds(() => cachedLevelSplit(options, dir));
    if (generated.value.cache.status !== 'written' || read.value.cache.status !== 'read') {
      throw new Error(
        `unexpected cache statuses ${generated.value.cache.status}, ${read.value.cache.status}`,
      );
    }
    const { split } = generated.value;
    const levels = split.training.map((l) => l.level);
    const env = new SokobanEnv({ level: levels[0], maxSteps: 30, observationGrid: 'live' });
    const stepped = seconds(() => {
      let level = 0;
      let state = 12345;
      env.reset({ options: { level: levels[level] } });
      for (let i = 0; i < STEPS; i++) {
        state = (state * 1103515245 + 12345) >>> 0;
        const r = env.step(state >>> 30);
        if (r.terminated || r.truncated) env.reset({ options: { level: levels[++level % levels.length] } });
      }
    });
    const count = split.training.length + split.heldOut.length;
    console.log(
      `${name}: generated ${count} distinct certified levels (${split.drawn} drawn) in ${generated.s.toFixed(2)} s = ${(count / generated.s).toFixed(0)} levels/s; ` +
        `cache read + validated in ${read.s.toFixed(2)} s (${(generated.s / read.s).toFixed(1)}× faster); ` +
        `floor ${STEPS.toExponential(0)} env steps ${stepped.s.toFixed(2)} s: generation ${(generated.s / stepped.s).toFixed(2)}×, cache read ${(read.s / stepped.s).toFixed(2)}× of it`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
