// An actor process for the tests, run from TypeScript source:
// `node --conditions=@ftw/source --import ./test/register-ts.mjs test/actor-child.ts <url> <pool> <prefix> <hotLoad> [runId] [kind]`.
// It acts in the corridor with the linear policy until killed; a refusal (run or architecture) is printed
// on stderr as one line with exit code 2.
import { RedisPool } from '@ftw/redis-pool';
import { ActorsError } from '../src/actors-error.js';
import { runActor } from '../src/run-actor.js';
import { Corridor, corridorPolicy, lehmer } from './corridor.js';

const [url, name, prefix, hotLoad, runId, kind] = process.argv.slice(2);
const pool = await RedisPool.open(url!, { name: name! });
try {
  await runActor({
    pool,
    env: new Corridor(),
    policy: corridorPolicy(),
    random: lehmer(Number(prefix!.replace(/\D/g, '')) + 1),
    hotLoad: hotLoad as 'episode' | 'step',
    idPrefix: prefix!,
    ...(runId === undefined ? {} : { expected: { runId, kind: kind ?? 'linear' } }),
  });
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof ActorsError ? 2 : 1;
} finally {
  await pool.close();
}
