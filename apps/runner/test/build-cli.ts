import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without declarations (typed by its JSDoc)
import { buildFromSource } from '../scripts/build-from-source.mjs';

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
 * Builds the CLI the end-to-end tests run from the current sources of the runner and of every `@ftw`
 * package it uses (`scripts/build-from-source.mjs`), so a test never runs a stale `dist/` of the runner
 * or of a package, nor depends on another build being up to date.
 *
 * @returns the built CLI; call `remove` when done
 */
export async function buildCli(): Promise<BuiltCli> {
  const built = (await buildFromSource()) as { file: string; remove: () => void };
  return { cli: built.file, remove: built.remove };
}
