import type { ParameterShape } from './network-policy.js';

/**
 * Scale of the output layer's initial weights: logits start within about ±0.01 of each other, so the
 * initial policy is close to uniform (the usual choice for policy heads, as in PPO implementations).
 */
const OUTPUT_SCALE = 0.01;

/**
 * θ at the start: each weight matrix or kernel drawn from Glorot's uniform U(−l, l),
 * l = √(6 / (fan_in + fan_out)) (Glorot and Bengio, 2010), the output layer's scaled by 0.01; biases 0.
 * Shapes named `bias…` are biases; the last weight shape is the output layer.
 *
 * @param shapes - the weight tensors; a kernel's shape is `[kh, kw, in, out]`, a matrix's `[in, out]`
 * @param random - uniform on [0, 1)
 * @returns θ
 */
export function initialWeights(shapes: readonly ParameterShape[], random: () => number): Float64Array {
  const total = shapes.reduce((n, { shape }) => n + shape.reduce((a, b) => a * b, 1), 0);
  const theta = new Float64Array(total);
  const lastWeight = shapes.findLastIndex(({ name }) => !name.startsWith('bias'));
  let at = 0;
  shapes.forEach(({ name, shape }, k) => {
    const n = shape.reduce((a, b) => a * b, 1);
    if (!name.startsWith('bias')) {
      const receptive = shape.slice(0, -2).reduce((a, b) => a * b, 1);
      const fanIn = receptive * shape.at(-2)!;
      const fanOut = receptive * shape.at(-1)!;
      const limit = Math.sqrt(6 / (fanIn + fanOut)) * (k === lastWeight ? OUTPUT_SCALE : 1);
      for (let i = 0; i < n; i++) theta[at + i] = (2 * random() - 1) * limit;
    }
    at += n;
  });
  return theta;
}
