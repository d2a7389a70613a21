import { describeValue } from '@ftw/internal';

/**
 * Wraps an injected uniform generator so that every draw is checked: a generator that returns 1, a
 * negative number or NaN would otherwise bias rewards silently.
 *
 * @param random - the injected function
 * @param name - the parameter name for the message
 * @returns a function that returns `random()` and throws when it is outside [0, 1)
 * @throws TypeError when `random` is not a function
 */
export function checkedUniform(random: unknown, name: string): () => number {
  if (typeof random !== 'function')
    throw new TypeError(`${name} must be a function, got ${describeValue(random)}`);
  const draw = random as () => unknown;
  return () => {
    const u = draw();
    if (typeof u !== 'number' || !(u >= 0 && u < 1)) {
      throw new RangeError(`${name}() must return a number in [0, 1), got ${describeValue(u)}`);
    }
    return u;
  };
}
