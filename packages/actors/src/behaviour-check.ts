import type { Episode, Policy } from '@ftw/trainer';
import { ActionDistribution } from '@ftw/trainer';

/** What a {@link BehaviourCheck} found so far. */
export interface BehaviourCheckResult {
  /** Steps scored again: those taken with the learner's version at the time. */
  readonly steps: number;
  /** The largest |log π(a_t | o_t) − log q(a_t | o_t)| over them; 0 before any; +∞ when one was NaN. */
  readonly maxLogProbGap: number;
}

/**
 * The learner's check that its actors act with the policy it published: every arrived step taken with the
 * learner's current version v is scored again by the learner's own policy, and the largest
 * |log π_θ(a_t | o_t) − log q_{v_t}(a_t | o_t)| between its log-probability and the one the actor recorded
 * is kept. Steps of other versions are not scored (the learner no longer holds those parameters). The same
 * parameters, observation and arithmetic give the same number, so anything above 0 means an actor read
 * another row, other features or another version than the learner holds. A NaN counts as the largest gap
 * there is, +∞.
 *
 * @example
 * ```ts
 * const check = new BehaviourCheck(policy);
 * for (const e of fresh) check.add(e, version); // before the update to version + 1
 * check.result; // { steps: 42, maxLogProbGap: 0 }
 * ```
 */
export class BehaviourCheck {
  readonly #policy: Policy;
  readonly #distribution: ActionDistribution;
  #steps = 0;
  #maxLogProbGap = 0;

  /** @param policy - the learner's policy (its current parameters are version v's) */
  constructor(policy: Policy) {
    this.#policy = policy;
    this.#distribution = new ActionDistribution(policy.numActions);
  }

  /**
   * Scores again the steps of one episode taken with `version`.
   *
   * @param episode - the episode, observations as the learner's policy reads them (d numbers per step)
   * @param version - the version the learner's policy holds now
   */
  add(
    episode: Pick<Episode, 'length' | 'observations' | 'actions' | 'logProbs' | 'versions'>,
    version: number,
  ): void {
    const d = this.#policy.observationSize;
    for (let t = 0; t < episode.length; t++) {
      if (episode.versions[t] !== version) continue;
      const o = d === 1 ? episode.observations[t]! : episode.observations.subarray(t * d, (t + 1) * d);
      this.#distribution.of(this.#policy, o);
      const gap = Math.abs(this.#distribution.logProbability(episode.actions[t]!) - episode.logProbs[t]!);
      this.#maxLogProbGap = Number.isNaN(gap) ? Number.POSITIVE_INFINITY : Math.max(this.#maxLogProbGap, gap);
      this.#steps++;
    }
  }

  /** The steps scored so far and the largest gap. */
  get result(): BehaviourCheckResult {
    return { steps: this.#steps, maxLogProbGap: this.#maxLogProbGap };
  }
}
