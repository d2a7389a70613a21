import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ACTOR_VARIABLE, type ActorLauncher } from '../actor-protocol.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Starts actor processes from the TypeScript source (tests run without a build). */
export const sourceLauncher: ActorLauncher = (task, restart = 0) =>
  spawn(process.execPath, ['--conditions=@ftw/source', '--import', './register-ts.mjs', 'actor-child.ts'], {
    cwd: here,
    env: { ...process.env, [ACTOR_VARIABLE]: JSON.stringify({ ...task, restart }) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });

/** Starts `ftw actor`'s work (`runRemoteActor`) from the TypeScript source, joining `pool` on `url`. */
export const startRemoteActor = (url: string, pool: string) =>
  spawn(
    process.execPath,
    ['--conditions=@ftw/source', '--import', './register-ts.mjs', 'remote-actor-child.ts', url, pool],
    { cwd: here, stdio: ['ignore', 'ignore', 'inherit'] },
  );
