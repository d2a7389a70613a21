import { TabularPolicy } from '@ftw/trainer';
import { describe, expect, it } from 'vitest';
import { BehaviourCheck } from './behaviour-check.js';

/** log softmax(z)[a], from the definition. */
const logSoftmax = (z: number[], a: number) =>
  Math.log(Math.exp(z[a]!) / z.reduce((s, x) => s + Math.exp(x), 0));

const logits = [
  [0.5, -1, 2],
  [1, 1, -0.5],
];
const policy = () => {
  const p = new TabularPolicy(3, 2);
  p.parameters.set(logits.flat());
  return p;
};
const episode = (steps: { o: number; a: number; logProb: number; v: number }[]) => ({
  length: steps.length,
  observations: Int32Array.from(steps.map((s) => s.o)),
  actions: Int32Array.from(steps.map((s) => s.a)),
  logProbs: Float64Array.from(steps.map((s) => s.logProb)),
  versions: Uint32Array.from(steps.map((s) => s.v)),
});

describe('BehaviourCheck', () => {
  it('scores again only the steps of the current version, keeping the largest absolute gap over episodes', () => {
    const check = new BehaviourCheck(policy());
    expect(check.result).toEqual({ steps: 0, maxLogProbGap: 0 });
    // Version 5 is current. Step gaps: 0, 0.125 (recorded too high), 0.0625 (recorded too low); the steps of
    // versions 4 and 6 are off by 3 and are not scored.
    check.add(
      episode([
        { o: 0, a: 0, logProb: logSoftmax(logits[0]!, 0), v: 5 },
        { o: 1, a: 0, logProb: logSoftmax(logits[1]!, 0) + 3, v: 4 },
        { o: 1, a: 2, logProb: logSoftmax(logits[1]!, 2) + 0.125, v: 5 },
      ]),
      5,
    );
    check.add(
      episode([
        { o: 0, a: 1, logProb: logSoftmax(logits[0]!, 1) - 0.0625, v: 5 },
        { o: 0, a: 0, logProb: logSoftmax(logits[0]!, 0) - 3, v: 6 },
      ]),
      5,
    );
    const { steps, maxLogProbGap } = check.result;
    expect(steps).toBe(3);
    expect(maxLogProbGap).toBeCloseTo(0.125, 12);
  });

  it('finds a gap recorded below the learner as well as above it', () => {
    const check = new BehaviourCheck(policy());
    check.add(episode([{ o: 1, a: 1, logProb: logSoftmax(logits[1]!, 1) - 0.5, v: 0 }]), 0);
    expect(check.result.maxLogProbGap).toBeCloseTo(0.5, 12);
    expect(check.result.steps).toBe(1);
  });

  it('counts a step without a log-probability (NaN) as the largest gap there is, +∞, and keeps it', () => {
    const check = new BehaviourCheck(policy());
    check.add(episode([{ o: 0, a: 0, logProb: logSoftmax(logits[0]!, 0) + 0.25, v: 2 }]), 2);
    check.add(episode([{ o: 0, a: 0, logProb: Number.NaN, v: 2 }]), 2);
    check.add(episode([{ o: 0, a: 0, logProb: logSoftmax(logits[0]!, 0) + 0.5, v: 2 }]), 2);
    expect(check.result).toEqual({ steps: 3, maxLogProbGap: Number.POSITIVE_INFINITY });
  });
});
