import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scripts a view page inlines, in load order. */
export interface PageAssets {
  /** The page's script, Vega included. */
  readonly scripts: readonly { readonly name: string; readonly source: string }[];
}

/** The runner's folder: the first `package.json` named `@ftw/runner` walking up from this module. */
function runnerFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const file = join(dir, 'package.json');
    if (
      existsSync(file) &&
      (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === '@ftw/runner'
    ) {
      return dir;
    }
    dir = dirname(dir);
  }
  throw new Error(`cannot find the @ftw/runner package above ${fileURLToPath(import.meta.url)}`);
}

/** Source-map comments would make developer tools fetch a file that is not there. */
function stripSourceMap(source: string): string {
  return source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

let cached: PageAssets | undefined;

/**
 * Loads the script every view page inlines: `view-client.js` beside the CLI, which the runner's build
 * bundles for the browser from `src/view/client/` together with `@ftw/selection`, the parts of Vega the
 * page uses (its View and the charts' transforms, no parser), vega-tooltip and the page's chart templates,
 * compiled from Vega-Lite and parsed by Vega at that build (tsup/esbuild, one IIFE; see
 * view-client.tsup.ts): no page and no run compiles or parses a chart. Read once per process.
 *
 * @returns the scripts, in load order
 * @throws Error when `dist/view-client.js` is missing (the runner is not built: `pnpm --filter @ftw/runner build`)
 * @example
 * ```ts
 * pageAssets().scripts.map((s) => s.name); // ['ftw view']
 * ```
 */
export function pageAssets(): PageAssets {
  if (cached !== undefined) return cached;
  // Beside the running CLI (dist/, or the end-to-end tests' build); from the sources, the runner's dist/.
  const beside = fileURLToPath(new URL('./view-client.js', import.meta.url));
  const client = existsSync(beside) ? beside : join(runnerFolder(), 'dist', 'view-client.js');
  if (!existsSync(client)) {
    throw new Error(`${client} is missing: build the runner first (pnpm --filter @ftw/runner build)`);
  }
  const files = [['ftw view', client]] as const;
  cached = {
    scripts: files.map(([name, file]) => ({ name, source: stripSourceMap(readFileSync(file, 'utf8')) })),
  };
  return cached;
}
