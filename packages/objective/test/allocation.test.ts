// "Accepts out buffers so a training loop allocates nothing per step": each function is called the way a
// training loop calls it (one call site, the same input and out objects every step) and its heap growth
// per call is measured in steady state. One allocation per call (an object, a typed array or a boxed
// double) would show as at least 12 bytes per call; the bound is 1 byte. This file runs in its own
// worker process, so the JIT feedback of the other test files (which call these functions with many
// input shapes) does not leak into it.

import { bytesPerCall } from '@ftw/internal/heap';
import { describe, expect, it } from 'vitest';
import {
  empiricalDistribution,
  FtwObjective,
  forwardKlProjection,
  ftwLoss,
  grpoAdvantages,
  importanceWeights,
  klEstimators,
  logProbGradToLogits,
  logSoftmax,
  policyGradientLoss,
  policyShift,
  ppoClipLoss,
  reinforceLoss,
  trajectoryWeights,
} from '../src/index.js';

const rows = 8;
const actions = 16;
const n = rows * actions;
const logits = new Float64Array(n).map((_, k) => Math.sin(k) * 5);
const other = new Float64Array(n).map((_, k) => Math.cos(k) * 3);
const selected = new Int32Array(rows).map((_, i) => (i * 5) % actions);
const weights = new Float64Array(rows).fill(0.5);
const values = new Float64Array(rows).map((_, i) => (i % 3) - 1);
const logProbs = new Float64Array(rows).map((_, i) => -1 - i / 4);
const grad = new Float64Array(n);

describe('allocation per call with out buffers', () => {
  it('ftwLoss allocates nothing (uniform reverse KL; forward KL with per-row reference and weights)', () => {
    const out = { grad };
    expect(bytesPerCall(ftwLoss, { logits, rows, actions, selected, beta: 0.05 }, out)).toBeLessThan(1);
    const forward = {
      logits,
      rows,
      actions,
      selected,
      weights,
      beta: 0.5,
      kl: 'forward' as const,
      reference: { logits: other },
    };
    expect(bytesPerCall(ftwLoss, forward, { grad: new Float64Array(n) })).toBeLessThan(1);
  });

  it('FtwObjective.evaluate allocates nothing (reverse KL to uniform; forward KL to per-row references)', () => {
    for (const options of [
      { actions, beta: 0.05 },
      { actions, beta: 0.5, kl: 'forward' as const, reference: 'rows' as const },
    ]) {
      const objective = new FtwObjective(options);
      const buffers = objective.rows(rows);
      buffers.logits.set(logits);
      buffers.reference.set(options.reference === undefined ? [] : other);
      buffers.selected.set(selected);
      buffers.weights.set(weights);
      expect(bytesPerCall((count: number) => objective.evaluate(count), rows)).toBeLessThan(1);
    }
  });

  it('the baseline losses allocate nothing', () => {
    const pg = { logits, rows, actions, selected, advantages: values };
    expect(bytesPerCall(policyGradientLoss, pg, { grad: new Float64Array(n) })).toBeLessThan(1);
    const re = { logits, rows, actions, selected, returns: values, weights };
    expect(bytesPerCall(reinforceLoss, re, { grad: new Float64Array(n) })).toBeLessThan(1);
    const ppo = { logits, rows, actions, selected, behaviourLogProbs: logProbs, advantages: values };
    expect(bytesPerCall(ppoClipLoss, ppo, { grad: new Float64Array(n) })).toBeLessThan(1);
    expect(bytesPerCall(grpoAdvantages, values, 4, undefined, new Float64Array(rows))).toBeLessThan(1);
  });

  it('the estimators, diagnostics and helpers allocate nothing', () => {
    const est = { logProbs, refLogProbs: values.map((v) => -Math.abs(v) - 0.5) };
    expect(bytesPerCall(klEstimators, est, {})).toBeLessThan(1);
    const chain = { logits, rows, actions, selected, gradLogProb: values };
    expect(bytesPerCall(logProbGradToLogits, chain, new Float64Array(n))).toBeLessThan(1);
    expect(bytesPerCall(logSoftmax, logits, rows, actions, new Float64Array(n))).toBeLessThan(1);
    const iw = { logProbs, behaviourLogProbs: logProbs.map((v) => v - 0.1), lengths: [3, 0, 5] };
    expect(bytesPerCall(importanceWeights, iw, { truncation: 2 }, {})).toBeLessThan(1);
    expect(bytesPerCall(policyShift, logits, other, actions, {})).toBeLessThan(1);
    expect(
      bytesPerCall(
        trajectoryWeights,
        [2, 1, 0.5],
        [3, 0, 5],
        { normalize: 'step' as const },
        new Float64Array(8),
      ),
    ).toBeLessThan(1);
    const p = new Float64Array(actions).fill(1 / actions);
    expect(bytesPerCall(forwardKlProjection, p, p, 0.3, new Float64Array(actions))).toBeLessThan(1);
    expect(
      bytesPerCall(empiricalDistribution, selected, actions, weights, new Float64Array(actions)),
    ).toBeLessThan(1);
  });
});
