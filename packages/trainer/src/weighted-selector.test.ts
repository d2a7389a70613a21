import { ReplayPool } from '@ftw/replay-pool';
import { describe, expect, it } from 'vitest';
import { TabularPolicy } from './tabular-policy.js';
import { weightedSelector } from './weighted-selector.js';

/** log softmax(z)[a], from the definition. */
const logSoftmax = (z: number[], a: number) =>
  Math.log(Math.exp(z[a]!) / z.reduce((s, x) => s + Math.exp(x), 0));

describe('weightedSelector', () => {
  const logits = [
    [0.5, -1, 2],
    [1, 1, -0.5],
  ];
  const setup = () => {
    const policy = new TabularPolicy(3, 2);
    policy.parameters.set(logits.flat());
    const pool = new ReplayPool({ capacity: 4 });
    // Trajectory 0: two steps of versions 3 and 4 (hot-loaded mid-episode); trajectory 1: one step.
    pool.push({ actions: [2, 0], logProbs: [-0.4, -1.5], versions: [3, 4], return: 1, observations: [0, 1] });
    pool.push({ actions: [1], logProbs: [-2], versions: 4, return: 0, observations: [1] });
    const inner = () => ({ positions: [0, 1], counts: [2, 1], size: 2 });
    return { policy, pool, inner };
  };
  // log w(τ) = Σ_t log π(a_t | o_t) − log q_{v_t}(a_t | o_t)
  const w0 = logSoftmax(logits[0]!, 2) + 0.4 + logSoftmax(logits[1]!, 0) + 1.5;
  const w1 = logSoftmax(logits[1]!, 1) + 2;

  it('measures log w(τ) per selected trajectory and the ESS of the selection with its counts', () => {
    const { policy, pool, inner } = setup();
    const { select, last } = weightedSelector(inner, policy, { kind: 'none' });
    expect(last()).toBeNull();
    const choice = select(pool, 5)!;
    expect(Array.from(choice.counts)).toEqual([2, 1]);
    const r = last()!;
    expect(r.logWeightMean).toBeCloseTo((2 * w0 + w1) / 3, 12);
    expect(r.logWeightMin).toBeCloseTo(Math.min(w0, w1), 12);
    expect(r.logWeightMax).toBeCloseTo(Math.max(w0, w1), 12);
    // ESS of the multiset {τ0, τ0, τ1}: (Σ w)² / Σ w², as a share of its 3 members.
    const [a, b] = [Math.exp(w0), Math.exp(w1)];
    expect(r.essShare).toBeCloseTo((2 * a + b) ** 2 / (2 * a * a + b * b) / 3, 12);
    // Ages at version 5: τ0's oldest step is version 3 (age 2), τ1's 4 (age 1); counts 2 and 1.
    expect(r.selectionStaleness).toBe((2 * 2 + 1 * 1) / 3);
  });

  it('with truncate:c hands the updater counts m·min(w, c)', () => {
    const { policy, pool, inner } = setup();
    for (const cap of [0.5, 1, 3, 100]) {
      const { select } = weightedSelector(inner, policy, { kind: 'truncate', cap });
      const counts = Array.from(select(pool, 5)!.counts);
      expect(counts[0]).toBeCloseTo(2 * Math.min(Math.exp(w0), cap), 12);
      expect(counts[1]).toBeCloseTo(1 * Math.min(Math.exp(w1), cap), 12);
    }
  });

  it('measures the staleness of the selection by its counts m, not by the truncated counts it hands on', () => {
    const { policy, pool, inner } = setup();
    // A cap between the two weights truncates one of them only.
    const cap = Math.sqrt(Math.exp(w0) * Math.exp(w1));
    const { select, last } = weightedSelector(inner, policy, { kind: 'truncate', cap });
    const counts = Array.from(select(pool, 5)!.counts);
    // The truncated counts would give (c0 · 2 + c1 · 1) / (c0 + c1), another number (w0 ≠ w1).
    expect((counts[0]! * 2 + counts[1]! * 1) / (counts[0]! + counts[1]!)).not.toBeCloseTo(5 / 3, 3);
    expect(last()!.selectionStaleness).toBe(5 / 3);
  });
});
