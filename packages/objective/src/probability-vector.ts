import { describeValue } from '@ftw/internal';

/**
 * A probability vector must sum to one within this: far above the rounding of a normalised vector of a
 * million entries (about 1e-10), far below any mistake such as passing counts or logits.
 */
const SUM_TOLERANCE = 1e-6;

/**
 * Validates a probability vector: array-like of `length` entries, each finite and `>= 0`, summing to 1
 * within 1e-6. Internal; not exported from the package.
 */
export function assertProbabilityVector(name: string, value: unknown, length: number): ArrayLike<number> {
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { length?: unknown }).length !== 'number'
  ) {
    throw new TypeError(
      `${name} must be an array or typed array of probabilities, got ${describeValue(value)}`,
    );
  }
  const p = value as ArrayLike<number>;
  if (p.length !== length) throw new RangeError(`${name}.length must be ${length}, got ${p.length}`);
  let sum = 0;
  for (let j = 0; j < length; j++) {
    const v = p[j];
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) {
      throw new RangeError(`${name}[${j}] must be a probability in [0, 1], got ${describeValue(v)}`);
    }
    sum += v;
  }
  if (!(Math.abs(sum - 1) <= SUM_TOLERANCE)) {
    throw new RangeError(`${name} must sum to 1 (within ${SUM_TOLERANCE}), got ${sum}`);
  }
  return p;
}
