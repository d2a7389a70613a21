/**
 * The native shape: each line is already a trajectory record (`trajectorySchema`), so it passes through
 * unchanged to validation.
 *
 * @param record - the parsed JSON line
 * @returns the same value
 * @example
 * ```ts
 * fromFtw({ id: 'a', task: 't', messages: [{ role: 'user', content: 'hi' }], reward: 0 }); // the same object
 * ```
 */
export function fromFtw(record: unknown): unknown {
  return record;
}
