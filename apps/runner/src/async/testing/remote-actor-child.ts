// An actor that joins a run from elsewhere, for the tests, run from TypeScript source:
// `node --conditions=@ftw/source --import ./register-ts.mjs remote-actor-child.ts <url> <pool> [waitMs]`.
// Like `ftw actor`, it reports a failure and sets exit code 1, then ends only when nothing holds it (a thrown
// error would end it at once, whatever it left open).
import { runRemoteActor } from '../redis-actor.js';

const [url, pool, wait] = process.argv.slice(2);
try {
  await runRemoteActor(url!, pool!, wait === undefined ? 30_000 : Number(wait));
} catch (error) {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
}
