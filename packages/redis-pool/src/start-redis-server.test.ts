import { existsSync } from 'node:fs';
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
