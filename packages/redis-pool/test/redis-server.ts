// Test helper: one private redis-server per test file, started before its tests and stopped (folder
// removed) after them, even when a test fails.
import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, type RedisServerOptions, startRedisServer } from '../src/start-redis-server.js';

/**
 * Starts a redis-server for the current test file.
 *
 * @returns a getter for the running server (valid inside tests)
 */
export function useRedisServer(options: RedisServerOptions = {}): () => RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer(options);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error('the test redis-server is not running');
    return server;
  };
}

let counter = 0;
/** A pool name unique within this process, so tests sharing a server never share a pool. */
export const uniqueName = (prefix: string): string => `${prefix}-${process.pid}-${counter++}`;
