// Test helper: runs test/child.ts in a separate Node process and lets a test wait for its output and
// SIGKILL it. Every child started is killed after the test file, even when a test fails.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

export interface Child {
  /** Resolves with the first output line after this call that starts with `prefix`. */
  next(prefix: string): Promise<string>;
  /** SIGKILLs the child and waits for it to exit. */
  kill(): Promise<void>;
}

export function spawnChild(args: readonly string[]): Child {
  const child = spawn(
    process.execPath,
    ['--conditions=@ftw/source', '--import', './test/register-ts.mjs', 'test/child.ts', ...args],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let buffer = '';
  let err = '';
  const waiting: { prefix: string; resolve: (line: string) => void; reject: (e: Error) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      for (const w of [...waiting]) {
        if (line.startsWith(w.prefix)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      children.delete(child);
      for (const w of waiting) w.reject(new Error(`child exited: ${err}`));
      resolve();
    }),
  );
  return {
    next: (prefix) => new Promise((resolve, reject) => waiting.push({ prefix, resolve, reject })),
    kill: () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
}
