import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a run's code came from: recorded in `config.json`. */
export interface Provenance {
  /** Versions of the runner and the `@ftw` packages it composes. */
  readonly packages: Readonly<Record<string, string>>;
  /** Node.js version, e.g. `v20.20.2`. */
  readonly node: string;
  /** Git commit of the checkout the CLI runs from, or null outside a git work tree. */
  readonly gitCommit: string | null;
  /** Whether the work tree had uncommitted changes (null without git). */
  readonly gitDirty: boolean | null;
}

const PACKAGES = ['@ftw/selection', '@ftw/replay-pool', '@ftw/objective', '@ftw/bandit'] as const;

function readVersion(file: string): string {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
  return typeof json.version === 'string' ? json.version : 'unknown';
}

/** The runner's own package.json: the first one found walking up from this module. */
function runnerPackageJson(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
      if (json.name === '@ftw/runner') return file;
    } catch {
      // not here; keep walking up
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** A git command's trimmed output, or null when git is missing or fails (not a checkout). */
function git(args: string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout) => {
      resolve(error === null ? stdout.trim() : null);
    });
  });
}

/**
 * Collects package versions, the Node.js version and the git commit of the code being run.
 *
 * The commit is looked up from the CLI's own folder, not the working directory, so a run started anywhere
 * records the code that produced it. No git, or not a checkout: `gitCommit` is null. The two git commands
 * run as child processes in the background: a run asks for its provenance when it opens and reads it when
 * it finishes, so git runs beside the training instead of after it.
 *
 * @returns the provenance record, once git has answered
 * @example
 * ```ts
 * (await provenance()).packages['@ftw/selection']; // '0.1.0'
 * ```
 */
export async function provenance(): Promise<Provenance> {
  const require = createRequire(import.meta.url);
  const packages: Record<string, string> = {};
  const runner = runnerPackageJson();
  packages['@ftw/runner'] = runner === undefined ? 'unknown' : readVersion(runner);
  for (const name of PACKAGES) {
    try {
      packages[name] = readVersion(require.resolve(`${name}/package.json`));
    } catch {
      packages[name] = 'unknown';
    }
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const [gitCommit, status] = await Promise.all([
    git(['rev-parse', 'HEAD'], here),
    git(['status', '--porcelain', '--untracked-files=no'], here),
  ]);
  return {
    packages,
    node: process.version,
    gitCommit,
    gitDirty: gitCommit === null || status === null ? null : status.length > 0,
  };
}
