// Runs the README's usage block against the source: its TypeScript is transpiled (types stripped), the
// imports become the packages' exports, and what its `console.log` prints must be the comment line right
// after it. The block starts a private redis-server and stops it; this file stops it too if the block fails.
import { readFileSync } from 'node:fs';
import { format } from 'node:util';
import * as redisPool from '@ftw/redis-pool';
import * as trainer from '@ftw/trainer';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import * as actors from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const servers: redisPool.RedisServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe('README usage', () => {
  const block = /## Usage\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? '';

  it('trains with an actor over Redis and prints what its comments say', async () => {
    const lines = block.split('\n');
    const expected = lines.flatMap((line, k) =>
      line.includes('console.log(') && lines[k + 1]?.startsWith('// ') ? [lines[k + 1]!.slice(3)] : [],
    );
    const source = block.replace(/import \{[^}]*\} from '@ftw\/[a-z-]+';/g, '');
    const js = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const printed: string[] = [];
    const console = { log: (...args: unknown[]) => printed.push(format(...args)) };
    const lib = {
      ...trainer,
      ...redisPool,
      ...actors,
      startRedisServer: async () => {
        const server = await redisPool.startRedisServer();
        servers.push(server);
        return server;
      },
    };
    const names = Object.keys(lib).join(', ');
    const AsyncFunction = (async () => {}).constructor as new (
      ...args: string[]
    ) => (...a: unknown[]) => Promise<void>;
    await new AsyncFunction('lib', 'console', `const { ${names} } = lib;\n${js}`)(lib, console);
    expect(expected.length).toBeGreaterThan(0);
    expect(printed).toEqual(expected);
  });
});
