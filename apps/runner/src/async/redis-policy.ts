import {
  KeyedPolicyReader,
  keyedCodec,
  keyedLoader,
  type PolicyCodec,
  STEP_NAMES,
  thetaCodec,
  thetaLoader,
} from '@ftw/actors';
import type { PolicyLoader } from '@ftw/redis-pool';
import type { DecodedTrajectory, TrajectoryInput } from '@ftw/replay-pool';
import { EncodedSokobanEnv, SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from '@ftw/sokoban';
import { SokobanEpisodeEnv, SokobanFeaturePolicy } from '@ftw/sokoban/trainer';
import type { Observation, Policy } from '@ftw/trainer';
import { UsageError } from '../cli/usage-error.js';
import type { TrainConfig } from '../config/train-config.js';
import { createEncodedEnvironments } from '../train/create-environment.js';
import { createPolicy } from '../train/create-policy.js';
import type { EpisodeEnv } from '../train/episode-env.js';
import { isNetworkPolicy, loadNetworks } from '../train/network-module.js';
import type { AsyncOptions } from './async-options.js';
import { asyncEnvironment } from './train-async-seed.js';

/**
 * A policy of a run over Redis and how it travels, the same on both sides: the learner trains `policy`,
 * publishes it with `codec()` and keeps of each pushed trajectory what `prepare` gives; an actor builds its
 * own, loads versions with `loader` and acts on `input(observation)`, sending each step's `stepName` or
 * else that input.
 */
export interface RedisPolicy {
  /** Its kind, in the pool's run notes (an actor of another kind is refused). */
  readonly kind: string;
  readonly policy: Policy;
  /** Learner: how θ goes out. */
  codec(): PolicyCodec;
  /** Actor: how the published bytes become θ. */
  readonly loader: PolicyLoader<Float64Array>;
  /**
   * Actor: what the policy reads for the environment's observation (a Sokoban position's id), given θ of
   * the acting version; absent: the observation itself (a bandit's id, a network's encoded row).
   */
  readonly input?: (observation: Observation, theta: Float64Array) => Observation;
  /** Actor: send steps by name instead (the learner numbers them). */
  readonly stepName?: (observation: Observation) => string;
  /** Learner: the trajectory the mirror holds, or null to skip it as malformed. */
  prepare(t: DecodedTrajectory): TrajectoryInput | null;
}

/**
 * The environment of a process of a run over Redis (the learner's, or an actor's): the asynchronous run's
 * environment ({@link asyncEnvironment}), or for an mlp/cnn policy one encoded Sokoban environment (the
 * features or the grid as channels, as `ftw train` without actors), with `@ftw/tfjs` loaded.
 *
 * @param config - the configuration
 * @param options - the asynchronous options
 * @param seed - the environment's seed
 * @returns the environment
 */
export async function redisEnvironment(
  config: TrainConfig,
  options: AsyncOptions,
  seed: number,
): Promise<EpisodeEnv | EncodedSokobanEnv> {
  if (!isNetworkPolicy(config.policy) || config.environment.kind !== 'sokoban') {
    return asyncEnvironment(config, options, seed);
  }
  await loadNetworks();
  const encoding = config.policy === 'cnn' ? 'grid' : 'features';
  return createEncodedEnvironments(config.environment, encoding, seed, 1)[0]!;
}

/**
 * The runner's one choice of how a configuration's policy runs over Redis, used by the learner and by every
 * actor process. A bandit's table travels as θ with observation ids (the task index, the same everywhere).
 * On Sokoban, a linear policy acts on features ({@link SokobanFeaturePolicy}): actors send each step's
 * features, so no process's position numbering leaves it; a network (mlp, cnn) acts on the encoded
 * environment's observation rows, which actors send whole, and its weights travel as θ (whole, or the
 * entries that changed while they cost less); a table is keyed by position names
 * ({@link KeyedPolicyReader}): actors send names and the learner numbers them. Adding a policy kind is
 * one entry in `SOKOBAN_KINDS`.
 *
 * @param config - the configuration (`policy`, `network`)
 * @param env - this process's environment ({@link redisEnvironment})
 * @param random - uniform on [0, 1) for a network's initial weights (the learner's; an actor's are replaced
 *   by the first version it loads)
 * @returns the policy and how it travels
 * @throws UsageError for a policy kind that does not run over Redis
 * @example
 * ```ts
 * const { policy, codec } = redisPolicy(config, env); // the learner
 * ```
 */
export function redisPolicy(
  config: TrainConfig,
  env: EpisodeEnv | EncodedSokobanEnv,
  random?: () => number,
): RedisPolicy {
  const name = config.policy ?? 'tabular';
  // Ids (bandits, Sokoban positions) are numbers: the `+o` below.
  if (env instanceof EncodedSokobanEnv) {
    const width = env.observationSize;
    return {
      kind: name,
      policy: createPolicy(config, env, random),
      codec: thetaCodec,
      loader: thetaLoader,
      prepare: (t) => (t.observations?.length === t.actions.length * width ? t : null),
    };
  }
  if (!(env instanceof SokobanEpisodeEnv)) {
    return {
      kind: name,
      policy: createPolicy(config, env),
      codec: thetaCodec,
      loader: thetaLoader,
      prepare: (t) => learnerTrajectory(t, null),
    };
  }
  const kind = SOKOBAN_KINDS[name];
  if (kind === undefined) {
    throw new UsageError(`--policy ${name} does not run over Redis yet (tabular, linear, mlp, cnn do)`);
  }
  return kind(config, env);
}

const SOKOBAN_KINDS: Readonly<Record<string, (config: TrainConfig, env: SokobanEpisodeEnv) => RedisPolicy>> =
  {
    linear: (_, env) => ({
      kind: 'linear',
      policy: new SokobanFeaturePolicy(),
      codec: thetaCodec,
      loader: thetaLoader,
      input: (o) => env.featureData.subarray(+o * FEATURE_COUNT, (+o + 1) * FEATURE_COUNT),
      prepare: (t) => (t.observations?.length === t.actions.length * FEATURE_COUNT ? t : null),
    }),
    tabular: (config, env) => {
      const reader = new KeyedPolicyReader();
      const names = {
        get count() {
          return env.observationCount;
        },
        nameOf: (id: number) => env.positionName(id),
      };
      return {
        kind: 'tabular',
        policy: createPolicy(config, env),
        codec: () => keyedCodec(names, env.numActions),
        loader: keyedLoader(reader),
        // A position the learner has not numbered yet reads the row past θ's end: logits 0, uniform, what
        // the learner's policy gives it.
        input: (o, theta) => reader.rowOf(env.positionName(+o)) ?? theta.length / env.numActions,
        stepName: (o) => env.positionName(+o),
        prepare: (t) => learnerTrajectory(t, env),
      };
    },
  };

/**
 * What the learner's pool holds of a trajectory an actor pushed with ids or names. A Sokoban actor with a
 * table sends its steps' positions by name (`metadata.positions`), numbered here in the learner's registry
 * (`idsOfPositions`, which creates the ids of new positions, all or none); a bandit actor sends observation
 * ids (none: all 0).
 *
 * @param t - the trajectory as decoded from the stream
 * @param sokoban - the learner's Sokoban environment, or null for a bandit
 * @returns the trajectory with the learner's observation ids, or null for a Sokoban trajectory without one
 *   valid position name per step (the mirror skips it and counts it as malformed)
 */
export function learnerTrajectory(
  t: DecodedTrajectory,
  sokoban: SokobanEpisodeEnv | null,
): TrajectoryInput | null {
  const length = t.actions.length;
  let observations: Float64Array;
  if (sokoban === null) {
    if (t.observations !== undefined) return t;
    observations = new Float64Array(length);
  } else {
    const positions = (t.metadata as Record<string, unknown> | null | undefined)?.[STEP_NAMES];
    if (!Array.isArray(positions) || positions.length !== length) return null;
    if (!positions.every((name) => typeof name === 'string')) return null;
    try {
      observations = Float64Array.from(sokoban.idsOfPositions(positions));
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }
  return { actions: t.actions, logProbs: t.logProbs, versions: t.versions, return: t.return, observations };
}
