import { describe, expect, it } from 'vitest';
import { TabularPolicy } from './tabular-policy.js';
import { trajectoryImportanceWeights } from './trajectory-importance-weights.js';

describe('trajectoryImportanceWeights', () => {
  it('is Π_t π_θ(a_t|o_t) / q_{v_t}(a_t|o_t) per trajectory, truncated at c (the TSDoc example and a mixed-version case)', () => {
    const policy = new TabularPolicy(2, 2);
    policy.parameters.set([Math.log(3), 0, 0, 0]); // π(·|0) = (0.75, 0.25), π(·|1) = (0.5, 0.5)
    const episodes = [
      { length: 1, observations: [1], actions: [1], logProbs: [Math.log(0.25)] },
      // Two steps from two versions: q = 0.5 then 0.9.
      { length: 2, observations: [0, 1], actions: [0, 0], logProbs: [Math.log(0.5), Math.log(0.9)] },
    ];
    const { weights, currentLogProbs } = trajectoryImportanceWeights(policy, 2, (i) => episodes[i]!, 1.5);
    const expected = [0.5 / 0.25, (0.75 / 0.5) * (0.5 / 0.9)];
    expect(Math.exp(weights.logWeights[0]!)).toBeCloseTo(expected[0]!, 14);
    expect(Math.exp(weights.logWeights[1]!)).toBeCloseTo(expected[1]!, 14);
    expect(weights.truncatedWeights[0]).toBeCloseTo(1.5, 14);
    expect(weights.truncatedWeights[1]).toBeCloseTo(expected[1]!, 14);
    expect(Array.from(currentLogProbs, Math.exp).map((p) => Number(p.toFixed(12)))).toEqual([0.5, 0.75, 0.5]);
  });

  it('names a trajectory without observations', () => {
    expect(() =>
      trajectoryImportanceWeights(
        new TabularPolicy(2, 1),
        1,
        () => ({ length: 1, actions: [0], logProbs: [-1] }),
        1,
      ),
    ).toThrow(/trajectory 0 has no observations/);
  });
});
