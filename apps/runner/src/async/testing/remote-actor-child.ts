// An actor that joins a run from elsewhere, for the tests, run from TypeScript source:
// `node --conditions=@ftw/source --import ./register-ts.mjs remote-actor-child.ts <url> <pool> [waitMs]`.
import { runRemoteActor } from '../redis-actor.js';

const [url, pool, wait] = process.argv.slice(2);
await runRemoteActor(url!, pool!, wait === undefined ? 30_000 : Number(wait));
