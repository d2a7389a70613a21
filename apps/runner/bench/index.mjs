// pnpm bench: the runner's training loop against floors measured in the same run (goals printed beside
// each figure; the process exits non-zero when one is missed). Builds src/training.ts from the current
// sources first (scripts/build-from-source.mjs), so it never measures a stale dist/.
//
// 1. Scaling of FTW's sampled update with the pool: the marginal cost of one iteration (push one one-step
//    episode into a full pool of N, select J = 4 minibatches of C = 5, keep K = 1, one SGD step with the
//    KL term, every metric the updater reports) at N = 128, 10^3, 10^4, 10^5. Goal: N = 10^5 within 2×
//    of N = 128 (the update's work is J·C draws and J·K rows, whatever N).
// 2. The exact expected mode at the same sizes, for scale: it weights every trajectory, so it is O(N) by
//    definition (no goal; the figure per trajectory held is printed).
// 3. The reproduction setting: one seed of `ftw reproduce` (240 iterations, 236 updates, metrics and
//    evaluation included) against 240 rollouts with no learning at all (reset, action probabilities,
//    sample, step). Goal: within 15×.
// 4. Scaling with the observations a tabular policy knows (Sokoban's positions): the same sampled update
//    with SGD, plus the policy-shift metric the runner records after it, for a policy of R = 10^2, 10^3,
//    10^4, 10^5 rows (episodes over random observations). Goal: R = 10^5 within 2× of R = 10^2 (the
//    update trains J·K rows and moves only theirs; the metric reads those rows alone). The same again with
//    what the asynchronous simulation adds per update: the version of θ its actors act with
//    (ParameterSnapshots, lag 1). Goal: R = 10^5 within 2× of R = 10^2 (a version copies the rows moved).
// Goals 1, 3 and 4 are then cross-checked in CPU time (interleaved rounds; printed, the exit code follows
// the mitata figures).
import { bench, do_not_optimize } from 'mitata';
import { cpuCrossCheck, runAndReport } from '../../../scripts/bench-ratios.mjs';
import { buildFromSource } from '../scripts/build-from-source.mjs';
import { reproduceFloor } from './reproduce-floor.mjs';

const built = await buildFromSource({ entry: 'src/training.ts', name: 'training' });
const training = await import(built.file);
const {
  eliteSelector,
  createOptimizer,
  FtwUpdater,
  ParameterSnapshots,
  PolicyShiftMeter,
  REPRODUCE_CONFIG,
  seededStreams,
  stepsBlocksOnly,
  TabularPolicy,
  trainSeed,
} = training;
built.remove();

const SIZES = [128, 1_000, 10_000, 100_000];

/** An updater whose pool is full (N updates made), and a function that makes one more iteration. */
function fullPool(capacity, selection) {
  const config = { ...REPRODUCE_CONFIG, capacity, selection };
  const streams = seededStreams(1);
  const policy = new TabularPolicy(2, 1);
  const updater = new FtwUpdater(
    config,
    policy,
    createOptimizer('sgd', config.lr),
    eliteSelector(config, streams.selection),
  );
  // Pre-drawn one-step episodes with Gaussian-like returns, cycled.
  const episodes = Array.from({ length: 4096 }, (_, i) => [
    {
      length: 1,
      observations: Int32Array.of(0),
      actions: Int32Array.of(i & 1),
      logProbs: Float64Array.of(-Math.LN2),
      versions: Uint32Array.of(0),
      return: (i & 1 ? 0.3 : 1) + 0.2 * (streams.policy() + streams.policy() + streams.policy() - 1.5),
    },
  ]);
  let version = 0;
  const step = () => {
    const batch = episodes[version % episodes.length];
    batch[0].versions[0] = version;
    if (updater.update(batch, version) !== null) version++;
    return version;
  };
  // Fill the pool directly (an expected-mode update per push would cost O(N²) in all), then one update.
  for (let i = 0; i < capacity - 1; i++) {
    const e = episodes[i % episodes.length][0];
    updater.pool.push({
      actions: e.actions,
      logProbs: e.logProbs,
      versions: 0,
      return: e.return,
      observations: e.observations,
    });
  }
  step();
  return step;
}

/**
 * An updater on a tabular policy that knows `rows` observations, with the runner's policy-shift meter,
 * its pool full (N = 128), and a function that makes one more iteration: push, update, shift; with
 * `versions`, also the snapshot of θ the simulated actors act with, one version behind (lag 1).
 */
function knowing(rows, versions = false) {
  const config = REPRODUCE_CONFIG;
  const streams = seededStreams(2);
  const policy = new TabularPolicy(2, rows);
  const optimizer = createOptimizer('sgd', config.lr);
  const updater = new FtwUpdater(config, policy, optimizer, eliteSelector(config, streams.selection));
  const meter = new PolicyShiftMeter(policy, stepsBlocksOnly(policy, optimizer));
  const snapshots = versions ? new ParameterSnapshots(policy) : undefined;
  const episodes = Array.from({ length: 4096 }, (_, i) => [
    {
      length: 1,
      observations: Int32Array.of(Math.floor(streams.policy() * rows)),
      actions: Int32Array.of(i & 1),
      logProbs: Float64Array.of(-Math.LN2),
      versions: Uint32Array.of(0),
      return: (i & 1 ? 0.3 : 1) + 0.2 * (streams.policy() - 0.5),
    },
  ]);
  let version = 0;
  const step = () => {
    const batch = episodes[version % episodes.length];
    batch[0].versions[0] = version;
    meter.beforeUpdate(rows);
    const stats = updater.update(batch, version);
    if (stats !== null) {
      version++;
      do_not_optimize(meter.measure(stats.moved, rows));
      if (snapshots !== undefined) {
        snapshots.record(version, stats.moved);
        snapshots.release(version - 1);
      }
    }
    return version;
  };
  for (let i = 0; i < config.capacity; i++) step();
  return step;
}

const ROWS = [100, 1_000, 10_000, 100_000];
const tabular = new Map(ROWS.map((r) => [r, knowing(r)]));
const tabularName = (r) => `ftw update + policy shift, tabular policy of ${r.toLocaleString('en-US')} rows`;
const versioned = new Map(ROWS.map((r) => [r, knowing(r, true)]));
const versionedName = (r) =>
  `ftw update + policy shift + actors' version, tabular policy of ${r.toLocaleString('en-US')} rows`;

const sampled = new Map(SIZES.map((n) => [n, fullPool(n, 'sampled')]));
const expected = new Map(SIZES.map((n) => [n, fullPool(n, 'expected')]));
const name = (mode, n) => `ftw ${mode} update, full pool N = ${n.toLocaleString('en-US')}`;

function register() {
  for (const n of SIZES) bench(name('sampled', n), () => do_not_optimize(sampled.get(n)()));
  for (const n of SIZES) bench(name('expected', n), () => do_not_optimize(expected.get(n)()));
  for (const r of ROWS) bench(tabularName(r), () => do_not_optimize(tabular.get(r)()));
  for (const r of ROWS) bench(versionedName(r), () => do_not_optimize(versioned.get(r)()));
  bench('240 rollouts, no learning (floor)', () => do_not_optimize(rollouts()));
  bench('ftw reproduce, one seed (240 iterations)', () => do_not_optimize(trainSeed(REPRODUCE_CONFIG, 0)));
}

/** The floor of a reproduction seed: its 240 rollouts with no learning (reset, action probabilities, sample, step). */
const rollouts = reproduceFloor(training);

const goalsMet = await runAndReport(register, [
  ...SIZES.slice(1).map((n) => ({
    target: name('sampled', n),
    floor: name('sampled', 128),
    ...(n === 100_000 ? { goal: 2 } : { note: 'for scale' }),
  })),
  ...SIZES.slice(1).map((n) => ({
    target: name('expected', n),
    floor: name('expected', 128),
    note: 'O(N) by definition: every trajectory is weighted',
  })),
  ...ROWS.slice(1).map((r) => ({
    target: tabularName(r),
    floor: tabularName(100),
    ...(r === 100_000 ? { goal: 2 } : { note: 'for scale' }),
  })),
  ...ROWS.slice(1).map((r) => ({
    target: versionedName(r),
    floor: versionedName(100),
    ...(r === 100_000 ? { goal: 2 } : { note: 'for scale' }),
  })),
  {
    target: 'ftw reproduce, one seed (240 iterations)',
    floor: '240 rollouts, no learning (floor)',
    goal: 15,
  },
]);

// The same three goals in CPU time, steadier than wall clock on a shared machine (printed for the record;
// the exit code follows the mitata figures above).
cpuCrossCheck({
  label: name('sampled', 100_000),
  target: sampled.get(100_000),
  floor: sampled.get(128),
  targetCalls: 2_000,
  floorCalls: 2_000,
  goal: 2,
});
cpuCrossCheck({
  label: tabularName(100_000),
  target: tabular.get(100_000),
  floor: tabular.get(100),
  targetCalls: 2_000,
  floorCalls: 2_000,
  goal: 2,
});
cpuCrossCheck({
  label: 'ftw reproduce, one seed (240 iterations)',
  target: () => trainSeed(REPRODUCE_CONFIG, 0),
  floor: rollouts,
  targetCalls: 40,
  floorCalls: 400,
  goal: 15,
});
if (!goalsMet) process.exitCode = 1;
