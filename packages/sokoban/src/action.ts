/**
 * The four actions of {@link SokobanEnv}: moving into a box pushes it when the cell behind it is free.
 * RAGEN numbers them 1–4 with 0 as an invalid action; here they are 0–3, in the same order.
 *
 * @example
 * ```ts
 * console.log(Action.Up, Action.Right, ACTION_NAMES[Action.Left]);
 * // 0 3 Left
 * ```
 */
export const Action = {
  /** Move (or push) one row up. */
  Up: 0,
  /** Move (or push) one row down. */
  Down: 1,
  /** Move (or push) one column left. */
  Left: 2,
  /** Move (or push) one column right. */
  Right: 3,
} as const;

/** One of the four {@link Action} codes. */
export type ActionCode = (typeof Action)[keyof typeof Action];

/** The name of each action, indexed by its code: `Up`, `Down`, `Left`, `Right`. */
export const ACTION_NAMES: readonly ['Up', 'Down', 'Left', 'Right'] = ['Up', 'Down', 'Left', 'Right'];
