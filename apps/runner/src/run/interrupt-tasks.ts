/** How long an interrupted run waits for its interrupt tasks before it exits anyway. */
export const INTERRUPT_GRACE_MS = 2_000;

const tasks = new Set<() => unknown>();

/**
 * Registers work that an interrupted run (SIGINT, SIGTERM) does before its process exits: a learner over
 * Redis marks its pool `interrupted`, so that actors that joined from other machines stop at once instead of
 * after their `--wait`. The tasks run together and get {@link INTERRUPT_GRACE_MS} in all; a second signal
 * ends the process at once.
 *
 * @param task - the work (may return a promise; a failure is ignored: the process is exiting)
 * @returns a function that unregisters the task (call it once the work it guards is over)
 * @example
 * ```ts
 * const forget = onInterrupt(() => pool.writeNote('state', 'interrupted'));
 * try { await train(); } finally { forget(); }
 * ```
 */
export function onInterrupt(task: () => unknown): () => void {
  tasks.add(task);
  return () => {
    tasks.delete(task);
  };
}

/**
 * Runs the registered interrupt tasks (see {@link onInterrupt}) and forgets them.
 *
 * @param graceMs - how long to wait for them, at most
 * @returns a promise resolved when every task has settled, or after `graceMs`
 */
export async function runInterruptTasks(graceMs: number = INTERRUPT_GRACE_MS): Promise<void> {
  const pending = [...tasks].map(async (task) => task());
  tasks.clear();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(pending),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
}
