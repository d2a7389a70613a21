// Runs every @example of the public API and checks the output its comments show.
import { format } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  empiricalDistribution,
  forwardKlProjection,
  ftwLoss,
  grpoAdvantages,
  importanceWeights,
  klEstimators,
  logProbGradToLogits,
  logSoftmax,
  MAX_MAGNITUDE,
  ObjectiveError,
  policyGradientLoss,
  policyShift,
  ppoClipLoss,
  reinforceLoss,
  trajectoryWeights,
  trpoBound,
} from '../src/index.js';

/** What console.log would print for these arguments. */
const printed = (...args: unknown[]) => format(...args);

describe('the TSDoc examples', () => {
  it('empiricalDistribution', () => {
    expect(printed(Array.from(empiricalDistribution([1, 1, 0, 1], 2)))).toBe('[ 0.25, 0.75 ]');
  });

  it('forwardKlProjection', () => {
    expect(printed(Array.from(forwardKlProjection([1, 0], [0.5, 0.5], 1)))).toBe('[ 0.75, 0.25 ]');
  });

  it('ftwLoss', () => {
    const logits = new Float64Array([0, 1, 0, 1, 0, 1, 0, 1]);
    const r = ftwLoss({ logits, rows: 4, actions: 2, selected: [1, 1, 0, 1], beta: 0.05 });
    expect(printed(r.loss.toFixed(6), r.klMean.toFixed(6))).toBe('0.568809 0.110944');
  });

  it('grpoAdvantages', () => {
    expect(printed(Array.from(grpoAdvantages([1, 0, 0, 1, 5, 5], 2)))).toBe('[ 1, -1, -1, 1, 0, 0 ]');
  });

  it('importanceWeights', () => {
    const r = importanceWeights({
      logProbs: [Math.log(0.5), Math.log(0.5), Math.log(0.2)],
      behaviourLogProbs: [Math.log(0.25), Math.log(0.5), Math.log(0.4)],
      lengths: [2, 1],
    });
    expect(printed(Array.from(r.logWeights, Math.exp), r.ess)).toBe('[ 2, 0.5 ] 1.4705882352941178');
  });

  it('klEstimators', () => {
    const e = klEstimators({ logProbs: [Math.log(0.5)], refLogProbs: [Math.log(0.25)] });
    expect(printed(e.k1Mean.toFixed(4), e.k3Mean.toFixed(4), e.dk3[0])).toBe('0.6931 0.1931 0.5');
  });

  it('logProbGradToLogits', () => {
    const g = logProbGradToLogits({
      logits: new Float64Array([0, 0]),
      rows: 1,
      actions: 2,
      selected: [0],
      gradLogProb: [1],
    });
    expect(printed(Array.from(g))).toBe('[ 0.5, -0.5 ]');
  });

  it('logSoftmax', () => {
    expect(printed(Array.from(logSoftmax(new Float64Array([1000, 0]), 1, 2)))).toBe('[ 0, -1000 ]');
  });

  it('MAX_MAGNITUDE', () => {
    expect(printed(MAX_MAGNITUDE)).toBe('1e+50');
  });

  it('ObjectiveError', () => {
    let code: string | undefined;
    try {
      ppoClipLoss({
        logits: new Float64Array([0, 0]),
        rows: 1,
        actions: 2,
        selected: [0],
        behaviourLogProbs: [-1000],
        advantages: [-1],
      });
    } catch (error) {
      if (error instanceof ObjectiveError) code = error.code;
    }
    expect(code).toBe('NON_FINITE_RESULT');
  });

  it('policyGradientLoss', () => {
    const r = policyGradientLoss({
      logits: new Float64Array([0, 0]),
      rows: 1,
      actions: 2,
      selected: [1],
      advantages: [2],
    });
    expect(printed(r.loss.toFixed(4), Array.from(r.grad))).toBe('1.3863 [ 1, -1 ]');
  });

  it('policyShift', () => {
    const s = policyShift(new Float64Array([0, 0]), new Float64Array([Math.log(3), 0]), 2);
    expect(printed(s.klMean.toFixed(4), s.tvMax)).toBe('0.1438 0.25');
  });

  it('ppoClipLoss', () => {
    const r = ppoClipLoss({
      logits: new Float64Array([0, 0]),
      rows: 1,
      actions: 2,
      selected: [0],
      behaviourLogProbs: [Math.log(0.25)],
      advantages: [1],
    });
    expect(printed(r.loss, r.clipFraction, Array.from(r.grad))).toBe('-1.2 1 [ 0, 0 ]');
  });

  it('reinforceLoss', () => {
    const r = reinforceLoss({
      logits: new Float64Array([0, 0, 0, 0]),
      rows: 2,
      actions: 2,
      selected: [1, 0],
      returns: [1, 0],
    });
    expect(printed(r.loss, Array.from(r.grad))).toBe('0 [ 0.125, -0.125, 0.125, -0.125 ]');
  });

  it('trajectoryWeights', () => {
    expect(printed(Array.from(trajectoryWeights([3, 1], [2, 1])))).toBe('[ 0.375, 0.375, 0.25 ]');
    expect(printed(Array.from(trajectoryWeights([3, 1], [2, 1], { normalize: 'step' })))).toBe(
      '[ 0.42857142857142855, 0.42857142857142855, 0.14285714285714285 ]',
    );
  });

  it('trpoBound', () => {
    expect(printed(trpoBound(1, 0.9, 0.1))).toBe('3.6000000000000023');
  });
});
