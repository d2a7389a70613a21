import { describeValue } from '@ftw/internal';
import { SokobanError } from './sokoban-error.js';

const ACTION_OF_NAME: ReadonlyMap<string, number> = new Map([
  ['up', 0],
  ['down', 1],
  ['left', 2],
  ['right', 3],
]);
const TAGGED = /<(answer|action)>([\s\S]*?)<\/\1>/i;

/**
 * Reads the actions of an LLM's reply: a bare name (`up`, `Down`), or names separated by `||` (RAGEN's
 * multi-action answers), optionally inside an `<answer>…</answer>` or `<action>…</action>` tag (the
 * first such tag is read; text around it is ignored). Names are case-insensitive, surrounding white space
 * is ignored.
 *
 * @param text - the reply
 * @returns the {@link Action} codes in order, at least one
 * @throws TypeError when `text` is not a string; SokobanError `INVALID_ACTION` naming the offending
 *   token when the text (or the tag's content) holds anything but action names
 *
 * @example
 * ```ts
 * console.log(parseActions('up'), parseActions('<answer>Right || Up</answer>'), parseActions('<action>left</action>'));
 * // [ 0 ] [ 3, 0 ] [ 2 ]
 * ```
 */
export function parseActions(text: string): number[] {
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${describeValue(text)}`);
  const tagged = TAGGED.exec(text);
  const body = tagged === null ? text : tagged[2]!;
  const tokens = body.split('||').map((t) => t.trim());
  return tokens.map((token) => {
    const action = ACTION_OF_NAME.get(token.toLowerCase());
    if (action === undefined) {
      throw new SokobanError(
        'INVALID_ACTION',
        `${describeValue(token)} in ${describeValue(text)} is not an action: expected Up, Down, Left or Right (case-insensitive), several joined by ||, optionally inside <answer>…</answer> or <action>…</action>`,
      );
    }
    return action;
  });
}
