// Naive reference definitions and a finite-difference checker, shared by the tests. They follow the
// textbook formulas literally (exp, divide, log) and are only valid for moderate logits.

/** softmax by the definition exp(z_j) / Σ_k exp(z_k), without max-subtraction. */
export function naiveSoftmax(z: ArrayLike<number>, from: number, count: number): number[] {
  const e: number[] = [];
  let s = 0;
  for (let j = 0; j < count; j++) {
    const v = Math.exp(z[from + j]!);
    e.push(v);
    s += v;
  }
  return e.map((v) => v / s);
}

/** Reference row `i` as probabilities (uniform when `ref` is undefined), normalising logits naively. */
export function naiveReference(ref: ArrayLike<number> | undefined, i: number, actions: number): number[] {
  if (ref === undefined) return new Array<number>(actions).fill(1 / actions);
  const from = ref.length === actions ? 0 : i * actions;
  return naiveSoftmax(ref, from, actions);
}

/** FTW's loss by its definition: weighted mean cross-entropy plus β times the mean KL. */
export function naiveFtwLoss(p: {
  logits: ArrayLike<number>;
  rows: number;
  actions: number;
  selected: ArrayLike<number>;
  weights?: ArrayLike<number>;
  beta: number;
  kl: 'reverse' | 'forward';
  ref?: ArrayLike<number>;
  normalize?: 'mean' | 'sum';
}): { loss: number; crossEntropy: number; klMean: number; klMax: number; entropy: number } {
  let ce = 0;
  let wsum = 0;
  let klSum = 0;
  let klMax = Number.NEGATIVE_INFINITY;
  let ent = 0;
  for (let i = 0; i < p.rows; i++) {
    const pi = naiveSoftmax(p.logits, i * p.actions, p.actions);
    const rho = naiveReference(p.ref, i, p.actions);
    const w = p.weights === undefined ? 1 : p.weights[i]!;
    ce += w * -Math.log(pi[p.selected[i]!]!);
    wsum += w;
    let kl = 0;
    let h = 0;
    for (let j = 0; j < p.actions; j++) {
      const a = pi[j]!;
      const b = rho[j]!;
      kl += p.kl === 'reverse' ? a * Math.log(a / b) : b * Math.log(b / a);
      h -= a * Math.log(a);
    }
    klSum += kl;
    klMax = Math.max(klMax, kl);
    ent += h;
  }
  const crossEntropy = p.normalize === 'sum' ? ce : ce / wsum;
  const klMean = klSum / p.rows;
  return { loss: crossEntropy + p.beta * klMean, crossEntropy, klMean, klMax, entropy: ent / p.rows };
}

/**
 * Central finite differences of `f` at `z`: entry k is (f(z + h e_k) − f(z − h e_k)) / (z_k⁺ − z_k⁻),
 * dividing by the step actually represented in floating point.
 */
export function centralDifferences(f: (z: Float64Array) => number, z: Float64Array, h: number): Float64Array {
  const g = new Float64Array(z.length);
  const x = Float64Array.from(z);
  for (let k = 0; k < z.length; k++) {
    const v = z[k]!;
    x[k] = v + h;
    const up = x[k]!;
    const fUp = f(x);
    x[k] = v - h;
    const down = x[k]!;
    const fDown = f(x);
    x[k] = v;
    g[k] = (fUp - fDown) / (up - down);
  }
  return g;
}

/**
 * Largest violation of `|g_k − d_k| <= 1e-6 · max(‖g‖∞, ‖d‖∞) + noise`, where `noise` is the rounding
 * floor of a central difference with step h: a loss evaluated with absolute error `δ` gives a
 * difference quotient off by up to `δ/h`, and `δ <= 2^-52 · 64 · scale` for a loss built from terms of
 * magnitude up to `scale` (a few dozen roundings per term). Returns 0 when the gradients agree.
 */
export function gradientMismatch(g: Float64Array, d: Float64Array, scale: number, h: number): number {
  let norm = 0;
  for (let k = 0; k < g.length; k++) norm = Math.max(norm, Math.abs(g[k]!), Math.abs(d[k]!));
  const tolerance = 1e-6 * norm + (2 ** -52 * 64 * scale) / h;
  let worst = 0;
  for (let k = 0; k < g.length; k++) {
    const excess = Math.abs(g[k]! - d[k]!) - tolerance;
    if (!(excess <= 0)) worst = Math.max(worst, Number.isNaN(excess) ? Number.POSITIVE_INFINITY : excess);
  }
  return worst;
}
