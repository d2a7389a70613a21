// Child process for the fault tests, run with `node --conditions=@ftw/source --import ./test/register-ts.mjs`.
//   push <url> <name> <steps> : pushes trajectories of <steps> steps forever, printing "pushed <count>"
//   learn <url> <name>        : syncs a mirror and publishes versions 1, 2, … forever, printing "version <v>"
//   server                    : starts a private server with append-only files, writes a key, prints
//                               "server <json of its dir and pid>" and exits at once without stopping it
import { createClient } from 'redis';
import { PoolMirror } from '../src/pool-mirror.js';
import { RedisPool } from '../src/redis-pool.js';
import { startRedisServer } from '../src/start-redis-server.js';

const [mode, url, name, arg] = process.argv.slice(2) as [string, string, string, string];

if (mode === 'push') {
  const pool = await RedisPool.open(url, { name });
  const steps = Number(arg);
  const actions = new Int32Array(steps).fill(1);
  const logProbs = new Float64Array(steps).fill(-0.5);
  for (let batch = 0; ; batch++) {
    const trajectories = Array.from({ length: 20 }, (_, k) => ({
      actions,
      logProbs,
      versions: batch,
      return: batch * 20 + k,
      metadata: { batch, k },
    }));
    await pool.pushMany(trajectories, { ids: trajectories.map((_, k) => `child-${batch}-${k}`) });
    process.stdout.write(`pushed ${(batch + 1) * 20}\n`);
  }
} else if (mode === 'learn') {
  const pool = await RedisPool.open(url, { name });
  const mirror = await PoolMirror.open(url, { name });
  const start = (await pool.readPolicyVersion()) ?? 0;
  for (let version = start + 1; ; version++) {
    await mirror.sync();
    await pool.acquireUpdate();
    await pool.publishPolicy(version, new Uint8Array(new Float64Array([version, mirror.pool.size]).buffer));
    process.stdout.write(`version ${version}\n`);
  }
} else if (mode === 'server') {
  const server = await startRedisServer({ appendonly: true });
  const client = await createClient({ url: server.url }).connect();
  await client.set('k', 'v');
  const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))![1]);
  await client.quit();
  process.stdout.write(`server ${JSON.stringify({ dir: server.dir, pid })}\n`);
  process.exit(0);
}
