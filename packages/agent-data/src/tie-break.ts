import { describeValue } from '@ftw/internal';
import { assistantTurns, type Trajectory } from './trajectory-schema.js';

/** Secondary keys that order trajectories of equal reward. */
export const TIE_BREAK_KEYS = ['fewer-turns', 'fewer-tool-calls', 'newer', 'older'] as const;

/**
 * A secondary key among equal rewards: `fewer-turns` (fewer assistant messages first, every conversation of
 * the run counted), `fewer-tool-calls`, `newer` (later in the FIFO order first) or `older`.
 */
export type TieBreakKey = (typeof TIE_BREAK_KEYS)[number];

/** Rank values that carry the reward order refined by the tie-break keys, with the threshold mapped. */
export interface RankValues {
  /** One value per item: a larger value ranks higher; equal only when the reward and every key tie. */
  readonly values: Float64Array;
  /** The threshold on `values` that keeps exactly the items whose reward was above the original one. */
  readonly threshold: number | undefined;
}

/**
 * Re-expresses rewards as dense rank values ordered by (reward, then each key in turn), so that
 * `@ftw/selection`, which breaks remaining ties uniformly at random, prefers e.g. the shorter of two
 * successes. Every strict comparison between rewards is kept. A threshold t becomes the value of the best
 * item whose reward is ≤ t (or −1 when there is none): exactly those items are not strictly above it.
 * This is the agent-data counterpart of the runner's `orderTies` (apps/runner/src/train/tie-order.ts).
 *
 * @param items - the trajectories, in window order (oldest first)
 * @param keys - tie-break keys, applied in order
 * @param threshold - elites must have a reward strictly above it, or undefined
 * @returns rank values and the mapped threshold; with no keys, the rewards themselves
 * @throws RangeError for an unknown key
 * @example
 * ```ts
 * rankValues([a1, b3, c2], ['fewer-turns']).values; // rewards 1, 1, 0 with 1, 3, 2 turns
 * // Float64Array [2, 1, 0]
 * ```
 */
export function rankValues(
  items: readonly Pick<Trajectory, 'reward' | 'messages' | 'additionalHistories'>[],
  keys: readonly TieBreakKey[],
  threshold: number | undefined,
): RankValues {
  const n = items.length;
  const rewards = Float64Array.from(items, (t) => t.reward);
  if (keys.length === 0) return { values: rewards, threshold };
  const secondary = keys.map((key) => secondaryKey(items, key));
  const order = Array.from({ length: n }, (_, i) => i);
  const compare = (a: number, b: number): number => {
    const d = rewards[a]! - rewards[b]!;
    if (d !== 0) return d;
    for (const s of secondary) {
      const e = s[a]! - s[b]!;
      if (e !== 0) return e;
    }
    return 0;
  };
  order.sort(compare);
  const values = new Float64Array(n);
  let rank = 0;
  for (let p = 0; p < n; p++) {
    if (p > 0 && compare(order[p - 1]!, order[p]!) !== 0) rank++;
    values[order[p]!] = rank;
  }
  if (threshold === undefined) return { values, threshold: undefined };
  let mapped = -1;
  for (let i = 0; i < n; i++) if (rewards[i]! <= threshold && values[i]! > mapped) mapped = values[i]!;
  return { values, threshold: mapped };
}

/** Per item, a number that is larger for the item the key prefers. */
function secondaryKey(
  items: readonly Pick<Trajectory, 'messages' | 'additionalHistories'>[],
  key: TieBreakKey,
): Float64Array {
  switch (key) {
    case 'fewer-turns':
      return Float64Array.from(items, (t) => -assistantTurns(t).length);
    case 'fewer-tool-calls':
      return Float64Array.from(
        items,
        (t) => -assistantTurns(t).reduce((s, m) => s + (m.tool_calls?.length ?? 0), 0),
      );
    case 'newer':
      return Float64Array.from(items, (_, i) => i);
    case 'older':
      return Float64Array.from(items, (_, i) => -i);
    default:
      throw new RangeError(
        `tie-break key must be one of ${TIE_BREAK_KEYS.join(', ')}, got ${describeValue(key)}`,
      );
  }
}
