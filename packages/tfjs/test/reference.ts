// Float64 reference networks for the tests: the same layouts of θ as MlpPolicy and ConvPolicy (see
// mlpShapes, convShapes), computed with plain loops in double precision.
import type { ConvArchitecture, MlpArchitecture } from '../src/architecture.js';

function act(v: number, activation: 'relu' | 'tanh'): number {
  return activation === 'relu' ? Math.max(0, v) : Math.tanh(v);
}

/** Dense layers from `h` (rows × sizes[0]) reading θ from `at`; returns the logits and the next offset. */
function dense(
  h: Float64Array,
  rows: number,
  sizes: readonly number[],
  theta: Float64Array,
  at: number,
  activation: 'relu' | 'tanh',
): Float64Array {
  let x = h;
  let offset = at;
  for (let l = 0; l + 1 < sizes.length; l++) {
    const fin = sizes[l]!;
    const fout = sizes[l + 1]!;
    const w = offset;
    const b = offset + fin * fout;
    offset = b + fout;
    const y = new Float64Array(rows * fout);
    for (let r = 0; r < rows; r++) {
      for (let o = 0; o < fout; o++) {
        let s = theta[b + o]!;
        for (let i = 0; i < fin; i++) s += x[r * fin + i]! * theta[w + i * fout + o]!;
        y[r * fout + o] = l + 2 < sizes.length ? act(s, activation) : s;
      }
    }
    x = y;
  }
  return x;
}

/** z = MLP(x) in float64. */
export function mlpReference(
  a: MlpArchitecture,
  theta: Float64Array,
  x: Float64Array,
  rows: number,
): Float64Array {
  return dense(x, rows, [a.inputSize, ...a.hiddenSizes, a.numActions], theta, 0, a.activation);
}

/** z = ConvNet(x) in float64: 'same' convolutions (zero padding), flatten in (y, x, filter) order, dense. */
export function convReference(
  a: ConvArchitecture,
  theta: Float64Array,
  x: Float64Array,
  rows: number,
): Float64Array {
  const { height: H, width: W, kernelSize: k } = a;
  const half = (k - 1) / 2;
  let planes = a.channels;
  // NHWC activations, from the channel-major input rows.
  let h = new Float64Array(rows * H * W * planes);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < planes; c++)
      for (let y = 0; y < H; y++)
        for (let xx = 0; xx < W; xx++)
          h[((r * H + y) * W + xx) * planes + c] = x[r * planes * H * W + c * H * W + y * W + xx]!;
  let at = 0;
  for (const out of a.filters) {
    const kernel = at;
    const bias = at + k * k * planes * out;
    at = bias + out;
    const next = new Float64Array(rows * H * W * out);
    for (let r = 0; r < rows; r++)
      for (let y = 0; y < H; y++)
        for (let xx = 0; xx < W; xx++)
          for (let o = 0; o < out; o++) {
            let s = theta[bias + o]!;
            for (let dy = 0; dy < k; dy++)
              for (let dx = 0; dx < k; dx++) {
                const yy = y + dy - half;
                const xs = xx + dx - half;
                if (yy < 0 || yy >= H || xs < 0 || xs >= W) continue;
                for (let c = 0; c < planes; c++)
                  s +=
                    h[((r * H + yy) * W + xs) * planes + c]! *
                    theta[kernel + ((dy * k + dx) * planes + c) * out + o]!;
              }
            next[((r * H + y) * W + xx) * out + o] = act(s, a.activation);
          }
    h = next;
    planes = out;
  }
  return dense(h, rows, [H * W * planes, ...a.hiddenSizes, a.numActions], theta, at, a.activation);
}
