export type {
  BanditEnv,
  PolicyProbabilities,
  ResetInfo,
  ResetOptions,
  ResetResult,
  StepInfo,
  StepResult,
} from './bandit-env.js';
export type { BanditErrorCode } from './bandit-error.js';
export { BanditError } from './bandit-error.js';
export type { BernoulliBanditOptions } from './bernoulli-bandit.js';
export { BernoulliBandit } from './bernoulli-bandit.js';
export type {
  BernoulliTask,
  ContextualBanditOptions,
  ContextualTask,
  GaussianTask,
} from './contextual-bandit.js';
export { ContextualBandit } from './contextual-bandit.js';
export type { DifficultyFilterResult } from './difficulty-filter.js';
export { difficultyFilter } from './difficulty-filter.js';
export type { GaussianBanditOptions } from './gaussian-bandit.js';
export { GaussianBandit } from './gaussian-bandit.js';
export { keepProbability } from './keep-probability.js';
export { normalCdf } from './normal-cdf.js';
export { NormalSampler } from './normal-sampler.js';
export type { UniformRandom } from './seeded-uniform.js';
export { seededUniform } from './seeded-uniform.js';
export { shortfallProbability } from './shortfall-probability.js';
export type { TieHeavyBinaryOptions } from './tie-heavy-binary.js';
export { tieHeavyBinary } from './tie-heavy-binary.js';
export { twoArmedReproduction } from './two-armed-reproduction.js';
