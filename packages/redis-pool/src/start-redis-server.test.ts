import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { RedisPoolError } from './redis-pool-error.js';
import { startRedisServer } from './start-redis-server.js';

describe('startRedisServer', () => {
  it('starts a private server on loopback and removes its folder on stop', async () => {
    const server = await startRedisServer();
    try {
      expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
      const client = createClient({ url: server.url });
      await client.connect();
      expect(await client.ping()).toBe('PONG');
      expect(await client.configGet('appendonly')).toEqual({ appendonly: 'no' });
      await client.close();
    } finally {
      await server.stop();
      await server.stop();
    }
    expect(existsSync(server.dir)).toBe(false);
  });

  it('kills the server and removes its folder when the process exits without stop', async () => {
    // A process that starts a server with append-only files (its folder is not empty), then exits at once,
    // as a signal handler calling process.exit does.
    const child = spawnSync(
      process.execPath,
      ['--conditions=@ftw/source', '--import', './test/register-ts.mjs', 'test/child.ts', 'server'],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    expect(child.status, child.stderr).toBe(0);
    const { dir, pid } = JSON.parse(child.stdout.replace(/^server /, '')) as { dir: string; pid: number };
    expect(dir).toMatch(/ftw-redis-/);
    expect(existsSync(dir)).toBe(false);
    // The server got SIGKILL on the way out: within a moment it is gone, or a zombie awaiting its reaper.
    const state = () => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0];
      } catch {
        return 'gone';
      }
    };
    for (let i = 0; i < 50 && !['gone', 'Z', 'X'].includes(state()!); i++) {
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(['gone', 'Z', 'X']).toContain(state());
  });

  it('adds one exit listener to the process for any number of servers', async () => {
    // One per server (two, in fact) made a six-node cluster trip Node's MaxListenersExceededWarning.
    const before = process.listenerCount('exit');
    const servers = [];
    try {
      for (let i = 0; i < 3; i++) servers.push(await startRedisServer());
      await servers[0]!.kill();
      await servers[0]!.start();
      expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });

  it('passes further arguments to redis-server, after its own', async () => {
    const server = await startRedisServer({
      args: ['--maxmemory-policy', 'allkeys-lru', '--appendonly', 'yes'],
    });
    try {
      const client = createClient({ url: server.url });
      await client.connect();
      expect(await client.configGet('maxmemory-policy')).toEqual({ 'maxmemory-policy': 'allkeys-lru' });
      expect(await client.configGet('appendonly')).toEqual({ appendonly: 'yes' });
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('refuses arguments that are not an array of strings, before starting anything', async () => {
    for (const args of ['--port 1', ['--port', 1], [Symbol('x')]] as unknown as string[][]) {
      await expect(startRedisServer({ args, executable: '/nonexistent/redis-server' })).rejects.toThrow(
        TypeError,
      );
    }
    await expect(startRedisServer({ args: ['--port', 1] as unknown as string[] })).rejects.toThrow(
      'options.args[1] must be a string, got 1',
    );
  });

  it('says what to install when redis-server is missing', async () => {
    const error = await startRedisServer({ executable: '/nonexistent/redis-server' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RedisPoolError);
    expect((error as RedisPoolError).code).toBe('SERVER_NOT_FOUND');
    expect((error as Error).message).toMatch(/apt-get install redis-server/);
  });
});
