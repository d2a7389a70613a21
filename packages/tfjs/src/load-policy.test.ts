import { train } from '@ftw/trainer';
import { describe, expect, it } from 'vitest';
import { ChainEnv } from '../../trainer/test/chain-env.js';
import { lehmer } from '../test/lehmer.js';
import { createConvPolicy, createMlpPolicy } from './create-policy.js';
import { loadPolicy } from './load-policy.js';
import { TfjsPolicyError } from './tfjs-policy-error.js';

const mlp = await createMlpPolicy({ inputSize: 4, numActions: 2, hiddenSizes: [3], random: lehmer(5) });
const conv = await createConvPolicy({
  height: 3,
  width: 3,
  numActions: 4,
  filters: [2],
  hiddenSizes: [3],
  random: lehmer(6),
});
const x = Float64Array.of(1, 0, -1, 0.5);

function caught(f: () => unknown): TfjsPolicyError {
  try {
    f();
  } catch (error) {
    if (error instanceof TfjsPolicyError) return error;
    throw error;
  }
  throw new Error('no error thrown');
}

async function rejected(p: Promise<unknown>): Promise<TfjsPolicyError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof TfjsPolicyError) return error;
    throw error;
  }
  throw new Error('no error thrown');
}

describe('save and load', () => {
  it('a saved line loads back to the same architecture, θ bit for bit and the same logits', async () => {
    for (const policy of [mlp, conv]) {
      const line = JSON.stringify(policy.toJSON());
      expect(line).not.toContain('\n');
      const copy = await loadPolicy(line);
      expect(copy.architecture).toEqual(policy.architecture);
      expect(copy.parameters).toEqual(policy.parameters);
      const input = Float64Array.from({ length: 2 * policy.observationSize }, (_, i) => (i % 3) - 1);
      const A = policy.numActions;
      expect(copy.logits(input, 2, new Float64Array(2 * A))).toEqual(
        policy.logits(input, 2, new Float64Array(2 * A)),
      );
      copy.dispose();
    }
  });

  it('load replaces θ with the record', () => {
    const record = mlp.toJSON();
    const target = Float64Array.from(mlp.parameters);
    mlp.parameters.fill(0.25);
    mlp.load(record);
    expect(mlp.parameters).toEqual(target);
  });
});

describe('bad input', () => {
  function unchangedAfter(f: () => void): TfjsPolicyError {
    const before = Float64Array.from(mlp.parameters);
    const z = mlp.logits(x, 1, new Float64Array(2));
    const error = caught(f);
    expect(mlp.parameters).toEqual(before);
    expect(mlp.logits(x, 1, new Float64Array(2))).toEqual(z);
    return error;
  }

  it('a batch smaller than rows × observationSize is OBSERVATION_SIZE_MISMATCH, naming the sizes', () => {
    const error = caught(() => mlp.logits(Float64Array.of(1, 2, 3), 1, new Float64Array(2)));
    expect(error.code).toBe('OBSERVATION_SIZE_MISMATCH');
    expect(error.field).toBe('observations');
    expect(error.message).toContain('1 × 4 = 4 numbers');
    expect(error.message).toContain('got 3');
    const grad = new Float64Array(mlp.parameters.length);
    expect(
      caught(() => mlp.backward(Float64Array.of(1, 2, 3, 4, 5), 2, new Float64Array(4), grad)).code,
    ).toBe('OBSERVATION_SIZE_MISMATCH');
    expect(grad.every((g) => g === 0)).toBe(true);
  });

  it('train() refuses a network whose input size differs from the environment observation size', () => {
    const env = new ChainEnv({ length: 5, limit: 20, encoding: 'one-hot' });
    const theta = Float64Array.from(mlp.parameters);
    expect(() => train({ env, policy: mlp, iterations: 2, random: lehmer(1) })).toThrow(
      /OBSERVATION_SIZE_MISMATCH.*\b4\b.*\b5\b|OBSERVATION_SIZE_MISMATCH.*\b5\b.*\b4\b/,
    );
    expect(mlp.parameters).toEqual(theta);
  });

  it('a NaN weight (saved as null) is NON_FINITE_WEIGHT naming its index; the policy is unchanged', () => {
    const record = mlp.toJSON();
    record.parameters[7] = Number.NaN;
    const parsed = JSON.parse(JSON.stringify(record));
    const error = unchangedAfter(() => mlp.load(parsed));
    expect(error.code).toBe('NON_FINITE_WEIGHT');
    expect(error.field).toBe('parameters[7]');
    expect(error.message).toContain('null');
    const inMemory = unchangedAfter(() => mlp.load(record));
    expect(inMemory.message).toContain('got NaN');
    const text = {
      ...mlp.toJSON(),
      parameters: mlp.toJSON().parameters.map((v, i) => (i === 2 ? 'Infinity' : v)),
    };
    expect(unchangedAfter(() => mlp.load(text)).field).toBe('parameters[2]');
  });

  it('a record of another architecture is ARCHITECTURE_MISMATCH naming the field and both values', () => {
    const wider = { ...mlp.toJSON(), architecture: { ...mlp.architecture, hiddenSizes: [4] } };
    const error = unchangedAfter(() => mlp.load(wider));
    expect(error.code).toBe('ARCHITECTURE_MISMATCH');
    expect(error.field).toBe('architecture.hiddenSizes');
    expect(error.message).toContain('[4] in the record, [3] in this policy');
    const kind = unchangedAfter(() => mlp.load(conv.toJSON()));
    expect(kind.code).toBe('ARCHITECTURE_MISMATCH');
    expect(kind.field).toBe('architecture.kind');
    // Same weight count, other weights: a load that wrote θ before checking would show.
    const act = {
      ...mlp.toJSON(),
      architecture: { ...mlp.architecture, activation: 'tanh' },
      parameters: mlp.toJSON().parameters.map(() => 0.125),
    };
    expect(unchangedAfter(() => mlp.load(act)).message).toContain(
      "architecture.activation is 'tanh' in the record, 'relu'",
    );
  });

  it('a record with the wrong number of weights is PARAMETER_COUNT_MISMATCH', () => {
    const short = { ...mlp.toJSON(), parameters: mlp.toJSON().parameters.slice(1) };
    const error = unchangedAfter(() => mlp.load(short));
    expect(error.code).toBe('PARAMETER_COUNT_MISMATCH');
    expect(error.message).toContain(
      `${mlp.parameters.length} weights for this architecture, got ${mlp.parameters.length - 1}`,
    );
  });

  it('what is not a record is INVALID_POLICY_FILE naming the field', async () => {
    expect(unchangedAfter(() => mlp.load({ ...mlp.toJSON(), format: 'other' })).field).toBe('format');
    expect(unchangedAfter(() => mlp.load(null)).field).toBe('record');
    const badSize = { ...mlp.toJSON(), architecture: { ...mlp.architecture, inputSize: 0 } };
    const error = unchangedAfter(() => mlp.load(badSize));
    expect(error.code).toBe('INVALID_POLICY_FILE');
    expect(error.message).toBe('INVALID_POLICY_FILE: architecture.inputSize must be an integer >= 1, got 0');
    expect((await rejected(loadPolicy('{"format":'))).code).toBe('INVALID_POLICY_FILE');
    const kind = { ...mlp.toJSON(), architecture: { ...mlp.architecture, kind: 'rnn' } };
    expect((await rejected(loadPolicy(kind))).field).toBe('architecture.kind');
    const nan = {
      ...conv.toJSON(),
      parameters: conv.toJSON().parameters.map((v, i) => (i === 0 ? null : v)),
    };
    expect((await rejected(loadPolicy(nan))).field).toBe('parameters[0]');
  });

  it('options out of range are RangeErrors naming the option and the value', async () => {
    await expect(createMlpPolicy({ inputSize: 0, numActions: 2, random: Math.random })).rejects.toThrow(
      'inputSize must be an integer >= 1, got 0',
    );
    await expect(
      createMlpPolicy({ inputSize: 2, numActions: 2, hiddenSizes: [4, 2.5], random: Math.random }),
    ).rejects.toThrow('hiddenSizes[1] must be an integer >= 1, got 2.5');
    await expect(
      createMlpPolicy({ inputSize: 2, numActions: 2, activation: 'gelu' as 'relu', random: Math.random }),
    ).rejects.toThrow("activation must be one of 'relu', 'tanh', got 'gelu'");
    await expect(
      createConvPolicy({ height: 3, width: 3, numActions: 4, kernelSize: 2, random: Math.random }),
    ).rejects.toThrow('kernelSize must be odd, got 2');
    await expect(
      createMlpPolicy({ inputSize: 2, numActions: 2, random: Math.random, backend: 'gpu' as 'cpu' }),
    ).rejects.toThrow("backend must be 'wasm' or 'cpu', got gpu");
    for (const create of [
      () => createMlpPolicy({ inputSize: 2, numActions: 2, random: 7 as unknown as () => number }),
      () => createConvPolicy({ height: 3, width: 3, numActions: 4, random: 7 as unknown as () => number }),
    ]) {
      await expect(create()).rejects.toThrow('random must be a function () => number, got number');
    }
  });
});
