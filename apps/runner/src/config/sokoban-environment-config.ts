/** The Sokoban environment of a run (`--env sokoban`), fully resolved. */
export interface SokobanEnvironmentConfig {
  readonly kind: 'sokoban';
  /** Interior width and height of every level (walls are added around). */
  readonly size: number;
  /** Boxes per level. */
  readonly boxes: number;
  /**
   * `split`: `@ftw/sokoban`'s `levelSplit`, the held-out levels first and the training levels distinct
   * and disjoint from them by level key; absent: the training levels, then the held-out ones, of one
   * stream (repeats possible).
   */
  readonly levelSet?: 'split';
  /** With `levelSet: 'split'`: the directory where the generated levels are cached (`cachedLevelSplit`). */
  readonly levelCache?: string;
  /** Difficulty probes per candidate level (`--probe`; `@ftw/trainer`'s `ProbedTasks`); absent: none. */
  readonly probes?: number;
  /** With `probes`: candidate levels probed per iteration; absent: the run's `rollouts`. */
  readonly probeLevels?: number;
  /** Training levels: a fixed set drawn from `levelSeed`. */
  readonly levels: number;
  /** Held-out levels, drawn from the same stream after the training ones, never trained on. */
  readonly heldOut: number;
  /** Seed of the level set (the same for every run seed, so seeds differ only in training). */
  readonly levelSeed: number;
  /** Most moves of a level's optimal solution (the generator's difficulty range is 1 … maxMoves). */
  readonly maxMoves: number;
  /** Steps after which an episode is truncated. */
  readonly maxSteps: number;
  /** `binary` (1 when solved, else 0) or gym-sokoban's `shaped` rewards. */
  readonly reward: 'binary' | 'shaped';
  /**
   * Subtracted from the reward at every step (0 normally). A tiny value (10⁻⁶ with at most 10⁵ steps)
   * orders equal returns by episode length, shorter first, without reordering different binary returns:
   * the compare scenario's "ties broken by length" variant of FTW.
   */
  readonly lengthTiebreak: number;
}
