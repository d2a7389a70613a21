/**
 * Lets pending events run (signal handlers, stream writes) before a long synchronous computation
 * continues.
 *
 * @returns a promise resolved on the next turn of the event loop
 * @example
 * ```ts
 * for (const seed of seeds) { train(seed); await yieldToEventLoop(); } // Ctrl-C is handled between seeds
 * ```
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
