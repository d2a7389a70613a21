// pnpm bench (after pnpm build): the speed goals of @ftw/sokoban. Exits non-zero when a goal is missed.
//
// 1. Certified level generation against gym-sokoban's Python generator. Python packages cannot be run
//    here, so the peer's figures are constants measured on a machine of this class (2 cores): about 5.4 ms
//    per 7 × 7 level with one box and about 14 s per 10 × 10 level with four boxes (its reverse-play
//    depth-first search of up to 300,000 states dominates). Goals: at least 50× and 500× faster, every
//    level certified by the optimal solver. Our sizes are interiors (walls added around), so our 7 × 7
//    and 10 × 10 boards hold more floor than gym-sokoban's rooms of the same outer size. Figure: the mean
//    time per level over a fixed run of levels from one seeded stream (means, not medians: the cost of
//    a level varies a lot and the hard ones count), median of 5 rounds. No floor can be measured in the
//    same run for a peer that does not run here, so the goal is judged on the process's CPU time
//    (user + system, GC threads included), which other processes on a shared machine inflate far less
//    than wall time; the wall time is printed beside it.
// 2. SokobanEnv.step against a floor that copies the grid (what every step must do to return a fresh
//    observation), measured in the same round by mitata; goal at most 10×.
import { bench, do_not_optimize } from 'mitata';
import { runAndReport } from '../../../scripts/bench-ratios.mjs';
import { generateLevel, SokobanEnv, seededUniform } from '../dist/index.js';

const ROUNDS = 5;
const GENERATION = [
  { name: '7×7, 1 box', options: { width: 7, height: 7, boxes: 1 }, levels: 2000, peerMs: 5.4, goal: 50 },
  {
    name: '10×10, 4 boxes',
    options: { width: 10, height: 10, boxes: 4 },
    levels: 60,
    peerMs: 14_000,
    goal: 500,
  },
];

function meanMs(options, levels, uniform) {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let moves = 0;
  for (let i = 0; i < levels; i++) moves += generateLevel(options, uniform).moves;
  do_not_optimize(moves);
  const used = process.cpuUsage(cpu);
  return {
    cpu: (used.user + used.system) / 1e3 / levels,
    wall: Number(process.hrtime.bigint() - start) / 1e6 / levels,
  };
}

const format = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

console.log('certified level generation (mean CPU time per level, median of 5 rounds; wall time beside it):');
let missed = 0;
for (const { name, options, levels, peerMs, goal } of GENERATION) {
  const uniform = seededUniform(2026);
  meanMs(options, Math.ceil(levels / 4), uniform); // warm-up
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(meanMs(options, levels, uniform));
  rounds.sort((a, b) => a.cpu - b.cpu);
  const { cpu, wall } = rounds[(ROUNDS - 1) / 2];
  const speedup = peerMs / cpu;
  const met = speedup >= goal;
  if (!met) missed++;
  console.log(
    `  ${name}: ${format(cpu)} CPU per level (rounds ${format(rounds[0].cpu)}–${format(rounds.at(-1).cpu)}; wall ${format(wall)}), ${speedup.toFixed(0)}× faster than gym-sokoban's ${peerMs} ms (goal >= ${goal}×, at most ${format(peerMs / goal)}) ${met ? 'met' : 'NOT MET'}`,
  );
}
if (missed > 0) {
  console.log(`${missed} of ${GENERATION.length} generation goals NOT MET: exit code 1`);
  process.exitCode = 1;
}

const STEPS = 1000;
const { level } = generateLevel({ width: 10, height: 10, boxes: 4 }, 7);
const env = new SokobanEnv({ level, maxSteps: 200 });
env.reset();
const actions = Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 30);
let cursor = 0;
const grid = level.grid;

await runAndReport(() => {
  bench(`${STEPS} grid copies (floor)`, () => {
    let s = 0;
    for (let i = 0; i < STEPS; i++) s += grid.slice()[i & 63];
    do_not_optimize(s);
  });
  bench(`${STEPS} × SokobanEnv.step (10×10, 4 boxes)`, () => {
    let s = 0;
    for (let i = 0; i < STEPS; i++) {
      const result = env.step(actions[cursor++ & 4095]);
      s += result.reward;
      if (result.terminated || result.truncated) env.reset();
    }
    do_not_optimize(s);
  });
}, [
  { target: `${STEPS} × SokobanEnv.step (10×10, 4 boxes)`, floor: `${STEPS} grid copies (floor)`, goal: 10 },
]);
