import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeValue } from '@ftw/internal';
import { RedisPoolError } from './redis-pool-error.js';

/** Options of {@link startRedisServer}. */
export interface RedisServerOptions {
  /**
   * Append-only persistence with `appendfsync always`, so that a restart (even after SIGKILL) keeps
   * every acknowledged write.
   * @defaultValue false
   */
  readonly appendonly?: boolean;
  /**
   * The `redis-server` executable.
   * @defaultValue 'redis-server' (looked up on PATH)
   */
  readonly executable?: string;
  /**
   * How long to wait for the server to accept connections.
   * @defaultValue 10000
   */
  readonly startTimeoutMs?: number;
  /**
   * Further `redis-server` arguments, after the ones this function sets (a later option wins), for
   * instance `['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']` for a node of a Redis
   * Cluster (the file lands in the server's `dir`).
   * @defaultValue []
   */
  readonly args?: readonly string[];
}

/** A `redis-server` process started by {@link startRedisServer}. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** The loopback port it listens on. */
  readonly port: number;
  /** Its working directory (append-only files), removed by `stop`, or when the Node process exits. */
  readonly dir: string;
  /** Stops it gracefully (SIGTERM) and keeps `dir`; `start` brings it back on the same port and dir. */
  shutdown(): Promise<void>;
  /** Kills it with SIGKILL and keeps `dir` (a crash). */
  kill(): Promise<void>;
  /** Starts it again after `shutdown` or `kill`, same port and dir. */
  start(): Promise<void>;
  /** Stops it if running and removes `dir`. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * What the Node process does at exit for the servers still running: kill them, then remove their folders.
 * One 'exit' listener serves every server (one each would trip Node's MaxListenersExceededWarning at the
 * eleventh, e.g. a six-node cluster, and order the removals among the kills).
 */
const atExit = { kills: new Set<() => void>(), removals: new Set<() => void>(), listening: false };

function onExit(set: Set<() => void>, task: () => void): void {
  set.add(task);
  if (atExit.listening) return;
  atExit.listening = true;
  process.once('exit', () => {
    for (const kill of atExit.kills) kill();
    for (const remove of atExit.removals) remove();
  });
}

/** A free loopback port: bind port 0, read the port the kernel chose, release it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a private `redis-server` on a free loopback port in a fresh temporary folder, with RDB
 * snapshots off (`--save ''`) and append-only persistence as asked. For tests, benchmarks and runs that
 * need a Redis of their own; when the Node process exits without `stop` (a signal's handler that calls
 * `process.exit`, say), the server is killed and its folder removed all the same.
 *
 * @param options - persistence, executable, start timeout, further arguments
 * @returns the running server
 * @throws RedisPoolError `SERVER_NOT_FOUND` when the executable is missing (with what to install),
 *   `SERVER_START` when it exits or is not ready in time; TypeError, before anything starts, when
 *   `options.args` is not an array of strings
 * @example
 * ```ts
 * const server = await startRedisServer();
 * console.log(server.url); // redis://127.0.0.1:39153
 * await server.stop();
 * ```
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const extra = options.args ?? [];
  if (!Array.isArray(extra)) {
    throw new TypeError(`options.args must be an array of strings, got ${describeValue(extra)}`);
  }
  const bad = extra.findIndex((a) => typeof a !== 'string');
  if (bad >= 0) {
    throw new TypeError(`options.args[${bad}] must be a string, got ${describeValue(extra[bad])}`);
  }
  const executable = options.executable ?? 'redis-server';
  const probe = spawnSync(executable, ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined) {
    throw new RedisPoolError(
      'SERVER_NOT_FOUND',
      `${executable} was not found; install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or pass a Redis URL`,
      { cause: probe.error },
    );
  }
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ftw-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--daemonize',
    'no',
  ];
  args.push(
    ...(options.appendonly === true
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no']),
    ...extra,
  );

  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const killAtExit = () => child?.kill('SIGKILL');

  const start = async (): Promise<void> => {
    const proc = spawn(executable, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    onExit(atExit.kills, killAtExit);
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(
          new RedisPoolError(
            'SERVER_START',
            `redis-server was not ready within ${startTimeoutMs} ms: ${output.slice(-500)}`,
          ),
        );
      }, startTimeoutMs);
      proc.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new RedisPoolError(
            'SERVER_START',
            `redis-server exited (${code ?? signal}): ${output.slice(-500)}`,
          ),
        );
      });
    });
    // Keep draining its output so that a full pipe never blocks it.
    proc.stdout.resume();
  };

  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
    atExit.kills.delete(killAtExit);
  };

  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let removed = false;
  // After every server has been killed; the folder is empty unless append-only files were asked for, and a
  // last write racing the removal is retried.
  const removeAtExit = (): void => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Exiting: nothing more can be done, and a leftover temporary folder is harmless.
    }
  };
  onExit(atExit.removals, removeAtExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    shutdown: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    start,
    stop: async () => {
      await halt('SIGTERM');
      if (!removed) rmSync(dir, { recursive: true, force: true });
      removed = true;
      atExit.removals.delete(removeAtExit);
    },
  };
}
