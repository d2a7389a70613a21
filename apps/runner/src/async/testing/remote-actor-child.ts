// An actor that joins a run from elsewhere, for the tests, run from TypeScript source:
// `node --conditions=@ftw/source --import ./register-ts.mjs remote-actor-child.ts <url> <pool>`.
import { runRemoteActor } from '../redis-actor.js';

const [url, pool] = process.argv.slice(2);
await runRemoteActor(url!, pool!, 30_000);
