// Cost of an environment episode (reset + step) against a floor measured in the same run: the same
// number of uniforms drawn from the same seeded generator and summed. A Gaussian step draws one uniform
// on average (two per Box–Muller pair), a Bernoulli step one, and a contextual reset one more for the
// task. Run with `pnpm build && pnpm bench`.
import { bench, do_not_optimize, run, summary } from 'mitata';
import { ContextualBandit, seededUniform, tieHeavyBinary, twoArmedReproduction } from '../dist/index.js';

const EPISODES = 1000;

function episodes(env) {
  let total = 0;
  for (let i = 0; i < EPISODES; i++) {
    env.reset();
    total += env.step(i & 1).reward;
  }
  return total;
}

function floor(uniform, draws) {
  let total = 0;
  for (let i = 0; i < draws; i++) total += uniform();
  return total;
}

const gaussian = twoArmedReproduction(1);
const bernoulli = tieHeavyBinary({ seed: 1 });
const contextual = new ContextualBandit({
  tasks: [0.1, 0.3, 0.5, 0.7].map((p) => ({ kind: 'bernoulli', probabilities: [p, 1 - p] })),
  seed: 1,
});
const uniform = seededUniform(1);

const cases = [
  ['gaussian (two-armed reproduction)', gaussian, EPISODES],
  ['bernoulli (tie-heavy, 10 arms)', bernoulli, EPISODES],
  ['contextual (4 Bernoulli tasks)', contextual, 2 * EPISODES],
];

for (const [name, env, draws] of cases) {
  summary(() => {
    bench(`${name}: ${EPISODES} × reset + step`, () => do_not_optimize(episodes(env))).baseline(false);
    bench(`floor: ${draws} uniforms`, () => do_not_optimize(floor(uniform, draws))).baseline(true);
  });
}

const { benchmarks } = await run();
// Medians: the machine is shared, and a median per-iteration time is less sensitive to interference.
const median = (trial) => trial.runs[0].stats.p50;
console.log('');
for (let i = 0; i < cases.length; i++) {
  const [name, , draws] = cases[i];
  const target = median(benchmarks[2 * i]);
  const base = median(benchmarks[2 * i + 1]);
  console.log(
    `${name}: ${(target / EPISODES).toFixed(1)} ns/episode, floor ${(base / draws).toFixed(1)} ns/uniform × ${draws / EPISODES}, ratio ${(target / base).toFixed(2)}`,
  );
}
