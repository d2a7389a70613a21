import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { lehmer } from '../test/lehmer.js';
import { useBackend } from './backend.js';
import { createMlpPolicy } from './create-policy.js';

describe('useBackend', () => {
  it('selects cpu or wasm as asked, and a policy gives the same logits on both within float32 rounding', async () => {
    const x = Float64Array.of(0.5, -1, 0.25);
    const policy = await createMlpPolicy({
      inputSize: 3,
      numActions: 2,
      hiddenSizes: [4],
      random: lehmer(3),
      backend: 'cpu',
    });
    expect(tf.getBackend()).toBe('cpu');
    const onCpu = policy.logits(x, 1, new Float64Array(2));
    expect(await useBackend('wasm')).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    const onWasm = policy.logits(x, 1, new Float64Array(2));
    for (let a = 0; a < 2; a++) expect(Math.abs(onWasm[a]! - onCpu[a]!)).toBeLessThan(1e-6);
    policy.dispose();
  });

  it('refuses a backend it does not offer, naming the value', async () => {
    await expect(useBackend('webgl' as 'wasm')).rejects.toThrow("backend must be 'wasm' or 'cpu', got webgl");
  });
});
