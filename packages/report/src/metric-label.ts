/** How a per-iteration metric is titled and scaled in the view. */
export interface MetricLabel {
  /** Chart title. */
  readonly title: string;
  /** Y axis title. */
  readonly axis: string;
  /** A probability or a rate: the y axis spans [0, 1]. */
  readonly unitInterval: boolean;
}

/** Known metrics in the order the view draws them; unknown ones follow alphabetically. */
const KNOWN: readonly (readonly [string, MetricLabel])[] = [
  [
    'optimalProbability',
    { title: 'Probability of the optimal action', axis: 'P(optimal action)', unitInterval: true },
  ],
  ['successRate', { title: 'Success rate', axis: 'share of episodes solved', unitInterval: true }],
  [
    'evaluation.heldOutSuccess',
    { title: 'Success rate on held-out levels', axis: 'share of held-out levels solved', unitInterval: true },
  ],
  ['reward', { title: 'Mean return of the rollouts', axis: 'mean return', unitInterval: false }],
  ['regret', { title: 'Cumulative expected regret', axis: 'Σ E[μ* − μ_a]', unitInterval: false }],
  ['episodeLength', { title: 'Episode length', axis: 'steps per episode', unitInterval: false }],
  ['eliteMean', { title: 'Mean return of the selected elites', axis: 'elite return', unitInterval: false }],
  [
    'eliteSpread',
    { title: 'Spread of the elites’ returns', axis: 'sd of elite returns', unitInterval: false },
  ],
  ['selected', { title: 'Selections per update', axis: 'Σ selection counts', unitInterval: false }],
  [
    'klMean',
    {
      title: 'KL between successive policies (mean over states)',
      axis: 'KL(π_old ‖ π_new)',
      unitInterval: false,
    },
  ],
  [
    'klMax',
    {
      title: 'KL between successive policies (max over states)',
      axis: 'max KL(π_old ‖ π_new)',
      unitInterval: false,
    },
  ],
  [
    'tvMean',
    { title: 'Total-variation shift (mean over states)', axis: 'TV(π_old, π_new)', unitInterval: false },
  ],
  [
    'tvMax',
    {
      title: 'Total-variation shift (max over states, TRPO’s α)',
      axis: 'max TV(π_old, π_new)',
      unitInterval: false,
    },
  ],
  ['version', { title: 'Policy version of the learner', axis: 'version', unitInterval: false }],
  [
    'versionSpread',
    {
      title: 'Policy versions spanned inside an episode',
      axis: 'max v − min v per episode',
      unitInterval: false,
    },
  ],
  [
    'multiVersionShare',
    { title: 'Episodes that span several policy versions', axis: 'share of episodes', unitInterval: true },
  ],
  [
    'logWeightMean',
    { title: 'Log importance weight of the elites (mean)', axis: 'mean log w(τ)', unitInterval: false },
  ],
  [
    'logWeightMin',
    { title: 'Log importance weight of the elites (min)', axis: 'min log w(τ)', unitInterval: false },
  ],
  [
    'logWeightMax',
    { title: 'Log importance weight of the elites (max)', axis: 'max log w(τ)', unitInterval: false },
  ],
  [
    'essShare',
    { title: 'Effective sample size of the selection', axis: 'ESS / selection count', unitInterval: true },
  ],
  [
    'poolStaleness',
    { title: 'Staleness of the pool', axis: 'mean age of the pool (policy versions)', unitInterval: false },
  ],
  [
    'selectionStaleness',
    {
      title: 'Staleness of the selected trajectories',
      axis: 'mean age of the selection (policy versions)',
      unitInterval: false,
    },
  ],
];
const KNOWN_MAP = new Map(KNOWN);
const ORDER = new Map(KNOWN.map(([key], i) => [key, i]));

/** `poolStaleness` → `pool staleness`; `evaluation.heldOut` → `evaluation: held out`. */
function words(key: string): string {
  return key
    .replace(/\./g, ': ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

/**
 * The title and axis of a metric of `metrics.ndjson`: a written label for the metrics the runner is known
 * to record, and the key split into words for any other (metrics are discovered, not listed).
 *
 * @param key - the field name in `metrics.ndjson`
 * @returns title, axis title and whether the values are probabilities
 * @example
 * ```ts
 * metricLabel('optimalProbability').axis; // 'P(optimal action)'
 * metricLabel('isWeightEss').title; // 'Is weight ess'
 * ```
 */
export function metricLabel(key: string): MetricLabel {
  const known = KNOWN_MAP.get(key);
  if (known !== undefined) return known;
  const text = words(key);
  const unitInterval = /(probability|rate|share|fraction)$/i.test(key);
  return { title: text.charAt(0).toUpperCase() + text.slice(1), axis: text, unitInterval };
}

/**
 * Orders metric keys: known metrics first in a fixed order (probabilities, returns, regret, elites, policy
 * shift, staleness), then the others alphabetically.
 *
 * @param keys - metric keys
 * @returns a new sorted array
 * @example
 * ```ts
 * sortMetrics(['zeta', 'regret', 'optimalProbability']); // ['optimalProbability', 'regret', 'zeta']
 * ```
 */
export function sortMetrics(keys: Iterable<string>): string[] {
  return [...keys].sort((a, b) => {
    const ia = ORDER.get(a) ?? Number.POSITIVE_INFINITY;
    const ib = ORDER.get(b) ?? Number.POSITIVE_INFINITY;
    return ia !== ib ? ia - ib : a < b ? -1 : a > b ? 1 : 0;
  });
}
