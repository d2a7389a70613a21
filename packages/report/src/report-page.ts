import { pageAssets } from './page-assets.js';
import { renderPage } from './render-page.js';
import type { RunData } from './run-data.js';
import { type ViewModelOptions, viewModel } from './view-model.js';

/**
 * The `report.html` of runs: their learning curves, summary tables, configuration differences and the live
 * Figure 1 widget, in one self-contained page that opens offline. `ftw view` writes it for the runs it is
 * given; `train`, `compare` and `reproduce` write it for their own run beside `report.md`.
 *
 * @param runs - the runs to lay side by side (at least one), e.g. from {@link readRunFolder}
 * @param options - how to name environments (see {@link ViewModelOptions})
 * @returns the HTML text
 * @throws Error when the page script is not built (see {@link pageAssets})
 * @example
 * ```ts
 * writeFileSync('report.html', reportPage([await readRunFolder('runs/reproduce')]));
 * ```
 */
export function reportPage(runs: readonly RunData[], options: ViewModelOptions = {}): string {
  return renderPage(viewModel(runs, options), pageAssets());
}
