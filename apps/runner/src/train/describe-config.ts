import type { EnvironmentConfig, TrainConfig } from '../config/train-config.js';

/** What an environment's headline score (`Evaluation.score`) measures: a label and a chart title. */
export interface ScoreName {
  /** For table headers and axes, e.g. `P(optimal action)`. */
  readonly label: string;
  /** For chart titles. */
  readonly title: string;
}

const BANDIT_SCORE: ScoreName = { label: 'P(optimal action)', title: 'Probability of the optimal action' };
const SOKOBAN_SCORE: ScoreName = {
  label: 'success on training levels',
  title: 'Greedy success on the training levels',
};

/**
 * What the headline score of an environment measures (each `EpisodeEnv`'s `scoreLabel` is this label).
 *
 * @param env - the environment configuration
 * @returns its label and chart title
 * @example
 * ```ts
 * scoreName(REPRODUCE_CONFIG.environment).label; // 'P(optimal action)'
 * ```
 */
export function scoreName(env: Pick<EnvironmentConfig, 'kind'>): ScoreName {
  return env.kind === 'sokoban' ? SOKOBAN_SCORE : BANDIT_SCORE;
}

/**
 * A one-line human description of an environment.
 *
 * @param env - the environment configuration
 * @returns e.g. `Gaussian bandit, means 1, 0.3, sd 0.2`
 * @example
 * ```ts
 * describeEnvironment(REPRODUCE_CONFIG.environment); // 'Gaussian bandit, means 1, 0.3, sd 0.2'
 * ```
 */
export function describeEnvironment(env: EnvironmentConfig): string {
  switch (env.kind) {
    case 'gaussian': {
      const sds = new Set(env.sds);
      return `Gaussian bandit, means ${env.means.join(', ')}, sd ${sds.size === 1 ? env.sds[0] : env.sds.join(', ')}`;
    }
    case 'bernoulli':
      return `Bernoulli bandit, success probabilities ${env.probs.join(', ')}`;
    case 'contextual':
      return `contextual bandit, ${env.taskMeans.length} tasks (${env.taskMeans.map((m) => m.join('/')).join('; ')}), sd ${env.sd}`;
    case 'tie-heavy':
      return `tie-heavy binary bandit, ${env.arms} Bernoulli arms, p = ${env.maxProbability}·(a+1)/${env.arms}`;
    case 'sokoban':
      return `Sokoban ${env.size}×${env.size}, ${env.boxes} box${env.boxes === 1 ? '' : 'es'}, ${env.levels} training + ${env.heldOut} held-out levels (${env.levelSet === 'split' ? 'split: distinct, held-out ones never trained on; ' : ''}seed ${env.levelSeed}, ≤ ${env.maxMoves} moves), ${env.reward} reward, ${env.maxSteps} steps${env.lengthTiebreak > 0 ? `, ties by length (−${env.lengthTiebreak}/step)` : ''}`;
  }
}

/**
 * A one-line human description of a training configuration's method.
 *
 * @param config - the configuration
 * @returns e.g. `FTW N=128 C=5 K=1 J=4 sampled, β=0.05 reverse KL to uniform`
 * @example
 * ```ts
 * describeMethod(REPRODUCE_CONFIG);
 * // 'FTW N=128 C=5 K=1 J=4 sampled, β=0.05 reverse KL to uniform, SGD lr 0.08, 240 iterations × 1 rollout'
 * ```
 */
export function describeMethod(config: TrainConfig): string {
  const optimizer = `${config.optimizer === 'sgd' ? 'SGD' : 'Adam'} lr ${config.lr}`;
  const budget = `${config.iterations} iterations × ${config.rollouts} rollout${config.rollouts === 1 ? '' : 's'}`;
  const epochs = config.epochs === 1 ? '' : `, ${config.epochs} epochs`;
  if (config.method !== 'ftw') {
    const name = {
      reinforce: 'REINFORCE with baseline',
      grpo: 'GRPO-style',
      ppo: `PPO-clip ε=${config.clip}`,
    }[config.method];
    return `${name}, ${optimizer}${epochs}, ${budget}`;
  }
  const threshold = config.threshold === null ? '' : `, threshold ${config.threshold}`;
  const ties =
    config.tieRule === 'random'
      ? ''
      : config.tieRule === 'shortest' || config.tieRule === 'longest'
        ? `, ties: ${config.tieRule} episode first`
        : `, ties: ${config.tieRule}`;
  return (
    `FTW N=${config.capacity} C=${config.batchSize} K=${config.keep} J=${config.batches} ${config.selection}` +
    `${threshold}${ties}, β=${config.beta} ${config.kl} KL to ${config.reference}, ${optimizer}${epochs}, ${budget}`
  );
}
