// pnpm bench: training iterations per second of the runner's loop (pnpm build first; reads dist/).
// Floor, measured in the same run: the same 240 rollouts (reset, sample from the policy, step) with no
// learning at all, so the ratio is what FTW's pool, selection and loss add to collecting the data.
import { bench, do_not_optimize, run } from 'mitata';
import {
  ActionDistribution,
  COMPARE_SCENARIOS,
  createEnvironment,
  REPRODUCE_CONFIG,
  seededStreams,
  TabularPolicy,
  trainSeed,
} from '../dist/training.js';

const ITERATIONS = REPRODUCE_CONFIG.iterations;

bench('240 rollouts, no learning (floor)', () => {
  const streams = seededStreams(0);
  const env = createEnvironment(REPRODUCE_CONFIG.environment, streams.environment);
  const policy = new TabularPolicy(env.numActions, env.observationCount);
  const distribution = new ActionDistribution(env.numActions);
  let sum = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const observation = env.reset();
    sum += env.step(distribution.of(policy, observation).sample(streams.policy())).reward;
  }
  do_not_optimize(sum);
});
bench('ftw reproduce, one seed (240 iterations)', () => do_not_optimize(trainSeed(REPRODUCE_CONFIG, 0)));

const gaussian = COMPARE_SCENARIOS.find((s) => s.name === 'gaussian');
const perMethod = gaussian.methods.map(({ label, overrides }) => {
  const config = { ...gaussian.base, ...overrides, seeds: [0] };
  const name = `compare gaussian ${label} (${config.iterations} iterations × ${config.rollouts})`;
  bench(name, () => do_not_optimize(trainSeed(config, 0)));
  return { name, iterations: config.iterations };
});

const { benchmarks } = await run({ format: 'mitata', colors: false });
const average = new Map();
for (const trial of benchmarks) for (const r of trial.runs) if (r.stats) average.set(r.name, r.stats.avg);
const floor = average.get('240 rollouts, no learning (floor)');
const reproduce = average.get('ftw reproduce, one seed (240 iterations)');
const perSecond = (ns, iterations) => Math.round((iterations * 1e9) / ns).toLocaleString('en-US');
console.log('\ntraining iterations per second (one iteration = collect, then update):');
console.log(`  ftw reproduce: ${perSecond(reproduce, ITERATIONS)} iterations/s`);
for (const { name, iterations } of perMethod)
  console.log(`  ${name}: ${perSecond(average.get(name), iterations)} iterations/s`);
console.log('\nratio against the floor measured in this run (lower is better):');
console.log(`  ftw reproduce: ${(reproduce / floor).toFixed(1)}× 240 rollouts without learning`);
