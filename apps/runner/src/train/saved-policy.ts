import type { EncodedSokobanEnv } from '@ftw/sokoban';
import { SOKOBAN_FEATURE_COUNT as FEATURE_COUNT } from '@ftw/sokoban';
import { SokobanEpisodeEnv, SokobanFeaturePolicy, SokobanLinearPolicy } from '@ftw/sokoban/trainer';
import type { Policy } from '@ftw/trainer';
import { TabularPolicy } from '@ftw/trainer';
import type { EpisodeEnv } from './episode-env.js';

/**
 * A seed's final policy as a run writes it, one line of `policies.ndjson`: enough to act with it again,
 * in this process or another.
 *
 * - `tabular`: θ is one row of `numActions` logits per observation id, row-major. A bandit's ids are its
 *   tasks; Sokoban's are numbered by the run as positions are met, so `positions` names each row's
 *   position (`<training level>|<key>`, see `SokobanEpisodeEnv.positionName`).
 * - `linear` (Sokoban): θ is `numActions` rows of `featureCount` weights over `sokobanFeatures`.
 * - `network` (Sokoban, mlp or cnn): `@ftw/tfjs`'s `toJSON()` record (`format`, `architecture`, θ in
 *   `parameters`), which `loadPolicy` reads back.
 */
export interface SavedPolicy {
  readonly seed: number;
  readonly kind: 'tabular' | 'linear' | 'network';
  readonly numActions: number;
  /** θ, row-major (see above). */
  readonly parameters: number[];
  /** Linear: features per observation. */
  readonly featureCount?: number;
  /** Sokoban tabular: the position of each row of θ. */
  readonly positions?: string[];
  /** Network: the record's format and architecture. */
  readonly format?: string;
  readonly architecture?: unknown;
}

/**
 * The policy a seed ended with, as {@link SavedPolicy}.
 *
 * @param seed - the seed
 * @param policy - its final policy (a `TabularPolicy`, a `SokobanLinearPolicy` or a network)
 * @param env - the environment it trained on (Sokoban: the registry that numbered its rows)
 * @returns the saved form
 * @throws Error for another kind of policy (a bug of the caller)
 * @example
 * ```ts
 * savedPolicy(0, policy, env); // { seed: 0, kind: 'tabular', numActions: 2, parameters: [0.71, -0.71] }
 * ```
 */
export function savedPolicy(seed: number, policy: Policy, env: EpisodeEnv | EncodedSokobanEnv): SavedPolicy {
  const numActions = policy.numActions;
  if ('toJSON' in policy && typeof policy.toJSON === 'function') {
    const { format, architecture, parameters } = policy.toJSON() as Required<SavedPolicy>;
    return { seed, kind: 'network', numActions, format, architecture, parameters };
  }
  const parameters = Array.from(policy.parameters);
  if (policy instanceof SokobanLinearPolicy || policy instanceof SokobanFeaturePolicy) {
    return { seed, kind: 'linear', numActions, parameters, featureCount: parameters.length / numActions };
  }
  if (!(policy instanceof TabularPolicy)) throw new Error('internal: savedPolicy of an unknown policy');
  if (!(env instanceof SokobanEpisodeEnv)) return { seed, kind: 'tabular', numActions, parameters };
  const positions = Array.from({ length: policy.observations }, (_, id) => env.positionName(id));
  return { seed, kind: 'tabular', numActions, parameters, positions };
}

/**
 * A policy to act with again from its saved form, on an environment of the same configuration (the same
 * arms or tasks; for Sokoban the same level set). Sokoban positions are numbered again in `env`'s registry
 * from their names, so `env` may be a fresh environment or one that has met positions already.
 *
 * @param saved - a line of `policies.ndjson`
 * @param env - the environment to act in
 * @returns the policy, with θ as saved
 * @throws RangeError naming what does not fit: a θ whose length is not a whole number of rows of
 *   `env.numActions`, a linear policy off Sokoban or with another feature count, positions on a tabular
 *   bandit policy or not one per row, or a position not in `env`'s level set
 * @example
 * ```ts
 * env.evaluate(restorePolicy(saved, new SokobanEpisodeEnv(config.environment, 0))).score; // the seed's final score
 * ```
 */
export function restorePolicy(saved: SavedPolicy, env: EpisodeEnv): Policy {
  const { numActions, parameters } = saved;
  if (numActions !== env.numActions || parameters.length % numActions !== 0) {
    throw new RangeError(
      `saved policy of seed ${saved.seed} has ${parameters.length} parameters for ${numActions} actions; the environment has ${env.numActions} actions`,
    );
  }
  if (saved.kind === 'linear') {
    if (!(env instanceof SokobanEpisodeEnv) || saved.featureCount !== FEATURE_COUNT) {
      throw new RangeError(
        `saved linear policy of seed ${saved.seed} needs a Sokoban environment and ${FEATURE_COUNT} features, got ${saved.featureCount} features${env instanceof SokobanEpisodeEnv ? '' : ' and another environment'}`,
      );
    }
    const policy = new SokobanLinearPolicy(numActions, FEATURE_COUNT, env);
    policy.parameters.set(parameters);
    return policy;
  }
  const rows = parameters.length / numActions;
  if (!(env instanceof SokobanEpisodeEnv)) {
    if (saved.positions !== undefined) {
      throw new RangeError(
        `saved policy of seed ${saved.seed} names Sokoban positions; the environment is a bandit`,
      );
    }
    const policy = new TabularPolicy(numActions, rows);
    policy.parameters.set(parameters);
    return policy;
  }
  if (saved.positions === undefined || saved.positions.length !== rows) {
    throw new RangeError(
      `saved Sokoban policy of seed ${saved.seed} must name the position of each of its ${rows} rows, got ${saved.positions?.length ?? 'no'} positions`,
    );
  }
  const ids = env.idsOfPositions(saved.positions);
  let top = env.observationCount;
  for (const id of ids) top = Math.max(top, id + 1);
  const policy = new TabularPolicy(numActions, top);
  for (let row = 0; row < rows; row++) {
    policy.parameters.set(parameters.slice(row * numActions, (row + 1) * numActions), ids[row]! * numActions);
  }
  return policy;
}
