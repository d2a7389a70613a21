/** Updates parameters in place from their gradient. */
export interface Optimizer {
  /**
   * One descent step: θ ← θ − update(g).
   * @param params - parameters, changed in place
   * @param grad - gradient of the loss with respect to `params` (same length)
   */
  step(params: Float64Array, grad: Float64Array): void;
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
 * comparison of methods uses it.
 *
 * @param kind - `sgd` or `adam`
 * @param lr - learning rate η > 0
 * @param size - number of parameters (Adam keeps two moments per parameter)
 * @returns the optimiser
 * @example
 * ```ts
 * const opt = createOptimizer('sgd', 0.08, 2);
 * const theta = new Float64Array([0, 0]);
 * opt.step(theta, new Float64Array([-0.5, 0.5])); // theta = [0.04, -0.04]
 * ```
 */
export function createOptimizer(kind: 'sgd' | 'adam', lr: number, size: number): Optimizer {
  if (kind === 'sgd') {
    return {
      step(params, grad) {
        for (let i = 0; i < size; i++) params[i] = params[i]! - lr * grad[i]!;
      },
    };
  }
  const m = new Float64Array(size);
  const v = new Float64Array(size);
  let t = 0;
  return {
    step(params, grad) {
      t += 1;
      const c1 = 1 - BETA1 ** t;
      const c2 = 1 - BETA2 ** t;
      for (let i = 0; i < size; i++) {
        const g = grad[i]!;
        m[i] = BETA1 * m[i]! + (1 - BETA1) * g;
        v[i] = BETA2 * v[i]! + (1 - BETA2) * g * g;
        params[i] = params[i]! - (lr * (m[i]! / c1)) / (Math.sqrt(v[i]! / c2) + EPSILON);
      }
    },
  };
}
