import type { SokobanEpisodeEnvOptions } from '@ftw/sokoban/trainer';

/**
 * The Sokoban environment of a run (`--env sokoban`), fully resolved: `@ftw/sokoban/trainer`'s
 * {@link SokobanEpisodeEnvOptions} (the level set, episode length, rewards and length tie-break; the
 * held-out levels are drawn from the same stream after the training ones, or with `levelSet: 'split'`
 * from `levelSplit`), plus the run's difficulty probes.
 */
export interface SokobanEnvironmentConfig extends SokobanEpisodeEnvOptions {
  readonly kind: 'sokoban';
  /** Difficulty probes per candidate level (`--probe`; `@ftw/trainer`'s `ProbedTasks`); absent: none. */
  readonly probes?: number;
  /** With `probes`: candidate levels probed per iteration; absent: the run's `rollouts`. */
  readonly probeLevels?: number;
}
