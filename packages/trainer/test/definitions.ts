/**
 * Losses of the training methods written from their definitions, for the updaters' tests: plain loops,
 * log-softmax by hand, no code shared with `@ftw/objective` or the updaters. Each takes the parameters
 * of a tabular policy (row o = logits of observation o) and returns the loss value; the tests take
 * finite differences of them.
 */

/** One step of an episode as the definitions read it. */
export interface StepData {
  readonly observation: number;
  readonly action: number;
}

/** log softmax(θ_o)_a, computed as z_a − m − log Σ exp(z − m) with m the row's maximum. */
export function logSoftmaxAt(
  theta: ArrayLike<number>,
  actions: number,
  observation: number,
  action: number,
): number {
  let m = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < actions; a++) m = Math.max(m, theta[observation * actions + a]!);
  let s = 0;
  for (let a = 0; a < actions; a++) s += Math.exp(theta[observation * actions + a]! - m);
  return theta[observation * actions + action]! - m - Math.log(s);
}

/** The row of log-probabilities of an observation. */
export function logPolicy(theta: ArrayLike<number>, actions: number, observation: number): number[] {
  return Array.from({ length: actions }, (_, a) => logSoftmaxAt(theta, actions, observation, a));
}

/**
 * KL divergence between the policy θ and a reference at one observation: reverse Σ_a π(log π − log ρ),
 * forward Σ_a ρ(log ρ − log π). `reference` is null for the uniform policy.
 */
export function klAt(
  theta: ArrayLike<number>,
  reference: ArrayLike<number> | null,
  actions: number,
  observation: number,
  direction: 'reverse' | 'forward',
): number {
  const logPi = logPolicy(theta, actions, observation);
  const logRho =
    reference === null
      ? new Array<number>(actions).fill(-Math.log(actions))
      : logPolicy(reference, actions, observation);
  let d = 0;
  for (let a = 0; a < actions; a++) {
    d +=
      direction === 'reverse'
        ? Math.exp(logPi[a]!) * (logPi[a]! - logRho[a]!)
        : Math.exp(logRho[a]!) * (logRho[a]! - logPi[a]!);
  }
  return d;
}

/** A selected trajectory of FTW with its selection count. */
export interface SelectedTrajectory {
  readonly steps: readonly StepData[];
  readonly count: number;
}

/**
 * FTW's loss: L(θ) = −Σ_i (m_i / (L_i M)) Σ_t log π_θ(a_it | o_it) + β · (1/R) Σ_rows D(π_θ, ρ), with
 * M = Σ m_i and the KL averaged over `klRows` (the steps of the selected trajectories, each trajectory
 * once; or, when nothing is selected, the steps of the iteration's episodes).
 */
export function ftwLossDefinition(
  theta: ArrayLike<number>,
  actions: number,
  selected: readonly SelectedTrajectory[],
  klRows: readonly number[],
  beta: number,
  reference: ArrayLike<number> | null,
  direction: 'reverse' | 'forward',
): number {
  let M = 0;
  for (const s of selected) M += s.count;
  let loss = 0;
  for (const s of selected) {
    for (const step of s.steps) {
      loss -= (s.count / (s.steps.length * M)) * logSoftmaxAt(theta, actions, step.observation, step.action);
    }
  }
  let kl = 0;
  for (const o of klRows) kl += klAt(theta, reference, actions, o, direction);
  return loss + (beta * kl) / klRows.length;
}

/**
 * Central finite-difference gradient of f at θ, step h: (f(θ + h e_k) − f(θ − h e_k)) / 2h. Its error is
 * O(h² f''') from truncation plus O(ε |f| / h) from rounding; h = 1e-5 keeps both near 1e-10 for the
 * smooth losses here.
 */
export function finiteDifference(
  f: (theta: Float64Array) => number,
  theta: ArrayLike<number>,
  h = 1e-5,
): Float64Array {
  const x = Float64Array.from(theta);
  const grad = new Float64Array(x.length);
  for (let k = 0; k < x.length; k++) {
    const keep = x[k]!;
    x[k] = keep + h;
    const up = f(x);
    x[k] = keep - h;
    const down = f(x);
    x[k] = keep;
    grad[k] = (up - down) / (2 * h);
  }
  return grad;
}

/** PPO's clipped term for one step: min(ρA, clip(ρ, 1 − ε, 1 + ε) A). */
export function clippedTerm(ratio: number, advantage: number, clip: number): number {
  return Math.min(ratio * advantage, Math.min(Math.max(ratio, 1 - clip), 1 + clip) * advantage);
}
