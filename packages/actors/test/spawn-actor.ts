// Test helper: starts test/actor-child.ts in its own Node process; every child started is killed after the
// test file, even when a test fails.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** A started actor: its process, what it printed on stderr, and how to stop it. */
export interface SpawnedActor {
  readonly process: ChildProcess;
  stderr(): string;
  /** Waits for it to exit by itself: its exit code. */
  exited(): Promise<number | null>;
  /** SIGKILLs it and waits for the exit. */
  kill(): Promise<void>;
}

export function spawnActor(args: readonly string[]): SpawnedActor {
  const child = spawn(
    process.execPath,
    ['--conditions=@ftw/source', '--import', './test/register-ts.mjs', 'test/actor-child.ts', ...args],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.add(child);
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return {
    process: child,
    stderr: () => err,
    exited: () => exit,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
      children.delete(child);
    },
  };
}
