import type { TrainConfig } from './train-config.js';

/**
 * The small reproduction's experiment, exactly: two-armed Gaussian bandit (means 1.0 and 0.3, standard
 * deviation 0.2); tabular logits from 0; plain SGD, learning rate 0.08; 240 iterations of one one-step
 * trajectory pushed into a FIFO pool of capacity 128; updates once the pool holds 5 (236 updates), each
 * selecting J = 4 minibatches of C = 5 and keeping K = 1 (sampled); loss = mean cross-entropy of the
 * selected actions + 0.05 · KL(π ‖ uniform); seeds 0, 1, 2.
 */
export const REPRODUCE_CONFIG: TrainConfig = Object.freeze({
  method: 'ftw',
  environment: Object.freeze({ kind: 'gaussian', means: [1.0, 0.3], sds: [0.2, 0.2] }),
  capacity: 128,
  batchSize: 5,
  keep: 1,
  batches: 4,
  beta: 0.05,
  kl: 'reverse',
  reference: 'uniform',
  optimizer: 'sgd',
  lr: 0.08,
  iterations: 240,
  rollouts: 1,
  warmup: 5,
  selection: 'sampled',
  tieRule: 'random',
  threshold: null,
  maxVersionLag: null,
  epochs: 1,
  clip: 0.2,
  baselineRate: 0.1,
  seeds: [0, 1, 2],
} as const);

/** The optimal-arm probability the reference implementation reported on this setting. */
export const REFERENCE_RESULT = 0.968;
