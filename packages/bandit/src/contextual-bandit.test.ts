import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { play, sameBits } from '../test/episodes.js';
import { bernsteinRadius, normalRadius } from '../test/stats.js';
import { BanditError } from './bandit-error.js';
import { ContextualBandit, type ContextualTask } from './contextual-bandit.js';
import { seededUniform } from './seeded-uniform.js';

function taskArb(arms: number): fc.Arbitrary<ContextualTask> {
  const values = (min: number, max: number) =>
    fc.array(fc.double({ min, max, noNaN: true }), { minLength: arms, maxLength: arms });
  return fc.oneof(
    fc.record({ kind: fc.constant('gaussian' as const), means: values(-5, 5), stds: values(0.05, 2) }),
    fc.record({ kind: fc.constant('bernoulli' as const), probabilities: values(0, 1) }),
  );
}

/** Tasks with a shared number of arms, and task probabilities (some possibly 0). */
const suiteArb = fc.integer({ min: 1, max: 3 }).chain((arms) =>
  fc.array(taskArb(arms), { minLength: 1, maxLength: 3 }).chain((tasks) =>
    fc
      .array(fc.oneof(fc.constant(0), fc.double({ min: 0.05, max: 1, noNaN: true })), {
        minLength: tasks.length,
        maxLength: tasks.length,
      })
      .filter((w) => w.some((x) => x > 0))
      .map((w) => {
        const total = w.reduce((s, x) => s + x, 0);
        return { arms, tasks, taskProbabilities: w.map((x) => x / total) };
      }),
  ),
);

function meanOf(task: ContextualTask, action: number): number {
  return task.kind === 'gaussian'
    ? (task.means as number[])[action]!
    : (task.probabilities as number[])[action]!;
}

describe('ContextualBandit', () => {
  // Per run: for each action a, n episodes; checks per task t of (i) the frequency of t (Bernstein on a
  // Binomial(n, q_t) count, or exactly 0 when q_t = 0) and (ii) the mean reward of a in t given the n_t
  // episodes that drew t (a Gaussian mean is exactly N(μ, σ²/n_t): Chernoff radius; a Bernoulli count is
  // Binomial(n_t, p): Bernstein). All at δ = 1e-9; at most 6 runs × 3 actions × 3 tasks × 2 checks = 108
  // checks, false alarm ≤ 1.1e-7 for the property.
  const n = 12_000;
  test.prop([suiteArb, fc.integer()], { numRuns: 6 })(
    'draws tasks with their probabilities and pays each task its own arm law',
    ({ arms, tasks, taskProbabilities }, seed) => {
      const env = new ContextualBandit({ tasks, taskProbabilities, seed });
      for (let action = 0; action < arms; action++) {
        const counts = new Float64Array(tasks.length);
        const sums = new Float64Array(tasks.length);
        for (let i = 0; i < n; i++) {
          const { observation, info } = env.reset();
          if (info.optimalAction !== env.optimalAction(observation)) throw new Error('reset info disagrees');
          counts[observation]!++;
          sums[observation]! += env.step(action).reward;
        }
        tasks.forEach((task, t) => {
          const q = taskProbabilities[t]!;
          if (q === 0) expect(counts[t]).toBe(0);
          else
            expect(Math.abs(counts[t]! - n * q)).toBeLessThanOrEqual(
              bernsteinRadius(n * q * (1 - q), 1, 1e-9),
            );
          const m = counts[t]!;
          if (m === 0) return;
          const mu = meanOf(task, action);
          if (task.kind === 'gaussian') {
            const sigma = (task.stds as number[])[action]!;
            expect(Math.abs(sums[t]! / m - mu)).toBeLessThan((normalRadius(1e-9) * sigma) / Math.sqrt(m));
          } else {
            expect(Math.abs(sums[t]! - m * mu)).toBeLessThanOrEqual(
              bernsteinRadius(m * mu * (1 - mu), 1, 1e-9),
            );
          }
        });
      }
    },
  );

  it('draws the task by inverting the cumulative distribution with one uniform', () => {
    const env = new ContextualBandit({
      tasks: [
        { kind: 'bernoulli', probabilities: [0.2] },
        { kind: 'bernoulli', probabilities: [0.5] },
        { kind: 'bernoulli', probabilities: [0.9] },
      ],
      taskProbabilities: [0.5, 0, 0.5],
      seed: 6,
    });
    const uniform = seededUniform(6);
    for (let i = 0; i < 50; i++) {
      const task = uniform() < 0.5 ? 0 : 2;
      const reward = uniform() < [0.2, 0.5, 0.9][task]! ? 1 : 0;
      expect(env.reset().observation).toBe(task);
      expect(env.step(0).reward).toBe(reward);
    }
  });

  test.prop([suiteArb, fc.integer(), fc.array(fc.nat(2), { minLength: 1, maxLength: 40 })])(
    'gives the same observations and rewards for the same seed, and restarts on reset({ seed })',
    ({ arms, tasks, taskProbabilities }, seed, actions) => {
      const valid = actions.map((a) => a % arms);
      const first = play(new ContextualBandit({ tasks, taskProbabilities, seed }), valid);
      const second = play(new ContextualBandit({ tasks, taskProbabilities, seed }), valid);
      expect(second.observations).toEqual(first.observations);
      expect(sameBits(second.rewards, first.rewards)).toBe(true);
      const env = new ContextualBandit({ tasks, taskProbabilities, seed: seed + 1 });
      play(env, valid.slice(0, 3));
      env.reset({ seed });
      const restarted = [env.step(valid[0]!).reward, ...play(env, valid.slice(1)).rewards];
      expect(sameBits(restarted, first.rewards)).toBe(true);
    },
  );

  test.prop([
    suiteArb,
    fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 9, maxLength: 9 }),
  ])(
    'computes regret per task, for a tabular policy and for a context-free policy, from the definition',
    ({ arms, tasks, taskProbabilities }, weights) => {
      const env = new ContextualBandit({ tasks, taskProbabilities });
      const means = tasks.map((task) => Array.from({ length: arms }, (_, a) => meanOf(task, a)));
      const best = means.map((row) => Math.max(...row));
      const optimalTable = tasks.map((_, t) => means[t]!.map((_, a) => (a === env.optimalAction(t) ? 1 : 0)));
      expect(env.regret(optimalTable)).toBe(0);
      optimalTable.forEach((row, t) => {
        expect(env.regret(row, t)).toBe(0);
      });
      const rows = tasks.map((_, t) => {
        const raw = Array.from({ length: arms }, (_, a) => weights[t * 3 + a]!);
        const total = raw.reduce((s, w) => s + w, 0);
        return raw.map((w) => w / total);
      });
      // Definition: regret_t(π) = max_a μ_t(a) − Σ_a π_a μ_t(a); the table averages with q_t.
      const perTask = rows.map((row, t) => best[t]! - row.reduce((s, p, a) => s + p * means[t]![a]!, 0));
      rows.forEach((row, t) => {
        expect(env.regret(row, t)).toBeCloseTo(perTask[t]!, 12);
      });
      const tabular = perTask.reduce((s, r, t) => s + taskProbabilities[t]! * r, 0);
      expect(env.regret(rows)).toBeCloseTo(tabular, 12);
      // A context-free row pays the per-task regret of the same row in every task.
      const row = rows[0]!;
      const contextFree = tasks.reduce(
        (s, _, t) =>
          s + taskProbabilities[t]! * (best[t]! - row.reduce((v, p, a) => v + p * means[t]![a]!, 0)),
        0,
      );
      expect(env.regret(row)).toBeCloseTo(contextFree, 12);
      // Expected reward without observation is the task mixture; optimalAction() maximises it.
      const mixture = Array.from({ length: arms }, (_, a) =>
        tasks.reduce((s, _, t) => s + taskProbabilities[t]! * means[t]![a]!, 0),
      );
      mixture.forEach((m, a) => {
        expect(env.expectedReward(a)).toBeCloseTo(m, 12);
      });
      expect(mixture[env.optimalAction()]).toBeCloseTo(Math.max(...mixture), 12);
    },
  );

  it('has positive regret as soon as a drawn task puts mass on a worse arm', () => {
    const env = new ContextualBandit({
      tasks: [
        { kind: 'bernoulli', probabilities: [0.9, 0.1] },
        { kind: 'gaussian', means: [0, 1], stds: 1 },
      ],
      taskProbabilities: [0.25, 0.75],
    });
    expect(
      env.regret([
        [1, 0],
        [0, 1],
      ]),
    ).toBe(0);
    expect(
      env.regret([
        [0.99, 0.01],
        [0, 1],
      ]),
    ).toBeCloseTo(0.25 * 0.01 * 0.8, 15);
    expect(
      env.regret([
        [1, 0],
        [0.5, 0.5],
      ]),
    ).toBe(0.75 * 0.5);
    expect(env.regret([1, 0])).toBe(0.75);
    expect(env.regret([0, 1])).toBeCloseTo(0.25 * 0.8, 15);
    expect([env.optimalAction(0), env.optimalAction(1), env.optimalAction()]).toEqual([0, 1, 1]);
    // A task of probability 0 does not count.
    const skewed = new ContextualBandit({
      tasks: [
        { kind: 'bernoulli', probabilities: [0.9, 0.1] },
        { kind: 'bernoulli', probabilities: [0.1, 0.9] },
      ],
      taskProbabilities: [1, 0],
    });
    expect(skewed.regret([1, 0])).toBe(0);
  });

  it('rejects bad tasks and task probabilities, naming the offending entry', () => {
    const make = (options: unknown) => () => new ContextualBandit(options as never);
    const bern = { kind: 'bernoulli', probabilities: [0.5, 0.5] };
    expect(make({ tasks: [] })).toThrow(
      new RangeError('tasks must hold at least one task, got an empty array'),
    );
    expect(make({ tasks: 'x' })).toThrow(new TypeError('tasks must be an array of tasks, got "x"'));
    expect(make({ tasks: [bern, 3] })).toThrow(new TypeError('tasks[1] must be an object, got 3'));
    expect(make({ tasks: [{ kind: 'poisson', rates: [1] }] })).toThrow(
      new TypeError(`tasks[0].kind must be 'gaussian' or 'bernoulli', got "poisson"`),
    );
    expect(make({ tasks: [bern, { kind: 'gaussian', means: [0, 1], stds: [1, -2] }] })).toThrow(
      new RangeError('tasks[1].stds[1] must be a finite number >= 0, got -2'),
    );
    expect(make({ tasks: [{ kind: 'gaussian', means: [Number.NaN], stds: 1 }] })).toThrow(
      new RangeError('tasks[0].means[0] must be a finite number, got NaN'),
    );
    expect(make({ tasks: [bern, { kind: 'bernoulli', probabilities: [2, 0] }] })).toThrow(
      new RangeError('tasks[1].probabilities[0] must be a number in [0, 1], got 2'),
    );
    expect(make({ tasks: [{ kind: 'bernoulli', probabilities: [] }] })).toThrow(
      new RangeError('tasks[0].probabilities must hold at least one arm, got an empty array'),
    );
    expect(make({ tasks: [bern, { kind: 'bernoulli', probabilities: [1] }] })).toThrow(
      new RangeError('tasks[1] must have 2 arms like tasks[0] (every task shares the action space), got 1'),
    );
    expect(make({ tasks: [bern, bern], taskProbabilities: [1] })).toThrow(
      new RangeError('taskProbabilities must have length 2, got length 1'),
    );
    expect(make({ tasks: [bern, bern], taskProbabilities: [0.6, 0.6] })).toThrow(
      /taskProbabilities must sum to 1 \(within 1e-9\), got a sum of 1\.2/,
    );
    expect(make({ tasks: [bern, bern], taskProbabilities: [1.5, -0.5] })).toThrow(
      new RangeError('taskProbabilities[0] must be a number in [0, 1], got 1.5'),
    );
  });

  it('rejects observations out of range and step before reset', () => {
    const bern = { kind: 'bernoulli', probabilities: [0.5, 0.5] } as const;
    const env = new ContextualBandit({ tasks: [bern, bern] });
    expect(() => env.step(0)).toThrow(BanditError);
    expect(() => env.optimalAction(2)).toThrow(
      new RangeError('observation must be an integer in [0, 1], got 2'),
    );
    expect(() => env.expectedReward(0, -1)).toThrow(
      new RangeError('observation must be an integer in [0, 1], got -1'),
    );
    expect(() => env.regret([1, 0], 0.5)).toThrow(
      new RangeError('observation must be an integer in [0, 1], got 0.5'),
    );
    expect(() => env.regret([[1, 0], [0.5]])).toThrow(
      new RangeError('probabilities[1] must have length 2, got length 1'),
    );
    expect(() =>
      env.regret(
        [
          [1, 0],
          [0.5, 0.5],
        ],
        1,
      ),
    ).toThrow(
      new TypeError('observation must be omitted when probabilities holds one row per observation, got 1'),
    );
  });
});
