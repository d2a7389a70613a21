// Runs the README's usage block against the source, on the private redis-server it starts itself
// (`startRedisServer()`, a free loopback port in a temp folder, stopped at its end, and by this file's
// afterAll if the block fails first), and checks every output its comments show:
// - `console.log(…); // output`: what it prints, token for token (line breaks and indentation aside);
// - `const name = …; // value`: the constant's value as `util.inspect` shows it, up to the value's end (what
//   follows is prose). In a shown value `…` stands for digits that change from run to run (the stream entry
//   ids are the server's clock in ms), and so does the port of a shown `redis://127.0.0.1:<port>` (a free port).
// The sentence after the block ("`tryUpdate` is `false` here") is checked too, and so is the comment that
// `readRange(range)` gives "the same pool again". Other comments are prose.
import { readFileSync } from 'node:fs';
import { format, inspect } from 'node:util';
import { splitComment, tokens } from '@ftw/internal/readme-block';
import { afterAll, describe, expect, it } from 'vitest';
import * as redisPool from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

// What the block opens, closed (again: closing twice is harmless) after the test, even when it fails.
const servers: redisPool.RedisServer[] = [];
const clients: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(servers.map((server) => server.stop()));
});
const lib = {
  ...redisPool,
  startRedisServer: async (options?: redisPool.RedisServerOptions) => {
    const server = await redisPool.startRedisServer(options);
    servers.push(server);
    return server;
  },
  RedisPool: {
    open: async (...args: Parameters<typeof redisPool.RedisPool.open>) => {
      const pool = await redisPool.RedisPool.open(...args);
      clients.push(pool);
      return pool;
    },
  },
  PoolMirror: {
    open: async (...args: Parameters<typeof redisPool.PoolMirror.open>) => {
      const mirror = await redisPool.PoolMirror.open(...args);
      clients.push(mirror);
      return mirror;
    },
  },
};

/** The value a comment starts with (a quoted string, or an object or array up to its closing bracket), or null. */
function leadingValue(comment: string): string | null {
  if (comment.startsWith("'")) return /^'[^']*'/.exec(comment)?.[0] ?? null;
  if (!comment.startsWith('{') && !comment.startsWith('[')) return null;
  let depth = 0;
  for (let i = 0; i < comment.length; i++) {
    if ('{['.includes(comment[i]!)) depth++;
    else if ('}]'.includes(comment[i]!) && --depth === 0) return comment.slice(0, i + 1);
  }
  return null;
}

/** A shown value as a pattern: `…` and the port of a loopback URL match any digits. */
const pattern = (shown: string): RegExp =>
  new RegExp(
    `^${shown
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replaceAll('…', '\\d+')
      .replace(/127\\\.0\\\.0\\\.1:\d+/g, '127\\.0\\.0\\.1:\\d+')}$`,
  );

describe('README usage', () => {
  it('prints what its comments say, on a private redis-server', async () => {
    const block = /## Usage\n\n```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const shown: { statement: string; output: string }[] = [];
    const program = block!
      .replace(/^import \{[\s\S]*?\} from '@ftw\/redis-pool';\n/m, '')
      .split('\n')
      .map((line) => {
        const { code, comment } = splitComment(line);
        if (comment === null) return line;
        if (/^console\.log\(.*\);\s*$/.test(code)) {
          shown.push({ statement: code, output: comment });
          return code.replace('console.log(', `log(${shown.length - 1}, `);
        }
        const declaration = /^const (\w+) = .*;\s*$/.exec(code);
        const value = declaration === null ? null : leadingValue(comment);
        if (value === null) return line;
        shown.push({ statement: code, output: value });
        return `${code} value(${shown.length - 1}, ${declaration![1]});`;
      })
      .join('\n')
      .replace('if (await learner.tryUpdate())', 'if (tried(await learner.tryUpdate()))');
    expect(program).toContain('tried(');
    const printed: string[][] = shown.map(() => []);
    const log = (i: number, ...args: unknown[]) => printed[i]!.push(tokens(format(...args)));
    const value = (i: number, v: unknown) => printed[i]!.push(tokens(inspect(v)));
    const tries: boolean[] = [];
    const tried = (granted: boolean) => {
      tries.push(granted);
      return granted;
    };
    const run = new Function(
      'lib',
      'log',
      'value',
      'tried',
      `return (async () => { const { ${Object.keys(lib).join(', ')} } = lib;\n${program}\nreturn { mirror, replay }; })();`,
    );
    const { mirror, replay } = await run(lib, log, value, tried);
    shown.forEach(({ statement, output }, i) => {
      expect(printed[i], statement).toHaveLength(1);
      expect(printed[i]![0], statement).toMatch(pattern(tokens(output)));
    });
    expect(shown.length).toBe(6);
    // "(`tryUpdate` is `false` here: …)"
    const claim = /\(`tryUpdate` is `(\w+)` here/.exec(readme)?.[1];
    expect(tries.map(String)).toEqual([claim]);
    // readRange(range): "the same pool again".
    expect(Buffer.compare(replay.toBytes(), mirror.pool.toBytes())).toBe(0);
    expect(replay.size).toBe(1);
  });
});
