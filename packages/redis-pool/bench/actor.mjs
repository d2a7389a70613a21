// One benchmark actor process: connects, prints "ready", waits for "go" on stdin, pushes its share of
// one-step trajectories in batches, prints "done". Modes:
//   bare <url> <key> <count> <batch> <trim>  — a bare node-redis loop of XADD (MAXLEN <trim> N), one batch pipelined at a time
//   pool <url> <name> <count> <batch>        — RedisPool.pushMany of one batch at a time (ids, Lua, dedupe)
import { encodeTrajectory } from '@ftw/replay-pool';
import { createClient } from 'redis';
import { RedisPool } from '../dist/index.js';

const [mode, url, name, countText, batchText, trim] = process.argv.slice(2);
const count = Number(countText);
const batch = Number(batchText);
const trajectory = { actions: [1], logProbs: [-Math.LN2], versions: 3, return: 1 };
const payload = Buffer.from(encodeTrajectory(trajectory));
const tag = `${process.pid}-`;

let push;
let close;
if (mode === 'bare') {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  push = (start, size) => {
    const replies = [];
    for (let k = 0; k < size; k++) {
      replies.push(
        client.sendCommand([
          'XADD',
          name,
          'MAXLEN',
          trim,
          '10000',
          '*',
          'id',
          tag + (start + k),
          'n',
          String(start + k),
          't',
          payload,
        ]),
      );
    }
    return Promise.all(replies);
  };
  close = () => client.close();
} else {
  const pool = await RedisPool.open(url, { name });
  push = (start, size) =>
    pool.pushMany(
      Array.from({ length: size }, () => trajectory),
      { ids: Array.from({ length: size }, (_, k) => tag + (start + k)) },
    );
  close = () => pool.close();
}

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let start = 0; start < count; start += batch) await push(start, Math.min(batch, count - start));
process.stdout.write('done\n');
await close();
process.exit(0);
