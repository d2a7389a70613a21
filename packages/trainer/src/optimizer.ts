import { checkChoice, checkInteger, checkNumber } from './validate.js';

/**
 * What an optimiser carries from step to step, for a checkpoint: {@link createOptimizer} given it goes on
 * exactly where the saved one stood (bit for bit). SGD carries nothing but its step count; Adam its
 * moments and, per parameter, the step count before it joined (see {@link createOptimizer}).
 */
export interface OptimizerState {
  readonly kind: 'sgd' | 'adam';
  /** Steps taken. */
  readonly steps: number;
  /** Adam's first moments m, one per parameter (empty for SGD). */
  readonly m: Float64Array;
  /** Adam's second moments v ≥ 0 (empty for SGD). */
  readonly v: Float64Array;
  /** Steps taken before each parameter joined, in [0, steps) (empty for SGD). */
  readonly born: Float64Array;
}

/** Updates parameters in place from their gradient. */
export interface Optimizer {
  /**
   * One descent step: θ ← θ − update(g). θ may be longer than at the previous step (a policy that grew):
   * the new parameters join with fresh optimiser state.
   * @param params - parameters, changed in place
   * @param grad - gradient of the loss with respect to `params` (at least as long)
   */
  step(params: Float64Array, grad: Float64Array): void;
  /**
   * Offered by an optimiser under which a parameter whose gradient is 0 does not move (SGD; Adam's
   * momentum moves it): the step over only the listed blocks, each of `width` parameters from
   * `block · width`, that hold every nonzero entry of `grad`. It equals `step` bit for bit, at the cost
   * of the blocks.
   * @param params - parameters, changed in place
   * @param grad - gradient, 0 outside the blocks
   * @param blocks - block indices, distinct, in `blocks[0 .. count)`
   * @param count - number of blocks
   * @param width - parameters per block
   */
  stepBlocks?(
    params: Float64Array,
    grad: Float64Array,
    blocks: Int32Array,
    count: number,
    width: number,
  ): void;
  /**
   * Offered by the optimisers of {@link createOptimizer}: a copy of the state, to resume from with
   * `createOptimizer(kind, lr, state)`.
   */
  state?(): OptimizerState;
}

/** Adam's constants, the defaults of Kingma and Ba (2015), Algorithm 1. */
const BETA1 = 0.9;
const BETA2 = 0.999;
const EPSILON = 1e-8;

/**
 * Creates the optimiser of a run: plain SGD (θ ← θ − η g, the small reproduction's) or Adam.
 *
 * Adam: m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², θ ← θ − η m̂ / (√v̂ + ε) with bias-corrected m̂, v̂
 * (Kingma and Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015, Algorithm 1). Its per-coordinate
 * scaling makes one learning rate comparable across losses whose gradients differ in scale, which is why the
 * comparison of methods uses it. A parameter that appears later (the policy grew) starts with m = v = 0
 * and its own step count, so its bias correction is that of a fresh Adam: exactly what it would get had
 * it been created with the others and received zero gradients until then, except for the count.
 *
 * @param kind - `sgd` or `adam`
 * @param lr - learning rate η > 0
 * @param from - a state saved with `state()`, to resume from (copied); absent: a fresh optimiser
 * @returns the optimiser
 * @throws RangeError when `kind` is not `sgd` or `adam`, `lr` not a finite number > 0, or `from` is not a
 *   valid state of that kind (the message names the field)
 * @example
 * ```ts
 * const opt = createOptimizer('sgd', 0.08);
 * const theta = new Float64Array([0, 0]);
 * opt.step(theta, new Float64Array([-0.5, 0.5])); // theta = [0.04, -0.04]
 * const again = createOptimizer('sgd', 0.08, opt.state!()); // goes on where opt stands
 * ```
 */
export function createOptimizer(kind: 'sgd' | 'adam', lr: number, from?: OptimizerState): Optimizer {
  checkChoice('optimizer', kind, ['sgd', 'adam'] as const);
  checkNumber('lr', lr, 0, true);
  if (from !== undefined) checkState(from, kind);
  if (kind === 'sgd') {
    let steps = from?.steps ?? 0;
    const empty = new Float64Array(0);
    return {
      state: () => ({ kind, steps, m: empty, v: empty, born: empty }),
      step(params, grad) {
        steps++;
        for (let i = 0; i < params.length; i++) params[i] = params[i]! - lr * grad[i]!;
      },
      // θ − η · 0 is θ, so the parameters outside the blocks would not move.
      stepBlocks(params, grad, blocks, count, width) {
        steps++;
        for (let b = 0; b < count; b++) {
          const from = blocks[b]! * width;
          for (let i = from; i < from + width; i++) params[i] = params[i]! - lr * grad[i]!;
        }
      },
    };
  }
  let m: Float64Array = new Float64Array(0);
  let v: Float64Array = new Float64Array(0);
  /** Steps taken before each parameter joined. */
  let born: Float64Array = new Float64Array(0);
  // 1 − β^k for each age k (steps since a parameter joined) reached so far, each computed once: a policy
  // that grows (a tabular one meeting new positions) has parameters of many ages, and two powers per
  // parameter per step cost more than the rest of the step.
  let corrections1: Float64Array = new Float64Array(64);
  let corrections2: Float64Array = new Float64Array(64);
  let size = 0;
  let t = 0;
  if (from !== undefined) {
    m = Float64Array.from(from.m);
    v = Float64Array.from(from.v);
    born = Float64Array.from(from.born);
    size = m.length;
    t = from.steps;
    corrections1 = new Float64Array(Math.max(64, 2 * t + 2));
    corrections2 = new Float64Array(corrections1.length);
    // Every age a parameter can have reached: 1 … t (the same values the saved optimiser computed).
    for (let k = 1; k <= t; k++) {
      corrections1[k] = 1 - BETA1 ** k;
      corrections2[k] = 1 - BETA2 ** k;
    }
  }
  return {
    state: () => ({
      kind,
      steps: t,
      m: m.slice(0, size),
      v: v.slice(0, size),
      born: born.slice(0, size),
    }),
    step(params, grad) {
      t += 1;
      if (params.length > size) {
        if (params.length > m.length) {
          const capacity = Math.max(params.length, 2 * m.length);
          const grow = (old: Float64Array): Float64Array => {
            const next = new Float64Array(capacity);
            next.set(old.subarray(0, size));
            return next;
          };
          m = grow(m);
          v = grow(v);
          born = grow(born);
        }
        born.fill(t - 1, size, params.length);
        size = params.length;
      }
      if (t >= corrections1.length) {
        const grow = (old: Float64Array): Float64Array => {
          const next = new Float64Array(2 * old.length);
          next.set(old);
          return next;
        };
        corrections1 = grow(corrections1);
        corrections2 = grow(corrections2);
      }
      // The new age, t (a parameter present from the start); every smaller one is there already.
      corrections1[t] = 1 - BETA1 ** t;
      corrections2[t] = 1 - BETA2 ** t;
      for (let i = 0; i < size; i++) {
        const g = grad[i]!;
        m[i] = BETA1 * m[i]! + (1 - BETA1) * g;
        v[i] = BETA2 * v[i]! + (1 - BETA2) * g * g;
        const age = t - born[i]!;
        params[i] =
          params[i]! -
          (lr * (m[i]! / corrections1[age]!)) / (Math.sqrt(v[i]! / corrections2[age]!) + EPSILON);
      }
    },
  };
}

/** @throws RangeError unless `state` is a valid {@link OptimizerState} of `kind`, naming the field. */
function checkState(state: OptimizerState, kind: 'sgd' | 'adam'): void {
  if (typeof state !== 'object' || state === null) {
    throw new RangeError(`state must be an optimiser state from state(), got ${String(state)}`);
  }
  if (state.kind !== kind) {
    throw new RangeError(`state.kind must be ${kind} (the optimiser created), got ${String(state.kind)}`);
  }
  const steps = checkInteger('state.steps', state.steps, 0);
  const n = kind === 'sgd' ? 0 : state.m?.length;
  for (const field of ['m', 'v', 'born'] as const) {
    const values = state[field];
    if (!(values instanceof Float64Array) || values.length !== n) {
      throw new RangeError(
        `state.${field} must be a Float64Array of length ${String(n)} (as state.m), got ${
          values instanceof Float64Array ? `length ${values.length}` : String(values)
        }`,
      );
    }
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!;
      const bad =
        !Number.isFinite(x) ||
        (field === 'v' && x < 0) ||
        (field === 'born' && (!Number.isInteger(x) || x < 0 || x >= steps));
      if (bad) {
        const want =
          field === 'm' ? 'finite' : field === 'v' ? 'finite and >= 0' : `an integer in [0, ${steps})`;
        throw new RangeError(`state.${field}[${i}] must be ${want}, got ${x}`);
      }
    }
  }
}
