import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import { ChainEnv } from '../test/chain-env.js';
import { EpisodeCollector } from './episode-collector.js';
import { LinearPolicy } from './linear-policy.js';
import type { Policy } from './policy.js';
import { TabularPolicy } from './tabular-policy.js';
import { type IterationMetrics, type TrainOptions, train } from './train.js';
import { TrainerError } from './trainer-error.js';

const chain = (encoding: 'id' | 'one-hot') => new ChainEnv({ length: 6, limit: 20, encoding });

/** The probability of walking straight to the end: Π_state π(right | state). */
function straight(policy: Policy, env: ChainEnv): number {
  let p = 1;
  const out = new Float64Array(2);
  for (let s = 0; s < 5; s++) {
    const x =
      env.observationSize === 1 ? Float64Array.of(s) : Float64Array.from({ length: 6 }, (_, k) => +(k === s));
    const [z0, z1] = policy.logits(x, 1, out);
    p *= 1 / (1 + Math.exp(z0! - z1!));
  }
  return p;
}

function options(
  env: ChainEnv,
  policy: Policy,
  seed: number,
  more: Partial<TrainOptions> = {},
): TrainOptions {
  const streams = seededStreams(seed);
  return {
    env,
    policy,
    iterations: 150,
    rollouts: 4,
    optimizer: 'adam',
    lr: 0.1,
    random: streams.policy,
    selectionRandom: streams.selection,
    ftw: { capacity: 32, batchSize: 4, keep: 1, batches: 4, beta: 0.01 },
    ...more,
  };
}

describe('train', () => {
  // Deterministic (seeded streams): each run is the same every time, so these cannot fail by chance.
  it.each(['ftw', 'reinforce', 'grpo', 'ppo'] as const)(
    '%s learns to reach the reward at the end of a 6-state chain, with a table of ids and a linear layer on one-hot vectors',
    (method) => {
      for (const encoding of ['id', 'one-hot'] as const) {
        const env = chain(encoding);
        const policy = encoding === 'id' ? new TabularPolicy(2) : new LinearPolicy(2, 6);
        const before = straight(policy, env);
        const result = train(options(env, policy, 1, { method, iterations: 300 }));
        // The uniform policy reaches the end within 20 steps 45% of the time (a reflected random walk).
        const last = result.metrics.slice(-20);
        const success = last.reduce((s, m) => s + m.reward, 0) / last.length;
        expect(before).toBeCloseTo(1 / 32, 12);
        expect(success, `${method} ${encoding}`).toBeGreaterThan(0.9);
        expect(straight(policy, env), `${method} ${encoding}`).toBeGreaterThan(0.3);
      }
    },
  );

  it.each(['ftw', 'reinforce', 'grpo', 'ppo'] as const)(
    '%s sees no difference between ids with a table and one-hot vectors with a linear layer, bit for bit',
    (method) => {
      // W x for a one-hot x is W's column: the same logits, and the same gradient on that column.
      const table = new TabularPolicy(2, 6);
      const linear = new LinearPolicy(2, 6);
      const a = train(options(chain('id'), table, 5, { method, iterations: 40, optimizer: 'sgd', lr: 0.5 }));
      const b = train(
        options(chain('one-hot'), linear, 5, { method, iterations: 40, optimizer: 'sgd', lr: 0.5 }),
      );
      // The policy shift is measured over every id with ids, over the visited rows with vectors.
      const same = ({ klMean: _1, klMax: _2, tvMax: _3, ...rest }: IterationMetrics) => rest;
      expect(b.metrics.map(same)).toEqual(a.metrics.map(same));
      const transposed = Array.from(
        { length: 12 },
        (_, i) => linear.parameters[(i % 2) * 6 + Math.floor(i / 2)],
      );
      expect(transposed).toEqual(Array.from(table.parameters));
      expect(a.updates).toBeGreaterThan(30);
    },
  );

  it('reports every iteration to onIteration, in order, and stops at maxSamples', () => {
    const seen: IterationMetrics[] = [];
    const result = train(
      options(chain('id'), new TabularPolicy(2), 0, {
        iterations: 50,
        rollouts: 1,
        maxSamples: 60,
        onIteration: (m) => seen.push(m),
      }),
    );
    expect(seen).toEqual(result.metrics);
    expect(seen.map((m) => m.iteration)).toEqual(seen.map((_, i) => i + 1));
    expect(result.samples).toBeGreaterThanOrEqual(60);
    expect(seen.at(-2)!.samples).toBeLessThan(60);
    expect(result.samples).toBe(seen.at(-1)!.samples);
    expect(seen[0]!.score).toBeNull();
    const streamed = train(
      options(chain('id'), new TabularPolicy(2), 0, { iterations: 3, keepMetrics: false }),
    );
    expect(streamed.metrics).toEqual([]);
    expect(streamed.episodes).toBe(12);
  });

  it('gives the same run for the same streams, bit for bit, and updates only once the pool holds C', () => {
    const a = train(options(chain('one-hot'), new LinearPolicy(2, 6), 3, { iterations: 30 }));
    const b = train(options(chain('one-hot'), new LinearPolicy(2, 6), 3, { iterations: 30 }));
    expect(a).toEqual(b);
    // C = 4 trajectories, 4 per iteration: the first iteration already updates; warm-up 12 delays it.
    expect(a.metrics[0]!.updated).toBe(true);
    const late = train(
      options(chain('id'), new TabularPolicy(2), 3, { iterations: 5, ftw: { warmup: 12, batchSize: 4 } }),
    );
    expect(late.metrics.map((m) => m.updated)).toEqual([false, false, true, true, true]);
    expect(late.metrics[0]!.loss).toBeNull();
    expect(late.metrics[0]!.klMean).toBe(0);
    expect(late.metrics[2]!.klMean).toBeGreaterThan(0);
  });

  describe('refuses a bad configuration before anything runs, naming the parameter and the value', () => {
    const cases: [string, (env: ChainEnv, policy: Policy) => Partial<TrainOptions>, RegExp][] = [
      ['C > N', () => ({ ftw: { capacity: 4, batchSize: 5 } }), /batchSize must be <= capacity \(4\), got 5/],
      ['K > C', () => ({ ftw: { batchSize: 3, keep: 4 } }), /keep must be <= batchSize \(3\), got 4/],
      ['β < 0', () => ({ ftw: { beta: -0.1 } }), /beta must be a finite number >= 0, got -0.1/],
      ['β NaN', () => ({ ftw: { beta: Number.NaN } }), /beta must be a finite number >= 0, got NaN/],
      ['J = 0', () => ({ ftw: { batches: 0 } }), /batches must be an integer >= 1, got 0/],
      [
        'a tie rule',
        () => ({ ftw: { tieRule: 'best' as never } }),
        /tieRule must be one of random, newest, oldest, shortest, longest, got best/,
      ],
      [
        'warm-up > N',
        () => ({ ftw: { capacity: 8, batchSize: 4, warmup: 9 } }),
        /warmup must be an integer in 1..8, got 9/,
      ],
      ['iterations', () => ({ iterations: 0 }), /iterations must be an integer >= 1, got 0/],
      ['rollouts', () => ({ rollouts: 1.5 }), /rollouts must be an integer >= 1, got 1.5/],
      ['lr', () => ({ lr: 0 }), /lr must be a finite number > 0, got 0/],
      ['evaluateEvery 0', () => ({ evaluateEvery: 0 }), /evaluateEvery must be an integer >= 1, got 0/],
      ['evaluateEvery < 0', () => ({ evaluateEvery: -2 }), /evaluateEvery must be an integer >= 1, got -2/],
      ['evaluateEvery 2.5', () => ({ evaluateEvery: 2.5 }), /evaluateEvery must be an integer >= 1, got 2.5/],
      [
        'method',
        () => ({ method: 'dqn' as never }),
        /method must be one of ftw, reinforce, grpo, ppo, got dqn/,
      ],
      ['clip', () => ({ method: 'ppo', baseline: { clip: -1 } }), /clip must be a finite number > 0, got -1/],
    ];
    it.each(cases)('%s', (_, change, message) => {
      const env = chain('id');
      const policy = new TabularPolicy(2, 6);
      policy.parameters.fill(0.25);
      expect(() => train(options(env, policy, 0, change(env, policy)))).toThrow(RangeError);
      expect(() => train(options(env, policy, 0, change(env, policy)))).toThrow(message);
      expect(env.resets).toBe(0);
      expect(Array.from(policy.parameters)).toEqual(new Array(12).fill(0.25));
    });

    it('a policy whose action count differs from the environment’s', () => {
      const env = chain('id');
      let error: unknown = null;
      try {
        train(options(env, new TabularPolicy(3), 0));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TrainerError);
      expect((error as TrainerError).code).toBe('ACTION_COUNT_MISMATCH');
      expect((error as TrainerError).message).toMatch(/policy.numActions is 3, env.numActions is 2/);
      expect(env.resets).toBe(0);
    });

    it('a policy whose observation size differs from the environment’s', () => {
      const env = chain('one-hot');
      expect(() => train(options(env, new LinearPolicy(2, 5), 0))).toThrow(
        /OBSERVATION_SIZE_MISMATCH: policy.observationSize is 5, env.observationSize is 6/,
      );
      expect(env.resets).toBe(0);
    });
  });

  it('stops with NON_FINITE_LOGITS when a user policy returns NaN logits, before updating on them', () => {
    const inner = new LinearPolicy(2, 6);
    const nan: Policy = {
      numActions: 2,
      observationSize: 6,
      parameters: inner.parameters,
      memoryBytes: 0,
      logits: (observations, rows, out, parameters) => {
        inner.logits(observations, rows, out, parameters);
        out[1] = Number.NaN;
        return out;
      },
      backward: (observations, rows, logitGrad, grad) => inner.backward(observations, rows, logitGrad, grad),
    };
    expect(() => train(options(chain('one-hot'), nan, 0))).toThrow(
      /NON_FINITE_LOGITS: policy.logits returned NaN among the logits/,
    );
    expect(Array.from(inner.parameters)).toEqual(new Array(12).fill(0));
  });

  it('trains on several instances in lockstep, reproducibly, and refuses a stream count that does not match', () => {
    const run = () => {
      const policy = new LinearPolicy(2, 6);
      const streams = [seededStreams(1).policy, seededStreams(2).policy, seededStreams(3).policy];
      const result = train({
        ...options(chain('one-hot'), policy, 0, { iterations: 60 }),
        env: [chain('one-hot'), chain('one-hot'), chain('one-hot')],
        random: streams,
      });
      return { result, theta: Array.from(policy.parameters) };
    };
    const first = run();
    expect(first.result.episodes).toBe(240);
    expect(run()).toEqual(first);
    expect(first.result.metrics.at(-1)!.reward).toBeGreaterThan(first.result.metrics[0]!.reward);
    expect(() =>
      train({
        ...options(chain('one-hot'), new LinearPolicy(2, 6), 0),
        env: [chain('one-hot'), chain('one-hot')],
      }),
    ).toThrow('random must be 2 functions (one per environment instance)');
    // Difficulty probes need task environments: instances without tasks are refused, naming the first,
    // before anything runs.
    const untouched = new LinearPolicy(2, 6);
    expect(() =>
      train({
        ...options(chain('one-hot'), untouched, 0),
        env: [chain('one-hot'), chain('one-hot')],
        random: [seededStreams(1).policy, seededStreams(2).policy],
        probe: { probes: 8, candidates: 4 },
      }),
    ).toThrow(/^env\[0\] must be a TaskEnvironment/);
    expect(Array.from(untouched.parameters)).toEqual(new Array(12).fill(0));
  });

  it('measures the KL of an update over the steps of the iteration, from the logits the steps acted on', () => {
    const env = chain('one-hot');
    const policy = new LinearPolicy(2, 6);
    policy.parameters.set([0.3, -0.2, 0.1, 0.5, -0.4, 0.2, -0.1, 0.4, 0.2, -0.3, 0.1, 0]);
    const before = new LinearPolicy(2, 6);
    before.parameters.set(policy.parameters);
    // The same first iteration, collected apart: same environment, policy and stream.
    const replay = new EpisodeCollector(chain('one-hot'), before, 4);
    replay.collect(0, seededStreams(3).policy);
    const { metrics } = train({ ...options(env, policy, 3, { method: 'reinforce', iterations: 1 }) });
    let sum = 0;
    let rows = 0;
    let max = 0;
    const p = new Float64Array(2);
    const q = new Float64Array(2);
    for (const e of replay.episodes) {
      for (let t = 0; t < e.length; t++) {
        const x = e.observations.subarray(6 * t, 6 * t + 6);
        before.logits(x, 1, p);
        policy.logits(x, 1, q);
        const lp = [
          p[0]! - Math.log(Math.exp(p[0]!) + Math.exp(p[1]!)),
          p[1]! - Math.log(Math.exp(p[0]!) + Math.exp(p[1]!)),
        ];
        const lq = [
          q[0]! - Math.log(Math.exp(q[0]!) + Math.exp(q[1]!)),
          q[1]! - Math.log(Math.exp(q[0]!) + Math.exp(q[1]!)),
        ];
        const kl = Math.exp(lp[0]!) * (lp[0]! - lq[0]!) + Math.exp(lp[1]!) * (lp[1]! - lq[1]!);
        sum += kl;
        max = Math.max(max, kl);
        rows++;
      }
    }
    expect(metrics[0]!.updated).toBe(true);
    expect(metrics[0]!.klMean).toBeGreaterThan(0);
    expect(metrics[0]!.klMean).toBeCloseTo(sum / rows, 12);
    expect(metrics[0]!.klMax).toBeCloseTo(max, 12);
  });

  describe('evaluateEvery', () => {
    /** The chain with an evaluation: the probability of walking straight; records each call. */
    class EvaluatedChain extends ChainEnv {
      readonly calls: { moved: Int32Array | null | undefined }[] = [];
      evaluate(policy: Policy, moved?: Int32Array | null) {
        this.calls.push({ moved });
        return { score: straight(policy, this) };
      }
    }
    const run = (more: Partial<TrainOptions>) => {
      const env = new EvaluatedChain({ length: 6, limit: 20, encoding: 'id' });
      const result = train(options(env, new TabularPolicy(2), 3, { iterations: 11, ...more }));
      return { env, metrics: result.metrics };
    };

    it('evaluates on iteration 1, n, 2n, … and the last, the others carrying the last evaluation', () => {
      const every = run({});
      const { env, metrics } = run({ evaluateEvery: 4 });
      expect(every.env.calls).toHaveLength(11);
      expect(every.metrics.map((m) => m.evaluatedAt)).toEqual(every.metrics.map((m) => m.iteration));
      expect(env.calls).toHaveLength(4);
      expect(metrics.map((m) => m.evaluatedAt)).toEqual([1, 1, 1, 4, 4, 4, 4, 8, 8, 8, 11]);
      // The same run otherwise (evaluation draws nothing): the evaluated iterations score as every-1's.
      expect(metrics.map((m) => m.score)).toEqual(
        metrics.map((m) => every.metrics[m.evaluatedAt! - 1]!.score),
      );
      expect(metrics.map((m) => m.reward)).toEqual(every.metrics.map((m) => m.reward));
      // Updates between evaluations went unseen, so an evaluation after them is told any row may have moved.
      const updated = metrics.map((m) => m.updated);
      const unseen = (from: number, to: number) => updated.slice(from, to).some(Boolean);
      expect(unseen(4, 7)).toBe(true);
      expect(env.calls[2]!.moved).toBeNull();
    });

    it('evaluates the iteration that maxSamples stops at', () => {
      const { env, metrics } = run({ evaluateEvery: 100, iterations: 1000, maxSamples: 400 });
      expect(env.calls).toHaveLength(2);
      expect(metrics.at(-1)!.evaluatedAt).toBe(metrics.at(-1)!.iteration);
      expect(metrics.at(-1)!.samples).toBeGreaterThanOrEqual(400);
    });
  });
});
