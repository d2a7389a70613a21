// Cost of an environment episode (reset + step) against a floor measured in the same run: the same
// number of uniforms drawn from the same seeded generator and summed. A Gaussian step draws one uniform
// on average (two per Box–Muller pair), a Bernoulli step one, and a contextual reset one more for the
// task. Run with `pnpm build && pnpm bench`. The ratios come from scripts/bench-ratios.mjs (median over
// rounds of the ratio of median times). Issue 5 set no speed goal for the environments, so each line
// says "no goal"; the process exits 0 unless the run fails.
import { bench, do_not_optimize } from 'mitata';
import { runAndReport } from '../../../scripts/bench-ratios.mjs';
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

const floorName = (draws) => `floor: ${draws} uniforms`;
await runAndReport(
  () => {
    for (const [name, env] of cases)
      bench(`${name}: ${EPISODES} × reset + step`, () => do_not_optimize(episodes(env)));
    for (const draws of new Set(cases.map(([, , d]) => d))) {
      bench(floorName(draws), () => do_not_optimize(floor(uniform, draws)));
    }
  },
  cases.map(([name, , draws]) => ({
    target: `${name}: ${EPISODES} × reset + step`,
    floor: floorName(draws),
    note: 'no goal: issue 5 set none',
    perIteration: EPISODES,
    unit: 'episode',
  })),
);
