// Builds a runner entry point (the CLI, or the training module) from the current sources of the runner
// and of every @ftw package it uses, read through the `@ftw/source` export condition and bundled in, so
// what runs can never be a stale `dist/` of the runner or of a package. Used by the end-to-end tests,
// `pnpm run docs` and `pnpm bench`.
//
// Third-party imports stay external. Those of the runner resolve from its node_modules at run time, as
// from dist/; those of a bundled package (zod for @ftw/agent-data, say) are resolved now, from that
// package, and imported by absolute path, since the runner need not depend on them.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const runner = join(dirname(fileURLToPath(import.meta.url)), '..');
const runnerSource = join(runner, 'src') + sep;

/** @type {import('esbuild').Plugin} */
const packageDependencies = {
  name: 'ftw-package-dependencies',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@ftw/') || args.path.startsWith('node:')) return undefined;
      if (args.importer.startsWith(runnerSource) || args.pluginData === 'inner') return undefined;
      const resolved = await esbuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'inner',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
  },
};

/**
 * @param {{ entry?: string, name?: string }} [options] - entry file relative to the runner (default the
 *   CLI) and output name without extension (default `cli`)
 * @returns {Promise<{ file: string, remove: () => void }>} the built module and how to delete it
 */
export async function buildFromSource(options = {}) {
  const cache = join(runner, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  // Under the runner's node_modules, so that its dependencies resolve and the provenance lookup finds
  // the runner's package.json by walking up, as from dist/.
  const outDir = mkdtempSync(join(cache, 'ftw-build-'));
  const name = options.name ?? 'cli';
  await build({
    entry: { [name]: join(runner, options.entry ?? 'src/cli.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    clean: false,
    silent: true,
    config: false,
    // `.js` whatever the working directory's package.json says (tsup would pick `.mjs` outside an ESM package).
    outExtension: () => ({ js: '.js' }),
    noExternal: [/^@ftw\//],
    esbuildPlugins: [packageDependencies],
    esbuildOptions(esbuildOptions) {
      esbuildOptions.conditions = ['@ftw/source'];
    },
  });
  return { file: join(outDir, `${name}.js`), remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
