import { fc, test } from '@fast-check/vitest';
import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import type { Environment } from './environment.js';
import type { Episode } from './episode.js';
import { EpisodeCollector } from './episode-collector.js';
import { LinearPolicy } from './linear-policy.js';
import type { ObservationRows, Policy } from './policy.js';

/**
 * A slippery chain of `size` cells observed one-hot: action 1 steps right, 0 left, but with probability
 * 0.3 (drawn from the environment's own stream) the move goes the other way; reward 1 at the far end,
 * cut after `limit` steps. Its own randomness makes an instance's episodes depend on its history, so the
 * test below checks that lockstep keeps each instance's history intact.
 */
class SlipperyChain implements Environment {
  readonly numActions = 2;
  readonly observationSize: number;
  readonly #random: () => number;
  readonly #limit: number;
  readonly #onReset: () => void;
  readonly #view: Float64Array;
  #state = 0;
  #steps = 0;

  constructor(size: number, limit: number, seed: number, onReset: () => void = () => {}) {
    this.observationSize = size;
    this.#random = seededStreams(seed).policy;
    this.#limit = limit;
    this.#onReset = onReset;
    this.#view = new Float64Array(size);
  }

  reset(): Float64Array {
    this.#onReset();
    this.#state = Math.floor(this.#random() * (this.observationSize - 1));
    this.#steps = 0;
    return this.#observe();
  }

  step(action: number) {
    const right = (action === 1) !== this.#random() < 0.3;
    this.#state = Math.max(0, this.#state + (right ? 1 : -1));
    this.#steps++;
    const terminated = this.#state === this.observationSize - 1;
    return {
      observation: this.#observe(),
      reward: terminated ? 1 : 0,
      terminated,
      truncated: !terminated && this.#steps >= this.#limit,
    };
  }

  #observe(): Float64Array {
    this.#view.fill(0);
    this.#view[this.#state] = 1;
    return this.#view; // the same array every step: the collector must copy
  }
}

/** A policy wrapper that records the row count of every `logits` call (and `before()` beside it). */
function counting(policy: Policy, calls: number[], before: () => void = () => {}): Policy {
  return {
    numActions: policy.numActions,
    observationSize: policy.observationSize,
    parameters: policy.parameters,
    memoryBytes: policy.memoryBytes,
    logits: (o: ObservationRows, rows: number, out: Float64Array, p?: Float64Array) => {
      calls.push(rows);
      before();
      return policy.logits(o, rows, out, p);
    },
    backward: (o, rows, g, grad) => policy.backward(o, rows, g, grad),
  };
}

const copy = (e: Episode) => ({
  length: e.length,
  observations: Array.from(e.observations),
  actions: Array.from(e.actions),
  logProbs: Array.from(e.logProbs),
  versions: Array.from(e.versions),
  return: e.return,
});

function linearPolicy(size: number, weights: readonly number[]): LinearPolicy {
  const policy = new LinearPolicy(2, size);
  for (let i = 0; i < policy.parameters.length; i++) policy.parameters[i] = weights[i % weights.length]!;
  return policy;
}

describe('EpisodeCollector in lockstep', () => {
  test.prop([
    fc.integer({ min: 1, max: 4 }),
    fc.integer({ min: 1, max: 10 }),
    fc.integer({ min: 0, max: 1000 }),
    fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 1, maxLength: 8 }),
  ])(
    "gives each instance the episodes it would collect alone with its own stream, in the batch's start order",
    (k, count, seed, weights) => {
      const size = 5;
      const policy = linearPolicy(size, weights);
      // Which instance started each episode of the batch: the i-th reset starts episode i.
      const starter: number[] = [];
      const envs = Array.from(
        { length: k },
        (_, j) => new SlipperyChain(size, 12, seed + 7919 * j, () => starter.push(j)),
      );
      const streams = Array.from({ length: k }, (_, j) => seededStreams(seed * 31 + j).policy);
      const calls: number[] = [];
      const startedAtCall: number[] = [];
      const watched = counting(policy, calls, () => startedAtCall.push(starter.length));
      const lockstep = new EpisodeCollector(envs, watched, count);
      const batch = lockstep.collect(3, streams);
      const together = lockstep.episodes.map(copy);
      // Each step's logits are kept beside the episode: those the policy gives its observation.
      lockstep.episodes.forEach((e, i) => {
        const z = policy.logits(e.observations, e.length, new Float64Array(2 * e.length));
        expect(Array.from(lockstep.stepLogits[i]!)).toEqual(Array.from(z));
      });
      // Each reset after the batch's last start (an instance that had finished) must not happen: the
      // collector idles instances once every episode has started.
      expect(starter).toHaveLength(count);

      let steps = 0;
      let returns = 0;
      for (let j = 0; j < k; j++) {
        const mine = together.filter((_, i) => starter[i] === j);
        if (mine.length === 0) continue;
        const alone = new EpisodeCollector(new SlipperyChain(size, 12, seed + 7919 * j), policy, mine.length);
        alone.collect(3, seededStreams(seed * 31 + j).policy);
        expect(mine).toEqual(alone.episodes.map(copy));
        for (const e of mine) {
          steps += e.length;
          returns += e.return;
        }
      }
      expect(batch.steps).toBe(steps);
      expect(batch.returnSum).toBe(returns);
      // One logits call per lockstep step, over the instances still running: every instance while
      // episodes remain to start (none idles), then non-increasing; their rows add up to the steps taken.
      expect(calls.reduce((s, r) => s + r, 0)).toBe(steps);
      for (let c = 0; c < calls.length; c++) {
        if (startedAtCall[c]! < count) expect(calls[c]).toBe(k);
        if (c > 0) expect(calls[c]!).toBeLessThanOrEqual(calls[c - 1]!);
      }
      expect(calls[0]).toBe(Math.min(k, count));
    },
  );

  it('refuses instances of differing actions or observation sizes, naming the instance and field', () => {
    const policy = new LinearPolicy(2, 5);
    const wide = new SlipperyChain(6, 12, 0);
    expect(() => new EpisodeCollector([new SlipperyChain(5, 12, 0), wide], policy, 2)).toThrow(
      'ENV_MISMATCH: env[1].observationSize is 6, env[0].observationSize is 5',
    );
    const threeActions = Object.assign(new SlipperyChain(5, 12, 0), { numActions: 3 });
    expect(() => new EpisodeCollector([new SlipperyChain(5, 12, 0), threeActions], policy, 2)).toThrow(
      'ENV_MISMATCH: env[1].numActions is 3, env[0].numActions is 2',
    );
    expect(() => new EpisodeCollector([], policy, 2)).toThrow(
      'env must hold at least one environment instance',
    );
  });

  it('refuses a stream count other than the instance count', () => {
    const envs = [new SlipperyChain(5, 12, 0), new SlipperyChain(5, 12, 1)];
    const collector = new EpisodeCollector(envs, new LinearPolicy(2, 5), 2);
    expect(() => collector.collect(0, seededStreams(0).policy)).toThrow(
      'random must hold one stream per environment instance (2), got 1',
    );
  });

  it('stops with NON_FINITE_LOGITS naming the batch row of a NaN logit', () => {
    const inner = new LinearPolicy(2, 5);
    const nanOnSecondRow: Policy = {
      ...counting(inner, []),
      logits: (o, rows, out) => {
        inner.logits(o, rows, out);
        if (rows > 1) out[3] = Number.NaN;
        return out;
      },
    };
    const envs = [new SlipperyChain(5, 12, 0), new SlipperyChain(5, 12, 1)];
    const collector = new EpisodeCollector(envs, nanOnSecondRow, 2);
    const streams = [seededStreams(0).policy, seededStreams(1).policy];
    expect(() => collector.collect(0, streams)).toThrow(
      'NON_FINITE_LOGITS: policy.logits returned NaN among the logits (row 1, logits[3])',
    );
  });
});
