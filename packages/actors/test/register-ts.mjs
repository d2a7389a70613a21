// `node --import ./test/register-ts.mjs child.ts` runs TypeScript source in a child process (see scripts/ts-hooks.mjs at the repository root).
import { register } from 'node:module';

register('../../../scripts/ts-hooks.mjs', import.meta.url);
