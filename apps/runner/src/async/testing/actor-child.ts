// An actor process for the tests, run from TypeScript source:
// `node --conditions=@ftw/source --import ./register-ts.mjs actor-child.ts` with FTW_ASYNC_ACTOR set.
import { ACTOR_VARIABLE } from '../actor-protocol.js';
import { exitWithLearner, followTasks } from '../redis-actor.js';

exitWithLearner();
await followTasks(JSON.parse(process.env[ACTOR_VARIABLE]!));
