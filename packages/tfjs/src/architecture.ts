import { TfjsPolicyError } from './tfjs-policy-error.js';

/** Nonlinearity between layers. */
export type Activation = 'relu' | 'tanh';

/** Activations accepted in options and saved files. */
export const ACTIVATIONS: readonly Activation[] = ['relu', 'tanh'];

/** An MLP: `inputSize` features → `hiddenSizes` (each followed by the activation) → `numActions` logits. */
export interface MlpArchitecture {
  readonly kind: 'mlp';
  readonly inputSize: number;
  readonly hiddenSizes: readonly number[];
  readonly numActions: number;
  readonly activation: Activation;
}

/**
 * A convolutional policy on a grid of `channels × height × width`: `filters` convolutions of
 * `kernelSize × kernelSize` ('same' padding, stride 1, each followed by the activation), flattened, then
 * `hiddenSizes` dense layers and `numActions` logits.
 */
export interface ConvArchitecture {
  readonly kind: 'conv';
  readonly channels: number;
  readonly height: number;
  readonly width: number;
  readonly filters: readonly number[];
  readonly kernelSize: number;
  readonly hiddenSizes: readonly number[];
  readonly numActions: number;
  readonly activation: Activation;
}

/** The architecture of a saved policy. */
export type Architecture = MlpArchitecture | ConvArchitecture;

/** How a bad field is reported: options raise RangeError, saved files TfjsPolicyError. */
type Fail = (field: string, message: string) => never;

const optionFail: Fail = (field, message) => {
  throw new RangeError(`${field} ${message}`);
};

const fileFail: Fail = (field, message) => {
  throw new TfjsPolicyError('INVALID_POLICY_FILE', field, `${field} ${message}`);
};

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? String(value));
}

function integer(fail: Fail, field: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    fail(field, `must be an integer >= ${min}, got ${show(value)}`);
  }
  return value as number;
}

function integers(fail: Fail, field: string, value: unknown, minLength: number): number[] {
  if (!Array.isArray(value) || value.length < minLength) {
    fail(field, `must be an array of at least ${minLength} integers >= 1, got ${show(value)}`);
  }
  return (value as unknown[]).map((v, i) => integer(fail, `${field}[${i}]`, v, 1));
}

function activation(fail: Fail, field: string, value: unknown): Activation {
  if (!ACTIVATIONS.includes(value as Activation)) {
    fail(field, `must be one of ${ACTIVATIONS.map(show).join(', ')}, got ${show(value)}`);
  }
  return value as Activation;
}

/** Checks an MLP's options (prefix '') or a file's architecture (prefix 'architecture.'). */
export function checkMlp(
  value: Record<string, unknown>,
  prefix = '',
  fail: Fail = optionFail,
): MlpArchitecture {
  return {
    kind: 'mlp',
    inputSize: integer(fail, `${prefix}inputSize`, value.inputSize, 1),
    hiddenSizes: integers(fail, `${prefix}hiddenSizes`, value.hiddenSizes ?? [], 0),
    numActions: integer(fail, `${prefix}numActions`, value.numActions, 1),
    activation: activation(fail, `${prefix}activation`, value.activation ?? 'relu'),
  };
}

/** Checks a convolutional policy's options or a file's architecture. */
export function checkConv(
  value: Record<string, unknown>,
  prefix = '',
  fail: Fail = optionFail,
): ConvArchitecture {
  const kernelSize = integer(fail, `${prefix}kernelSize`, value.kernelSize ?? 3, 1);
  // 'same' padding keeps the grid's shape only for odd kernels, whose centre is a cell.
  if (kernelSize % 2 === 0) fail(`${prefix}kernelSize`, `must be odd, got ${kernelSize}`);
  return {
    kind: 'conv',
    channels: integer(fail, `${prefix}channels`, value.channels ?? 5, 1),
    height: integer(fail, `${prefix}height`, value.height, 1),
    width: integer(fail, `${prefix}width`, value.width, 1),
    filters: integers(fail, `${prefix}filters`, value.filters ?? [16, 16], 1),
    kernelSize,
    hiddenSizes: integers(fail, `${prefix}hiddenSizes`, value.hiddenSizes ?? [64], 0),
    numActions: integer(fail, `${prefix}numActions`, value.numActions, 1),
    activation: activation(fail, `${prefix}activation`, value.activation ?? 'relu'),
  };
}

/**
 * Reads the architecture of a saved policy.
 * @throws TfjsPolicyError `INVALID_POLICY_FILE` naming the field, when it is not an MLP or conv architecture
 */
export function readArchitecture(value: unknown): Architecture {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fileFail('architecture', `must be an object, got ${show(value)}`);
  }
  const record = value as Record<string, unknown>;
  if (record.kind === 'mlp') return checkMlp(record, 'architecture.', fileFail);
  if (record.kind === 'conv') return checkConv(record, 'architecture.', fileFail);
  return fileFail('architecture.kind', `must be 'mlp' or 'conv', got ${show(record.kind)}`);
}

/**
 * The first field in which two architectures differ, with both values, or null when they are equal.
 */
export function architectureDifference(
  expected: Architecture,
  received: Architecture,
): { field: string; expected: string; received: string } | null {
  const keys = new Set([...Object.keys(expected), ...Object.keys(received)]);
  for (const key of keys) {
    const a = show((expected as unknown as Record<string, unknown>)[key]);
    const b = show((received as unknown as Record<string, unknown>)[key]);
    if (a !== b) return { field: `architecture.${key}`, expected: a, received: b };
  }
  return null;
}
