// Makes sure the programs a test command runs for real are installed: `node scripts/system-packages.mjs
// redis-server redis-cli chromium`. The tests start their own redis-server and a headless Chromium (never
// mocks), so a missing program must stop the run before any test does, not fail tests one by one.
//
// When a program is missing and the machine can install it (apt-get, as root or with password-less sudo)
// it installs the Debian packages that provide them. Otherwise, or with FTW_NO_INSTALL=1, it prints one
// message naming each missing program, its package and the command that installs them, and exits 1.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The Debian package of each program a test needs, and the environment variable that can point at it. */
const PROGRAMS = {
  'redis-server': { debian: 'redis-server', env: undefined },
  'redis-cli': { debian: 'redis-tools', env: undefined },
  chromium: { debian: 'chromium', env: 'CHROMIUM' },
};

/** True when `file` exists and may be executed. */
function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path on PATH, or undefined. */
export function findOnPath(program, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (dir !== '' && executable(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** The programs among `wanted` that are not installed (an environment variable may name one's path). */
export function missingPrograms(wanted, env = process.env) {
  return wanted.filter((program) => {
    const variable = PROGRAMS[program].env;
    if (variable !== undefined && env[variable] !== undefined && executable(env[variable])) return false;
    return findOnPath(program, env.PATH) === undefined;
  });
}

/** How this process may run apt-get: directly (root), through `sudo -n`, or not at all. */
function installer(env) {
  if (env.FTW_NO_INSTALL === '1' || findOnPath('apt-get', env.PATH) === undefined) return undefined;
  if (process.getuid?.() === 0) return [];
  if (findOnPath('sudo', env.PATH) === undefined) return undefined;
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0 ? ['sudo', '-n'] : undefined;
}

function main(argv) {
  const wanted = argv.length > 0 ? argv : Object.keys(PROGRAMS);
  const unknown = wanted.filter((program) => !(program in PROGRAMS));
  if (unknown.length > 0) {
    console.error(
      `system-packages: unknown program ${unknown.join(', ')}; known: ${Object.keys(PROGRAMS).join(', ')}`,
    );
    return 2;
  }
  const missing = missingPrograms(wanted);
  if (missing.length === 0) return 0;
  const packages = [...new Set(missing.map((program) => PROGRAMS[program].debian))];
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  const prefix = installer(process.env);
  if (prefix !== undefined) {
    console.log(`installing Debian packages the tests run for real: ${packages.join(' ')}`);
    const run = (...args) => {
      const argv = [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args];
      execFileSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
    };
    try {
      run('update', '-qq');
      run('install', '-y', '-qq', '--no-install-recommends', ...packages);
    } catch {
      // Reported below with the programs still missing.
    }
    const still = missingPrograms(wanted);
    if (still.length === 0) return 0;
    missing.splice(0, missing.length, ...still);
  }
  const names = missing.map((program) => `${program} (Debian package ${PROGRAMS[program].debian})`);
  console.error(
    `missing: ${names.join(', ')}. The tests run them for real. Install with: sudo ${command}` +
      (missing.includes('chromium') ? ' (or set CHROMIUM to a Chromium binary)' : ''),
  );
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
