import { ftwLoss } from '@ftw/objective';
import { createOptimizer } from '@ftw/trainer';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { lehmer } from '../test/lehmer.js';
import { createConvPolicy, createMlpPolicy } from './create-policy.js';
import type { NetworkPolicy } from './network-policy.js';

/** `updates` Adam steps on the FTW loss of a fixed batch, as the trainer takes them. */
function run(policy: NetworkPolicy, updates: number, rows: number): number {
  const random = lehmer(9);
  const d = policy.observationSize;
  const A = policy.numActions;
  const x = Float64Array.from({ length: rows * d }, () => random() - 0.5);
  const selected = Int32Array.from({ length: rows }, (_, r) => r % A);
  const z = new Float64Array(rows * A);
  const snapshot = Float64Array.from(policy.parameters);
  const grad = new Float64Array(policy.parameters.length);
  const adam = createOptimizer('adam', 1e-3);
  let loss = 0;
  for (let u = 0; u < updates; u++) {
    policy.logits(x, rows, z, snapshot);
    policy.logits(x, rows, z);
    const result = ftwLoss({ logits: z, rows, actions: A, selected, beta: 0.05 });
    grad.fill(0);
    policy.backward(x, rows, result.grad, grad);
    adam.step(policy.parameters, grad);
    loss = result.loss;
  }
  return loss;
}

describe('tensor memory', () => {
  it('10^4 updates of an MLP leave tf.memory() where one update left it; dispose frees all it held', async () => {
    const policy = await createMlpPolicy({
      inputSize: 6,
      numActions: 3,
      hiddenSizes: [8],
      random: lehmer(3),
    });
    const before = tf.memory().numTensors - 4; // a new policy holds its 4 weight tensors
    const first = run(policy, 1, 4);
    const { numTensors, numBytes } = tf.memory();
    const last = run(policy, 10_000, 4);
    expect(tf.memory().numTensors).toBe(numTensors);
    expect(tf.memory().numBytes).toBe(numBytes);
    // The updates were real: the loss of the fixed batch fell.
    expect(last).toBeLessThan(first - 0.1);
    policy.dispose();
    // The 4 weight tensors and the last forward pass's kept activations (2: the input and the hidden layer).
    expect(numTensors).toBe(before + 4 + 2);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('10^3 updates of a convolutional policy leave tf.memory() where one update left it', async () => {
    const policy = await createConvPolicy({
      height: 4,
      width: 4,
      numActions: 4,
      filters: [4],
      hiddenSizes: [8],
      random: lehmer(4),
    });
    run(policy, 1, 4);
    const { numTensors, numBytes } = tf.memory();
    run(policy, 1_000, 4);
    expect(tf.memory().numTensors).toBe(numTensors);
    expect(tf.memory().numBytes).toBe(numBytes);
    policy.dispose();
  });
});
