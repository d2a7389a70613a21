import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The runner's folder. */
export const RUNNER = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built CLI the end-to-end tests spawn. */
export const CLI = join(RUNNER, 'dist', 'cli.js');

const DEPENDENCIES = ['selection', 'replay-pool', 'objective', 'bandit'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Makes sure `dist/cli.js` and the packages' `dist/` exist and are newer than the runner's sources; if not,
 * builds them with turbo (which `pnpm test` through turbo has already done: test depends on build).
 */
export function ensureBuilt(): void {
  const packagesBuilt = DEPENDENCIES.every((name) =>
    existsSync(join(RUNNER, '..', '..', 'packages', name, 'dist', 'index.js')),
  );
  const fresh = existsSync(CLI) && statSync(CLI).mtimeMs >= newestSource(join(RUNNER, 'src'));
  if (packagesBuilt && fresh) return;
  execFileSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@ftw/runner...', '--output-logs=errors-only'],
    {
      cwd: join(RUNNER, '..', '..'),
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
      stdio: 'inherit',
    },
  );
}
