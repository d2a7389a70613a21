import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The scripts a view page inlines, in load order. */
export interface PageAssets {
  /** The page's script, Vega included. */
  readonly scripts: readonly { readonly name: string; readonly source: string }[];
}

/** Source-map comments would make developer tools fetch a file that is not there. */
function stripSourceMap(source: string): string {
  return source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

/**
 * Where the page script is: beside this module (the package's `dist/`, or the folder of a program that
 * bundled this module and put the script beside itself), else wherever `@ftw/report` resolves from here
 * (the package's own folder when run from its sources, a workspace or `node_modules` copy otherwise).
 */
function clientFile(): string {
  const beside = fileURLToPath(new URL('./view-client.js', import.meta.url));
  if (existsSync(beside)) return beside;
  try {
    return createRequire(import.meta.url).resolve('@ftw/report/view-client.js');
  } catch {
    throw new Error(
      `${beside} is missing and @ftw/report/view-client.js does not resolve: build the package first (pnpm --filter @ftw/report build)`,
    );
  }
}

let cached: PageAssets | undefined;

/**
 * Loads the script every view page inlines: `view-client.js`, which the package's build bundles for the
 * browser from `src/client/` together with `@ftw/selection`, the parts of Vega the page uses (its View and
 * the charts' transforms, no parser), vega-tooltip and the page's chart templates, compiled from Vega-Lite
 * and parsed by Vega at that build (tsup/esbuild, one IIFE; see view-client.tsup.ts): no page and no run
 * compiles or parses a chart. Read once per process.
 *
 * @returns the scripts, in load order
 * @throws Error when `view-client.js` is neither beside this module nor resolvable as
 *   `@ftw/report/view-client.js` (the package is not built: `pnpm --filter @ftw/report build`)
 * @example
 * ```ts
 * pageAssets().scripts.map((s) => s.name); // ['ftw view']
 * ```
 */
export function pageAssets(): PageAssets {
  if (cached !== undefined) return cached;
  const files = [['ftw view', clientFile()]] as const;
  cached = {
    scripts: files.map(([name, file]) => ({ name, source: stripSourceMap(readFileSync(file, 'utf8')) })),
  };
  return cached;
}
