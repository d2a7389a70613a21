import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { VIEW_CLIENT_BUILD } from '../view-client.tsup.ts';

/** The runner's folder. */
export const RUNNER = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A CLI built for one test file, and how to remove it. */
export interface BuiltCli {
  /** Path of the built `cli.js` to spawn with `node`. */
  readonly cli: string;
  /** Deletes the build. */
  readonly remove: () => void;
}

/**
 * Builds the CLI the end-to-end tests run, from the current sources of the runner and of every `@ftw`
 * package it uses (read through the `@ftw/source` export condition and bundled in), so a test can never
 * run a stale `dist/` of the runner or of a package, nor depend on another build being up to date.
 * Third-party dependencies stay external and resolve from the runner's `node_modules`, as in `dist/`.
 *
 * The build goes to a fresh folder under `node_modules/.cache/` of the runner (so that module resolution
 * and the provenance lookup of the runner's package.json work as from `dist/`); `remove` deletes it.
 *
 * @returns the built CLI
 */
export async function buildCli(): Promise<BuiltCli> {
  const cache = join(RUNNER, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'ftw-e2e-'));
  await build({
    entry: { cli: join(RUNNER, 'src', 'cli.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
    config: false,
    noExternal: [/^@ftw\//],
    esbuildOptions(options) {
      options.conditions = ['@ftw/source'];
    },
  });
  // The `ftw view` page script, beside the CLI as in dist/ (train, compare and reproduce write report.html).
  await build({ ...VIEW_CLIENT_BUILD, outDir, silent: true, config: false });
  return { cli: join(outDir, 'cli.js'), remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
