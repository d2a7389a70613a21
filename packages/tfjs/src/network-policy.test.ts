import { ftwLoss } from '@ftw/objective';
import { describe, expect, it } from 'vitest';
import { lehmer } from '../test/lehmer.js';
import { convReference, mlpReference } from '../test/reference.js';
import { useBackend } from './backend.js';
import { ConvPolicy } from './conv-policy.js';
import { MlpPolicy } from './mlp-policy.js';
import type { NetworkPolicy } from './network-policy.js';

const backend = await useBackend((process.env.FTW_TFJS_BACKEND as 'wasm' | 'cpu' | undefined) ?? 'wasm');

interface Case {
  name: string;
  policy: NetworkPolicy;
  reference: (theta: Float64Array, x: Float64Array, rows: number) => Float64Array;
}

function cases(activation: 'relu' | 'tanh'): Case[] {
  const mlp = new MlpPolicy({
    inputSize: 3,
    numActions: 3,
    hiddenSizes: [5, 4],
    activation,
    random: lehmer(1),
  });
  const conv = new ConvPolicy({
    height: 3,
    width: 4,
    numActions: 4,
    filters: [3, 2],
    hiddenSizes: [4],
    activation,
    random: lehmer(2),
  });
  return [
    {
      name: `mlp ${activation}`,
      policy: mlp,
      reference: (t, x, r) => mlpReference(mlp.architecture, t, x, r),
    },
    {
      name: `conv ${activation}`,
      policy: conv,
      reference: (t, x, r) => convReference(conv.architecture, t, x, r),
    },
  ];
}

describe(`NetworkPolicy on ${backend}`, () => {
  const rows = 6;
  for (const activation of ['tanh', 'relu'] as const) {
    for (const { name, policy, reference } of cases(activation)) {
      const random = lehmer(name.length * 7 + 3);
      const d = policy.observationSize;
      const A = policy.numActions;
      // θ of order 1 (not the small initial output layer), so every block carries a sizeable gradient.
      for (let i = 0; i < policy.parameters.length; i++) policy.parameters[i] = 2 * random() - 1;
      const x = Float64Array.from({ length: rows * d }, () => (random() < 0.4 ? 1 : random() - 0.5));
      const selected = Int32Array.from({ length: rows }, (_, r) => (r * 5 + 1) % A);
      const weights = Float64Array.from({ length: rows }, (_, r) => 1 + (r % 3));
      const lossAt = (z: Float64Array) =>
        ftwLoss({ logits: z, rows, actions: A, selected, weights, beta: 0.3, kl: 'reverse' });

      it(`${name}: the forward pass equals the float64 reference within float32 rounding`, () => {
        const z = policy.logits(x, rows, new Float64Array(rows * A));
        const ref = reference(policy.parameters, x, rows);
        for (let i = 0; i < z.length; i++)
          expect(Math.abs(z[i]! - ref[i]!)).toBeLessThan(1e-4 * (1 + Math.abs(ref[i]!)));
      });

      it(`${name}: the gradient of the FTW loss equals central differences of a float64 reference`, () => {
        const z = policy.logits(x, rows, new Float64Array(rows * A));
        const logitGrad = lossAt(z).grad;
        const grad = new Float64Array(policy.parameters.length);
        policy.backward(x, rows, logitGrad, grad);
        // Reference: L(θ) through the float64 network, central differences with h = 1e-5 (truncation
        // error O(h²) ≈ 1e-10, rounding ≈ 1e-16 / h ≈ 1e-11).
        const theta = Float64Array.from(policy.parameters);
        const h = 1e-5;
        const expected = new Float64Array(theta.length);
        for (let i = 0; i < theta.length; i++) {
          const t0 = theta[i]!;
          theta[i] = t0 + h;
          const up = lossAt(reference(theta, x, rows)).loss;
          theta[i] = t0 - h;
          const down = lossAt(reference(theta, x, rows)).loss;
          theta[i] = t0;
          expected[i] = (up - down) / (2 * h);
        }
        // Tolerance from float32: unit roundoff u = 2^-24 ≈ 6e-8; each dot product of n ≤ 54 terms errs by
        // at most n·u·Σ|terms| ≈ 3e-6 relative, compounded over at most four layers forward and back; the
        // check allows 1e-4 of the largest gradient, ten times that, while a wrong rule (a flipped sign,
        // a missing bias or layer term) errs by the size of the gradient itself.
        const scale = Math.max(...expected.map(Math.abs));
        expect(scale).toBeGreaterThan(1e-2);
        for (let i = 0; i < theta.length; i++) {
          expect(Math.abs(grad[i]! - expected[i]!), `∂L/∂θ[${i}]`).toBeLessThan(1e-4 * scale);
        }
      });

      it(`${name}: a backward right after logits of the batch (its activations reused) equals a backward alone`, () => {
        const g = Float64Array.from({ length: rows * A }, () => random() - 0.5);
        const other = Float64Array.from(x, (v) => v + 0.25);
        const z = new Float64Array(rows * A);
        const alone = new Float64Array(policy.parameters.length);
        policy.logits(other, rows, z); // another batch's pass: nothing to reuse
        policy.backward(x, rows, g, alone);
        const reused = new Float64Array(policy.parameters.length);
        policy.logits(x, rows, z);
        policy.backward(x, rows, g, reused);
        // The dense layers: the products tfjs's gradients of matMul, add and relu/tanh take, in the same
        // order (equal bit for bit on wasm when written). A convolution's input gradient is a transposed
        // convolution instead of the gradient of the patch extraction: the same terms summed in another
        // order (1.7e-7 of the largest entry on wasm when written). The bound allows float32 rounding of
        // each sum of at most 54 terms, 54 · 2^-24 ≈ 3e-6 of the largest entry.
        const scale = Math.max(...alone.map(Math.abs));
        for (let i = 0; i < alone.length; i++) {
          expect(Math.abs(reused[i]! - alone[i]!), `∂L/∂θ[${i}]`).toBeLessThanOrEqual(3e-6 * scale);
        }
        // A batch changed in place after its logits, or θ changed, is not the recorded pass: run again.
        const changed = Float64Array.from(x);
        policy.logits(changed, rows, z);
        changed[0] = changed[0]! + 0.5;
        const afterEdit = new Float64Array(policy.parameters.length);
        policy.backward(changed, rows, g, afterEdit);
        const fresh = new Float64Array(policy.parameters.length);
        policy.logits(other, rows, z);
        policy.backward(changed, rows, g, fresh);
        expect(afterEdit).toEqual(fresh);
        policy.logits(x, rows, z);
        const theta = Float64Array.from(policy.parameters);
        for (let i = 0; i < theta.length; i++) policy.parameters[i] = 1.5 * theta[i]!;
        const afterStep = new Float64Array(policy.parameters.length);
        policy.backward(x, rows, g, afterStep);
        const freshStep = new Float64Array(policy.parameters.length);
        policy.logits(other, rows, z);
        policy.backward(x, rows, g, freshStep);
        policy.parameters.set(theta);
        expect(afterStep).toEqual(freshStep);
        expect(afterStep).not.toEqual(alone);
      });

      it(`${name}: backward adds to the gradient it is given`, () => {
        const g = Float64Array.from({ length: rows * A }, () => random() - 0.5);
        const once = new Float64Array(policy.parameters.length);
        policy.backward(x, rows, g, once);
        const twice = Float64Array.from(once);
        policy.backward(x, rows, g, twice);
        for (let i = 0; i < once.length; i++) expect(twice[i]).toBeCloseTo(2 * once[i]!, 12);
      });

      it(`${name}: a batch's logits equal one-at-a-time logits`, () => {
        const batch = policy.logits(x, rows, new Float64Array(rows * A));
        for (let r = 0; r < rows; r++) {
          const one = policy.logits(x.subarray(r * d, (r + 1) * d), 1, new Float64Array(A));
          for (let a = 0; a < A; a++) expect(one[a]).toBe(batch[r * A + a]);
        }
      });

      it(`${name}: logits follow θ changed in place, one weight at a time`, () => {
        const before = policy.logits(x, rows, new Float64Array(rows * A));
        // The output layer's last bias adds to the last action's logit in every row, and nothing else.
        const last = policy.parameters.length - 1;
        policy.parameters[last] = policy.parameters[last]! + 0.5;
        const after = policy.logits(x, rows, new Float64Array(rows * A));
        policy.parameters[last] = policy.parameters[last]! - 0.5;
        for (let i = 0; i < after.length; i++) {
          expect(after[i]! - before[i]!).toBeCloseTo(i % A === A - 1 ? 0.5 : 0, 5);
        }
        // A weight in the middle of the first block moves the logits too.
        const middle = Math.floor(policy.parameterShapes[0]!.shape.reduce((a, b) => a * b, 1) / 2);
        policy.parameters[middle] = policy.parameters[middle]! + 1;
        const moved = policy.logits(x, rows, new Float64Array(rows * A));
        policy.parameters[middle] = policy.parameters[middle]! - 1;
        expect(moved).not.toEqual(before);
        expect(policy.logits(x, rows, new Float64Array(rows * A))).toEqual(before);
      });

      it(`${name}: logits at a snapshot of θ equal logits after loading that θ`, () => {
        const snapshot = Float64Array.from(policy.parameters, (v) => v * 0.5);
        const atSnapshot = policy.logits(x, rows, new Float64Array(rows * A), snapshot);
        const saved = Float64Array.from(policy.parameters);
        policy.parameters.set(snapshot);
        const after = policy.logits(x, rows, new Float64Array(rows * A));
        policy.parameters.set(saved);
        expect(after).toEqual(atSnapshot);
        const before = policy.logits(x, rows, new Float64Array(rows * A));
        expect(before).not.toEqual(atSnapshot);
      });
    }
  }
});
