/**
 * A warning of {@link SokobanEnv}, handed to its `onWarning` option: the call went ahead, but its
 * result may not be what the caller meant.
 *
 * - `MAX_STEPS_BELOW_OPTIMUM`: an explicit `maxSteps` is smaller than the certified optimal solution
 *   length of an episode's level, so no episode on that level can be solved (once per level).
 *
 * @example
 * ```ts
 * const warnings: SokobanWarning[] = [];
 * const env = new SokobanEnv({
 *   level: parseLevel('########\n#@ $  .#\n########'),
 *   maxSteps: 3,
 *   onWarning: (w) => warnings.push(w),
 * });
 * env.reset();
 * console.log(warnings[0]?.code, warnings[0]?.optimalMoves);
 * // MAX_STEPS_BELOW_OPTIMUM 4
 * ```
 */
export interface SokobanWarning {
  /** Stable machine-readable code. */
  readonly code: 'MAX_STEPS_BELOW_OPTIMUM';
  /** What happened and what to do, for people. */
  readonly message: string;
  /** The explicit step limit. */
  readonly maxSteps: number;
  /** The certified optimal solution length of the level, in moves. */
  readonly optimalMoves: number;
}
