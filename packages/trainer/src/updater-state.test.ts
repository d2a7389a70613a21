import { fc } from '@fast-check/vitest';
import { ReplayPool } from '@ftw/replay-pool';
import { describe, expect, it } from 'vitest';
import { REPRODUCE_OPTIONS } from '../test/options.js';
import { BaselineUpdater } from './baseline-updater.js';
import type { Episode } from './episode.js';
import { eliteSelector, FtwUpdater } from './ftw-updater.js';
import { createOptimizer, type Optimizer } from './optimizer.js';
import { TabularPolicy } from './tabular-policy.js';
import type { Updater, UpdaterState } from './updater.js';

// A checkpoint (θ, the optimiser's state, the updater's state, the selection stream's position and the
// pool) taken after any update and restored into fresh objects goes on bit for bit as if nothing had
// happened: the test of the learner restart's update rule.

const A = 3;
const O = 4;

/** A Lehmer generator that counts its draws, uniform on [0, 1). */
function counted(seed: number) {
  let s = (seed % 2147483646) + 1;
  const stream = {
    draws: 0,
    next: () => {
      stream.draws++;
      s = (s * 48271) % 2147483647;
      return (s - 1) / 2147483646;
    },
  };
  return stream;
}

const stepArb = fc.record({
  observation: fc.integer({ min: 0, max: O - 1 }),
  action: fc.integer({ min: 0, max: A - 1 }),
});
const episodeArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 3 }),
  ret: fc.integer({ min: -2, max: 2 }),
});
const batchesArb = fc.array(fc.array(episodeArb, { minLength: 2, maxLength: 4 }), {
  minLength: 2,
  maxLength: 6,
});

function episodeOf(e: { steps: { observation: number; action: number }[]; ret: number }): Episode {
  return {
    length: e.steps.length,
    observations: Int32Array.from(e.steps, (s) => s.observation),
    actions: Int32Array.from(e.steps, (s) => s.action),
    logProbs: new Float64Array(e.steps.length).fill(-Math.log(A)),
    versions: new Uint32Array(e.steps.length),
    return: e.ret,
  };
}

type Method = 'ftw-initial' | 'ftw-previous' | 'ftw-uniform' | 'reinforce' | 'ppo' | 'grpo';

/** A learner of one method: policy, optimiser, pool (FTW), selection stream and updater. */
function learner(method: Method, state?: Saved) {
  const policy = new TabularPolicy(A, O);
  policy.parameters.set(Float64Array.from({ length: O * A }, (_, k) => Math.sin(k + 1)));
  if (state !== undefined) policy.parameters.set(state.theta);
  const optimizer: Optimizer = createOptimizer('adam', 0.1, state?.optimizer);
  const pool = new ReplayPool({ capacity: 8 });
  for (const t of state?.pool ?? []) pool.push(t);
  const stream = counted(7);
  while (stream.draws < (state?.draws ?? 0)) stream.next();
  let updater: Updater;
  if (method.startsWith('ftw')) {
    const reference = method.slice(4) as 'initial' | 'previous' | 'uniform';
    const config = { ...REPRODUCE_OPTIONS, capacity: 8, warmup: 2, beta: 0.3, reference, keep: 2 };
    updater = new FtwUpdater(config, policy, optimizer, eliteSelector(config, stream.next), pool);
  } else {
    const config = { ...REPRODUCE_OPTIONS, method: method as 'reinforce' | 'ppo' | 'grpo', epochs: 2 };
    updater = new BaselineUpdater(config, policy, optimizer);
  }
  if (state !== undefined) updater.restore!(state.updater);
  const step = (batch: Episode[]) => {
    for (const e of batch) {
      pool.push({ ...e, observations: Float64Array.from(e.observations) });
    }
    updater.update(batch, 0);
  };
  const save = (): Saved => ({
    theta: Float64Array.from(policy.parameters),
    optimizer: optimizer.state!(),
    updater: JSON.parse(JSON.stringify(updater.state!())) as UpdaterState,
    draws: stream.draws,
    pool: Array.from({ length: pool.size }, (_, p) => pool.at(p)),
  });
  return { policy, step, save };
}

interface Saved {
  theta: Float64Array;
  optimizer: ReturnType<Optimizer['state'] & {}>;
  updater: UpdaterState;
  draws: number;
  pool: ReturnType<ReplayPool['at']>[];
}

describe('updater state', () => {
  for (const method of ['ftw-initial', 'ftw-previous', 'ftw-uniform', 'reinforce', 'ppo', 'grpo'] as const) {
    it(`${method}: a restored learner goes on bit for bit (state through JSON)`, () => {
      fc.assert(
        fc.property(batchesArb, fc.nat(), (batches, cut) => {
          const k = 1 + (cut % (batches.length - 1));
          const whole = learner(method);
          for (const b of batches) whole.step(b.map(episodeOf));
          const first = learner(method);
          for (const b of batches.slice(0, k)) first.step(b.map(episodeOf));
          const resumed = learner(method, first.save());
          for (const b of batches.slice(k)) resumed.step(b.map(episodeOf));
          expect(Array.from(resumed.policy.parameters)).toEqual(Array.from(whole.policy.parameters));
        }),
        { seed: 41, numRuns: 60 },
      );
    });
  }

  it('refuses a state of another updater or with bad numbers, naming the field, and changes nothing', () => {
    const policy = new TabularPolicy(A, O);
    const ftw = new FtwUpdater(
      REPRODUCE_OPTIONS,
      policy,
      createOptimizer('sgd', 1),
      eliteSelector(REPRODUCE_OPTIONS, Math.random),
    );
    const baseline = new BaselineUpdater(
      { ...REPRODUCE_OPTIONS, method: 'reinforce' },
      policy,
      createOptimizer('sgd', 1),
    );
    const before = JSON.stringify(ftw.state());
    expect(() => ftw.restore(baseline.state())).toThrow('state.kind must be ftw, got baseline');
    expect(() => ftw.restore({ kind: 'ftw', initial: [0, Number.NaN], previous: null })).toThrow(
      'state.initial[1] must be a finite number, got NaN',
    );
    expect(() => ftw.restore({ kind: 'ftw', initial: [0], previous: [1, 'x' as unknown as number] })).toThrow(
      'state.previous[1] must be a finite number, got x',
    );
    expect(JSON.stringify(ftw.state())).toBe(before);
    expect(() => baseline.restore(ftw.state())).toThrow(/state.kind must be baseline .*got ftw/);
    expect(() =>
      baseline.restore({
        kind: 'baseline',
        baselines: [
          [0, 1],
          [1, Number.POSITIVE_INFINITY],
        ],
      }),
    ).toThrow('state.baselines[1] must be [a number or string, a finite number], got [1,null]');
    expect(baseline.state()).toEqual({ kind: 'baseline', baselines: [] });
  });
});
