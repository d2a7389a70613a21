import { checkChoice, checkNumber } from './validate.js';

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
 * @returns the optimiser
 * @throws RangeError when `kind` is not `sgd` or `adam`, or `lr` not a finite number > 0
 * @example
 * ```ts
 * const opt = createOptimizer('sgd', 0.08);
 * const theta = new Float64Array([0, 0]);
 * opt.step(theta, new Float64Array([-0.5, 0.5])); // theta = [0.04, -0.04]
 * ```
 */
export function createOptimizer(kind: 'sgd' | 'adam', lr: number): Optimizer {
  checkChoice('optimizer', kind, ['sgd', 'adam'] as const);
  checkNumber('lr', lr, 0, true);
  if (kind === 'sgd') {
    return {
      step(params, grad) {
        for (let i = 0; i < params.length; i++) params[i] = params[i]! - lr * grad[i]!;
      },
      // θ − η · 0 is θ, so the parameters outside the blocks would not move.
      stepBlocks(params, grad, blocks, count, width) {
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
  return {
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
