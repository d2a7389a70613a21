import { UsageError } from '../cli/usage-error.js';
import type { OptionSpec, RawOption } from './option-spec.js';
import {
  readChoice,
  readInteger,
  readNumber,
  readNumberList,
  readNumberTable,
  readOptionalNumber,
  readSeeds,
} from './read-value.js';
import type { SokobanEnvironmentConfig } from './sokoban-environment-config.js';

/**
 * How FTW orders trajectories whose returns are equal: `random` (uniformly, the paper's rule), `newest` or
 * `oldest` first, or the `shortest` or `longest` episode first, equal lengths then at random. With binary
 * returns that tie massively (Sokoban), `shortest` ranks the quicker of two successes first: exactly the
 * order (return, then length), where a per-step cost on the reward only approximates it.
 */
export const TIE_RULES = ['random', 'newest', 'oldest', 'shortest', 'longest'] as const;

/** One of {@link TIE_RULES}. */
export type TieRule = (typeof TIE_RULES)[number];

/** Training methods: FTW and the baselines it is compared with. */
export const METHODS = ['ftw', 'reinforce', 'grpo', 'ppo'] as const;
/** A training method. */
export type Method = (typeof METHODS)[number];

/** Environment kinds (see `@ftw/bandit`). */
export const ENVIRONMENTS = ['gaussian', 'bernoulli', 'contextual', 'tie-heavy', 'sokoban'] as const;

/** The environment of a run, fully resolved. */
export type EnvironmentConfig =
  | { readonly kind: 'gaussian'; readonly means: readonly number[]; readonly sds: readonly number[] }
  | { readonly kind: 'bernoulli'; readonly probs: readonly number[] }
  | { readonly kind: 'contextual'; readonly taskMeans: readonly (readonly number[])[]; readonly sd: number }
  | { readonly kind: 'tie-heavy'; readonly arms: number; readonly maxProbability: number }
  | SokobanEnvironmentConfig;

/** Policy kinds of `--policy`. */
export const POLICY_KINDS = ['tabular', 'linear', 'mlp', 'cnn'] as const;
/** One of {@link POLICY_KINDS}. */
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** The shape of an mlp/cnn policy and how many environment instances feed it at once. */
export interface NetworkConfig {
  /** Widths of the dense hidden layers. */
  readonly hidden: readonly number[];
  /** cnn: filters of each 3 × 3 convolution. */
  readonly filters: readonly number[];
  /** Environment instances stepped in lockstep: one batched forward pass per step for all of them. */
  readonly envs: number;
}

/** A fully resolved training configuration: what `config.json` records and what a run executes. */
export interface TrainConfig {
  /** `ftw`, or a baseline: `reinforce` (with a baseline), `grpo` (group-normalised), `ppo` (clipped). */
  readonly method: Method;
  /** The bandit. */
  readonly environment: EnvironmentConfig;
  /** Pool capacity N (FIFO). */
  readonly capacity: number;
  /** Minibatch size C. */
  readonly batchSize: number;
  /** Elites kept per minibatch K. */
  readonly keep: number;
  /** Minibatches per update J. */
  readonly batches: number;
  /** Weight β of the KL term. */
  readonly beta: number;
  /** KL direction: `reverse` = KL(π‖π_ref), `forward` = KL(π_ref‖π). */
  readonly kl: 'reverse' | 'forward';
  /**
   * Reference policy of the KL term: `uniform`; `initial`, the policy before any update; `previous`, the
   * policy before the previous update (a trust region on successive policies).
   */
  readonly reference: 'uniform' | 'initial' | 'previous';
  /** Optimiser on the tabular logits. */
  readonly optimizer: 'sgd' | 'adam';
  /** Learning rate. */
  readonly lr: number;
  /** Training iterations (each collects `rollouts` trajectories, then updates). */
  readonly iterations: number;
  /** Trajectories collected per iteration. */
  readonly rollouts: number;
  /** FTW updates start once the pool holds this many trajectories. */
  readonly warmup: number;
  /** FTW selection: `sampled` minibatches, or the exact `expected` counts (zero-variance limit). */
  readonly selection: 'sampled' | 'expected';
  /**
   * Order among tied returns: `random` (the paper's); prefer the `newest` or `oldest` trajectory; or the
   * `shortest` or `longest` episode, equal lengths then at random.
   */
  readonly tieRule: TieRule;
  /** Elites must have a return strictly above this; null for none. */
  readonly threshold: number | null;
  /** Returns ≤ this count as failures in metrics.ndjson's `failureShare`; absent, it is not recorded. */
  readonly failureReturn?: number;
  /** Trajectories more than this many policy versions old are not selected; null for no bound. */
  readonly maxVersionLag: number | null;
  /** Gradient steps per update on the same data. */
  readonly epochs: number;
  /** PPO's clipping range ε. */
  readonly clip: number;
  /** Rate of the running-mean reward baseline of REINFORCE and PPO. */
  readonly baselineRate: number;
  /** One independent run per seed. */
  readonly seeds: readonly number[];
  /**
   * The policy: `tabular` (a row per observation; the default), `linear` (Sokoban's features), or a
   * network on `@ftw/tfjs`: `mlp` (Sokoban's features) or `cnn` (the Sokoban grid as channels).
   */
  readonly policy?: PolicyKind;
  /** mlp/cnn: the network and the environment instances stepped in lockstep (see {@link NetworkConfig}). */
  readonly network?: NetworkConfig;
  /**
   * Stop once this many environment steps have been taken (checked after each iteration), so methods
   * whose episodes differ in length get the same sampling budget; omitted, `iterations` alone decides.
   */
  readonly maxSamples?: number;
  /** Evaluate after iteration 1, every n-th and the last only (`train`'s `evaluateEvery`); omitted: every one. */
  readonly evalEvery?: number;
}

const spec = (
  key: string,
  flag: string,
  placeholder: string,
  defaultValue: string,
  description: string,
): OptionSpec => ({ key, flag, placeholder, defaultValue, description });

/**
 * The options of `ftw train` (and the keys of its JSON config file). The defaults are the small
 * reproduction's setting, so `ftw train` with no flags runs what `ftw reproduce` runs.
 */
export const TRAIN_OPTIONS: readonly OptionSpec[] = [
  spec('method', '--method', 'name', 'ftw', `training method: ${METHODS.join(', ')}`),
  spec('env', '--env', 'kind', 'gaussian', `environment: ${ENVIRONMENTS.join(', ')}`),
  spec('means', '--means', 'list', '1,0.3', 'gaussian: arm means, comma-separated'),
  spec('sd', '--sd', 'list', '0.2', 'gaussian/contextual: reward standard deviation (one, or one per arm)'),
  spec('probs', '--probs', 'list', '0.7,0.4', 'bernoulli: arm success probabilities in [0, 1]'),
  spec(
    'taskMeans',
    '--task-means',
    'lists',
    '1,0.3;0.3,1',
    'contextual: arm means per task, tasks split by ;',
  ),
  spec('arms', '--arms', 'count', '10', 'tie-heavy: number of Bernoulli arms (>= 2)'),
  spec('maxProbability', '--max-probability', 'p', '0.2', 'tie-heavy: success probability of the best arm'),
  spec('size', '--size', 'cells', '6', 'sokoban: interior width and height of each level (walls added)'),
  spec('boxes', '--boxes', 'count', '1', 'sokoban: boxes per level'),
  spec('levels', '--levels', 'count', '10', 'sokoban: training levels, a fixed set drawn from --level-seed'),
  spec('heldOut', '--held-out', 'count', '10', 'sokoban: held-out evaluation levels, never trained on'),
  spec('levelSeed', '--level-seed', 'seed', '0', 'sokoban: seed of the level set'),
  spec(
    'levelSet',
    '--level-set',
    'kind',
    'stream',
    'sokoban: stream (training, then held-out levels of one stream) or split (distinct levels, held-out ones never trained on)',
  ),
  spec(
    'levelCache',
    '--level-cache',
    'dir',
    'none',
    'sokoban: directory caching the levels of a split level set, or none',
  ),
  spec(
    'probe',
    '--probe',
    'n',
    'none',
    'sokoban: before each iteration play each candidate level n times, train on those solved 0 < s < n times (probe steps count in --max-samples), or none',
  ),
  spec(
    'probeLevels',
    '--probe-levels',
    'count',
    'auto',
    'sokoban: levels probed per iteration (auto: --rollouts)',
  ),
  spec('maxMoves', '--max-moves', 'moves', '8', "sokoban: most moves of a level's optimal solution"),
  spec('maxSteps', '--max-steps', 'steps', '30', 'sokoban: steps after which an episode is truncated'),
  spec('reward', '--reward', 'kind', 'binary', 'sokoban: binary (1 when solved) or shaped (gym-sokoban)'),
  spec(
    'lengthTiebreak',
    '--length-tiebreak',
    'c',
    '0',
    'sokoban: subtracted from the reward every step, so equal returns rank shorter first (e.g. 1e-6)',
  ),
  spec(
    'policy',
    '--policy',
    'kind',
    'tabular',
    'policy: tabular; or on sokoban linear (features), mlp (features) or cnn (grid channels), the last two networks on @ftw/tfjs (use --optimizer adam --lr 0.001)',
  ),
  spec('hidden', '--hidden', 'list', '64', 'mlp/cnn: widths of the dense hidden layers'),
  spec('filters', '--filters', 'list', '16,16', 'cnn: filters of each 3x3 convolution'),
  spec(
    'envs',
    '--envs',
    'count',
    '8',
    'mlp/cnn: environment instances stepped in lockstep (batched forward)',
  ),
  spec('maxSamples', '--max-samples', 'steps', 'none', 'stop after this many environment steps, or none'),
  spec(
    'evalEvery',
    '--eval-every',
    'n',
    '1',
    'evaluate after iteration 1, every n-th and the last; the others carry the last score (evaluatedAt)',
  ),
  spec('capacity', '--capacity', 'N', '128', 'FTW pool capacity N (FIFO)'),
  spec('batchSize', '--batch-size', 'C', '5', 'FTW minibatch size C, 1 <= C <= N'),
  spec('keep', '--keep', 'K', '1', 'FTW elites kept per minibatch K, 1 <= K <= C'),
  spec('batches', '--batches', 'J', '4', 'FTW minibatches per update J >= 1'),
  spec('beta', '--beta', 'β', '0.05', 'KL weight β >= 0'),
  spec('kl', '--kl', 'direction', 'reverse', 'KL direction: reverse (π‖ref) or forward (ref‖π)'),
  spec(
    'reference',
    '--reference',
    'policy',
    'uniform',
    'KL reference: uniform, initial or previous (the policy before the previous update)',
  ),
  spec('optimizer', '--optimizer', 'name', 'sgd', 'optimiser on the logits: sgd or adam'),
  spec('lr', '--lr', 'rate', '0.08', 'learning rate > 0'),
  spec('iterations', '--iterations', 'count', '240', 'training iterations >= 1'),
  spec('rollouts', '--rollouts', 'count', '1', 'trajectories collected per iteration >= 1'),
  spec(
    'warmup',
    '--warmup',
    'count',
    'auto',
    'FTW updates start once the pool holds this many, C..N (auto: C)',
  ),
  spec('selection', '--selection', 'mode', 'sampled', 'FTW selection: sampled or expected (exact counts)'),
  spec(
    'tieRule',
    '--tie-rule',
    'rule',
    'random',
    'order among tied returns: random, newest, oldest, shortest or longest (episode)',
  ),
  spec('threshold', '--threshold', 'value', 'none', 'FTW elites must have a return above this, or none'),
  spec('failureReturn', '--failure-return', 'value', 'none', 'record the share of elites returning <= this'),
  spec(
    'maxVersionLag',
    '--max-version-lag',
    'versions',
    'none',
    'skip trajectories older than this, or none',
  ),
  spec('epochs', '--epochs', 'count', 'auto', 'gradient steps per update (auto: 4 for ppo, else 1)'),
  spec('clip', '--clip', 'ε', '0.2', 'ppo: clipping range ε > 0'),
  spec(
    'baselineRate',
    '--baseline-rate',
    'rate',
    '0.1',
    'reinforce/ppo: running-mean baseline rate in (0, 1]',
  ),
  spec('seeds', '--seeds', 'list', '0,1,2', 'seeds, e.g. 0,1,2 or 0..9'),
];

const ENV_KEYS: Readonly<Record<string, readonly string[]>> = {
  means: ['gaussian'],
  sd: ['gaussian', 'contextual'],
  probs: ['bernoulli'],
  taskMeans: ['contextual'],
  arms: ['tie-heavy'],
  maxProbability: ['tie-heavy'],
  size: ['sokoban'],
  boxes: ['sokoban'],
  levels: ['sokoban'],
  heldOut: ['sokoban'],
  levelSeed: ['sokoban'],
  levelSet: ['sokoban'],
  levelCache: ['sokoban'],
  probe: ['sokoban'],
  probeLevels: ['sokoban'],
  maxMoves: ['sokoban'],
  maxSteps: ['sokoban'],
  reward: ['sokoban'],
  lengthTiebreak: ['sokoban'],
};
const FTW_KEYS = [
  'capacity',
  'batchSize',
  'keep',
  'batches',
  'warmup',
  'selection',
  'tieRule',
  'threshold',
  'failureReturn',
  'maxVersionLag',
];

function readEnvironment(raw: Readonly<Record<string, RawOption>>): EnvironmentConfig {
  const o = (key: string): RawOption => raw[key]!;
  const kind = readChoice(o('env').value, o('env').label, ENVIRONMENTS);
  for (const [key, kinds] of Object.entries(ENV_KEYS)) {
    if (o(key).explicit && !kinds.includes(kind)) {
      throw new UsageError(`${o(key).label} applies only to --env ${kinds.join(' or ')}, got --env ${kind}`);
    }
  }
  switch (kind) {
    case 'gaussian': {
      const means = readNumberList(o('means').value, o('means').label);
      if (means.length < 2)
        throw new UsageError(`${o('means').label} must list at least 2 arms, got ${means.length}`);
      const sd = readNumberList(o('sd').value, o('sd').label, { min: 0 });
      if (sd.length !== 1 && sd.length !== means.length) {
        throw new UsageError(
          `${o('sd').label} must have 1 or ${means.length} values (one per arm), got ${sd.length}`,
        );
      }
      return { kind, means, sds: sd.length === 1 ? means.map(() => sd[0]!) : sd };
    }
    case 'bernoulli': {
      const probs = readNumberList(o('probs').value, o('probs').label, { min: 0, max: 1 });
      if (probs.length < 2)
        throw new UsageError(`${o('probs').label} must list at least 2 arms, got ${probs.length}`);
      return { kind, probs };
    }
    case 'contextual': {
      const taskMeans = readNumberTable(o('taskMeans').value, o('taskMeans').label);
      if (taskMeans[0]!.length < 2) {
        throw new UsageError(
          `${o('taskMeans').label} must list at least 2 arms per task, got ${taskMeans[0]!.length}`,
        );
      }
      const sd = readNumberList(o('sd').value, o('sd').label, { min: 0 });
      if (sd.length !== 1)
        throw new UsageError(`${o('sd').label} must be one value for --env contextual, got ${sd}`);
      return { kind, taskMeans, sd: sd[0]! };
    }
    case 'sokoban': {
      const maxSteps = readInteger(o('maxSteps').value, o('maxSteps').label, { min: 1, max: 100_000 });
      const reward = readChoice(o('reward').value, o('reward').label, ['binary', 'shaped'] as const);
      const lengthTiebreak = readNumber(o('lengthTiebreak').value, o('lengthTiebreak').label, { min: 0 });
      // The penalty only orders equal returns if a whole episode's worth, c · maxSteps, stays below the
      // smallest gap between two different returns: 1 for binary rewards, 0.1 for shaped ones.
      const gap = reward === 'binary' ? 1 : 0.1;
      if (lengthTiebreak * maxSteps >= gap) {
        throw new UsageError(
          `${o('lengthTiebreak').label} (${lengthTiebreak}) times ${o('maxSteps').label} (${maxSteps}) must be < ${gap}, the smallest gap between two ${reward} returns, so that it orders equal returns only`,
        );
      }
      return {
        kind,
        ...readLevelSet(o('levelSet'), o('levelCache')),
        ...readProbe(o('probe'), o('probeLevels')),
        size: readInteger(o('size').value, o('size').label, { min: 3, max: 30 }),
        boxes: readInteger(o('boxes').value, o('boxes').label, { min: 1, max: 4 }),
        levels: readInteger(o('levels').value, o('levels').label, { min: 1, max: 10_000 }),
        heldOut: readInteger(o('heldOut').value, o('heldOut').label, { min: 0, max: 10_000 }),
        levelSeed: readInteger(o('levelSeed').value, o('levelSeed').label, { min: 0 }),
        maxMoves: readInteger(o('maxMoves').value, o('maxMoves').label, { min: 1, max: 1000 }),
        maxSteps,
        reward,
        lengthTiebreak,
      };
    }
    case 'tie-heavy':
      return {
        kind,
        arms: readInteger(o('arms').value, o('arms').label, { min: 2, max: 1000 }),
        maxProbability: readNumber(o('maxProbability').value, o('maxProbability').label, {
          min: 0,
          exclusiveMin: true,
          max: 1,
        }),
      };
  }
}

/**
 * Validates raw option values (from defaults, a config file and flags) into a {@link TrainConfig}.
 *
 * Every value is checked here, once; cross-option rules too: K ≤ C ≤ N, C ≤ warmup ≤ N, GRPO needs at
 * least 2 rollouts per iteration (a group), environment options apply only to their environment, and FTW
 * options are refused with a baseline method.
 *
 * @param raw - raw values by key with the user's name for each (see `collectOptions`)
 * @returns the resolved configuration
 * @throws {@link UsageError} naming the flag or key, the value and what is allowed
 * @example
 * ```ts
 * resolveTrainConfig(collectOptions(TRAIN_OPTIONS, command)).keep; // 1
 * ```
 */
export function resolveTrainConfig(raw: Readonly<Record<string, RawOption>>): TrainConfig {
  const o = (key: string): RawOption => {
    const option = raw[key];
    if (option === undefined) throw new Error(`internal: option ${key} missing`);
    return option;
  };
  const int = (key: string, min: number, max?: number): number =>
    readInteger(o(key).value, o(key).label, max === undefined ? { min } : { min, max });
  const method = readChoice(o('method').value, o('method').label, METHODS);
  if (method !== 'ftw') {
    const misplaced = FTW_KEYS.find((key) => o(key).explicit);
    if (misplaced !== undefined) {
      throw new UsageError(`${o(misplaced).label} applies only to --method ftw, got --method ${method}`);
    }
  }
  const environment = readEnvironment(raw);
  const failureReturn = readOptionalNumber(o('failureReturn').value, o('failureReturn').label);
  const capacity = int('capacity', 1, 10_000_000);
  const batchSize = int('batchSize', 1);
  if (batchSize > capacity) {
    throw new UsageError(
      `${o('batchSize').label} (C) must be <= --capacity (N = ${capacity}), got ${batchSize}`,
    );
  }
  const keep = int('keep', 1);
  if (keep > batchSize) {
    throw new UsageError(`${o('keep').label} (K) must be <= --batch-size (C = ${batchSize}), got ${keep}`);
  }
  const warmup = o('warmup').value === 'auto' ? batchSize : int('warmup', 1);
  if (warmup < batchSize || warmup > capacity) {
    throw new UsageError(
      `${o('warmup').label} must be an integer in [C, N] = [${batchSize}, ${capacity}], got ${warmup}`,
    );
  }
  const rollouts = int('rollouts', 1, 100_000);
  if (method === 'grpo' && rollouts < 2) {
    throw new UsageError(`${o('rollouts').label} must be >= 2 for --method grpo (a group), got ${rollouts}`);
  }
  const epochsRaw = o('epochs');
  const epochs = epochsRaw.value === 'auto' ? (method === 'ppo' ? 4 : 1) : int('epochs', 1, 1000);
  const maxVersionLag = readOptionalNumber(o('maxVersionLag').value, o('maxVersionLag').label, { min: 0 });
  if (maxVersionLag !== null && !Number.isInteger(maxVersionLag)) {
    throw new UsageError(
      `${o('maxVersionLag').label} must be "none" or an integer >= 0, got ${maxVersionLag}`,
    );
  }
  return {
    method,
    environment,
    capacity,
    batchSize,
    keep,
    batches: int('batches', 1, 1_000_000),
    beta: readNumber(o('beta').value, o('beta').label, { min: 0 }),
    kl: readChoice(o('kl').value, o('kl').label, ['reverse', 'forward'] as const),
    reference: readChoice(o('reference').value, o('reference').label, [
      'uniform',
      'initial',
      'previous',
    ] as const),
    optimizer: readChoice(o('optimizer').value, o('optimizer').label, ['sgd', 'adam'] as const),
    lr: readNumber(o('lr').value, o('lr').label, { min: 0, exclusiveMin: true }),
    iterations: int('iterations', 1, 10_000_000),
    rollouts,
    warmup,
    selection: readChoice(o('selection').value, o('selection').label, ['sampled', 'expected'] as const),
    tieRule: readChoice(o('tieRule').value, o('tieRule').label, TIE_RULES),
    threshold: readOptionalNumber(o('threshold').value, o('threshold').label),
    ...(failureReturn === null ? {} : { failureReturn }),
    maxVersionLag,
    epochs,
    clip: readNumber(o('clip').value, o('clip').label, { min: 0, exclusiveMin: true }),
    baselineRate: readNumber(o('baselineRate').value, o('baselineRate').label, {
      min: 0,
      exclusiveMin: true,
      max: 1,
    }),
    seeds: readSeeds(o('seeds').value, o('seeds').label),
    ...readPolicyAndBudget(raw, environment),
  };
}

/** `--level-set` and `--level-cache`; omitted from the config at their defaults (`stream`, `none`). */
function readLevelSet(
  setOption: RawOption,
  cacheOption: RawOption,
): { levelSet?: 'split'; levelCache?: string } {
  const levelSet = readChoice(setOption.value, setOption.label, ['stream', 'split'] as const);
  const cache = cacheOption.value;
  if (typeof cache !== 'string' || cache === '') {
    throw new UsageError(`${cacheOption.label} must be a directory or none, got ${JSON.stringify(cache)}`);
  }
  if (cache !== 'none' && levelSet !== 'split') {
    throw new UsageError(
      `${cacheOption.label} applies only to --level-set split, got ${setOption.label} ${levelSet}`,
    );
  }
  return {
    ...(levelSet === 'split' ? { levelSet } : {}),
    ...(cache === 'none' ? {} : { levelCache: cache }),
  };
}

/** `--probe` and `--probe-levels`; omitted from the config without `--probe`. */
function readProbe(probe: RawOption, levels: RawOption): { probes?: number; probeLevels?: number } {
  const probes = readOptionalNumber(probe.value, probe.label, { min: 1 });
  if (probes !== null && !Number.isInteger(probes)) {
    throw new UsageError(`${probe.label} must be "none" or an integer >= 1, got ${probes}`);
  }
  if (levels.value === 'auto') return probes === null ? {} : { probes };
  if (probes === null)
    throw new UsageError(`${levels.label} applies only with --probe <n>, got ${probe.label} none`);
  return { probes, probeLevels: readInteger(levels.value, levels.label, { min: 1, max: 100_000 }) };
}

/**
 * `--policy` (linear, mlp and cnn need `--env sokoban`), the network's options, `--max-samples` and
 * `--eval-every`; omitted from the config at their defaults.
 */
function readPolicyAndBudget(
  raw: Readonly<Record<string, RawOption>>,
  environment: EnvironmentConfig,
): {
  policy?: Exclude<PolicyKind, 'tabular'>;
  network?: NetworkConfig;
  maxSamples?: number;
  evalEvery?: number;
} {
  const o = (key: string): RawOption => raw[key]!;
  const policy = readChoice(o('policy').value, o('policy').label, POLICY_KINDS);
  if (policy !== 'tabular' && environment.kind !== 'sokoban') {
    throw new UsageError(
      `${o('policy').label} ${policy} applies only to --env sokoban, got --env ${environment.kind}`,
    );
  }
  const neural = policy === 'mlp' || policy === 'cnn';
  for (const key of ['hidden', 'filters', 'envs']) {
    if (o(key).explicit && !(neural && (key !== 'filters' || policy === 'cnn'))) {
      throw new UsageError(
        `${o(key).label} applies only to --policy ${key === 'filters' ? 'cnn' : 'mlp or cnn'}, got --policy ${policy}`,
      );
    }
  }
  const maxSamples = readOptionalNumber(o('maxSamples').value, o('maxSamples').label, { min: 1 });
  if (maxSamples !== null && !Number.isInteger(maxSamples)) {
    throw new UsageError(`${o('maxSamples').label} must be "none" or an integer >= 1, got ${maxSamples}`);
  }
  const evalEvery = readInteger(o('evalEvery').value, o('evalEvery').label, { min: 1 });
  const sizes = (key: string) =>
    readNumberList(o(key).value, o(key).label, { min: 1, max: 4096 }).map((v, i) => {
      if (!Number.isInteger(v)) throw new UsageError(`${o(key).label}[${i}] must be an integer, got ${v}`);
      return v;
    });
  const network: NetworkConfig | undefined = neural
    ? {
        hidden: sizes('hidden'),
        filters: policy === 'cnn' ? sizes('filters') : [],
        envs: readInteger(o('envs').value, o('envs').label, { min: 1, max: 1024 }),
      }
    : undefined;
  return {
    ...(policy === 'tabular' ? {} : { policy }),
    ...(network === undefined ? {} : { network }),
    ...(maxSamples === null ? {} : { maxSamples }),
    ...(evalEvery === 1 ? {} : { evalEvery }),
  };
}
