// `node --import ./test/register-ts.mjs child.ts` runs TypeScript source in a child process (see ts-hooks.mjs).
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
