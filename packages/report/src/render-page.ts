import { escapeMarkup } from './escape-markup.js';
import type { PageAssets } from './page-assets.js';
import type { SummaryTable } from './summary-tables.js';
import type { ViewModel } from './view-model.js';

/** Script text that cannot end its `<script>` element early. */
function scriptText(source: string): string {
  return source.replaceAll('</script', '<\\/script').replaceAll('<!--', '<\\!--');
}

function table(t: SummaryTable, className = ''): string {
  const head = t.columns.map((c) => `<th>${escapeMarkup(c)}</th>`).join('');
  const body = t.rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escapeMarkup(c)}</th>` : `<td>${escapeMarkup(c)}</td>`)).join('')}</tr>`,
    )
    .join('\n');
  return `<div class="table-wrap"><table class="${className}"><caption>${escapeMarkup(t.title)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function configSection(model: ViewModel): string {
  const { keys, values, identical } = model.configDiff;
  if (model.groups.length < 2) {
    return `<p>One configuration: nothing to compare (its ${identical} keys are in the run’s <code>config.json</code>).</p>`;
  }
  if (keys.length === 0) {
    return `<p>All ${identical} configuration keys are identical in every run.</p>`;
  }
  return `${table(
    {
      title: `Configuration keys that differ (${keys.length}; ${identical} more are identical in every run)`,
      columns: ['key', ...model.groups.map((g) => g.label)],
      rows: keys.map((k, i) => [k, ...values[i]!]),
    },
    'config-diff',
  )}`;
}

const STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --panel: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 1320px; margin: 0 auto; padding: 0 20px; }
h1 { font-size: 22px; margin: 18px 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.muted { color: var(--muted); }
.notices { list-style: none; padding: 0; margin: 12px 0; }
.notices li { background: #fff8c5; border: 1px solid #d4a72c66; border-radius: 6px; padding: 8px 12px; margin: 6px 0; }
.notices li.error { background: #ffebe9; border-color: #ff818266; }
#legend { position: sticky; top: 0; z-index: 5; background: var(--panel); border-bottom: 1px solid var(--line); padding: 8px 20px; }
#legend .row { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; margin: 2px 0; max-width: 1320px; margin-inline: auto; }
#legend .row > b { min-width: 70px; font-weight: 600; }
#legend label { display: inline-flex; align-items: center; gap: 4px; cursor: pointer; user-select: none; white-space: nowrap; }
#legend .swatch { display: inline-block; width: 14px; height: 4px; border-radius: 2px; }
#legend .seeds { display: inline-flex; flex-wrap: wrap; gap: 2px 10px; max-height: 3.2em; overflow: auto; }
#legend button { font: inherit; padding: 0 6px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(600px, 1fr)); gap: 12px 20px; }
figure.chart { margin: 0; padding: 6px 0; min-height: 320px; }
figure.chart figcaption { font-weight: 600; }
.export { font-size: 12px; } .export a { color: var(--muted); margin-right: 10px; }
.table-wrap { overflow-x: auto; margin: 12px 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; white-space: nowrap; }
th[scope=row], thead th:first-child { text-align: left; }
thead th { background: var(--panel); }
#figure-1 form { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; margin: 8px 0; }
#figure-1 label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
#figure-1 input { font: inherit; width: 110px; padding: 2px 4px; }
#figure-1 .error { color: #cf222e; min-height: 1.4em; }
code { background: var(--panel); padding: 0 3px; border-radius: 3px; }
`;

/**
 * Renders the view page: one self-contained HTML file that draws everything offline. Notices, summary
 * tables and the configuration differences are written as HTML (readable even with scripts off); the
 * charts, the legend and the Figure 1 widget are drawn by the page script from the model embedded as JSON.
 * A Content-Security-Policy of `default-src 'none'` forbids the page any request (scripts and styles are
 * inline; Vega compiles its expressions, hence `'unsafe-eval'`).
 *
 * @param model - what to show (see {@link viewModel})
 * @param assets - the inlined scripts (see {@link pageAssets})
 * @returns the HTML text
 * @throws never: every text of the model is escaped, and its JSON cannot end the data script early
 * @example
 * ```ts
 * writeFileSync('report.html', renderPage(viewModel(runs), pageAssets()));
 * ```
 */
export function renderPage(model: ViewModel, assets: PageAssets): string {
  const notices = model.notices.map((n) => `<li>${escapeMarkup(n)}</li>`).join('\n');
  const sections = model.environments
    .map((env, e) => {
      const charts = env.charts
        .map(
          (c, i) =>
            `<figure class="chart" id="chart-${e}-${i}" data-metric="${escapeMarkup(c.metric)}"><figcaption>${escapeMarkup(c.title)}</figcaption><div class="vega"></div></figure>`,
        )
        .join('\n');
      const groups = model.groups.filter((g) => g.environment === e).map((g) => g.label);
      return `<section class="environment" id="environment-${e}">
<h2>${model.environments.length > 1 ? `${e + 1}. ` : ''}${escapeMarkup(env.label)}</h2>
<p class="muted">${escapeMarkup(groups.join(', '))}. Thin lines: one seed each; thick line and band: mean over the run’s seeds with its 95% Student-t interval. Drag or scroll on a chart to pan and zoom the environment-step axis; double-click to reset.</p>
${env.charts.length === 0 ? '<p>These runs record no numeric per-iteration metric to draw.</p>' : `<div class="charts">${charts}</div>`}
${env.tables.map((t) => table(t)).join('\n')}
</section>`;
    })
    .join('\n');
  const data = JSON.stringify(model).replaceAll('<', '\\u003c');
  // The model comes just before the page script, which reads it; the libraries come first.
  const scripts = assets.scripts
    .map(
      (s) =>
        `${s.name === 'ftw view' ? `<script type="application/json" id="ftw-data">${data}</script>\n` : ''}` +
        `<script data-name="${escapeMarkup(s.name)}">${scriptText(s.source)}</script>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:">
<title>${escapeMarkup(model.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeMarkup(model.title)}</h1>
<p class="muted">${model.runs.length} run${model.runs.length === 1 ? '' : 's'} (${escapeMarkup(model.runs.map((r) => `${r.name}: ftw ${r.command}`).join('; '))}), ${model.groups.length} configuration${model.groups.length === 1 ? '' : 's'}, learning curves against environment steps.</p>
<ul class="notices" id="notices">${notices}
<noscript><li class="error">Scripts are off: the charts, the legend and the Figure 1 widget need them; the tables below do not.</li></noscript>
</ul>
</header>
<nav id="legend" aria-label="legend"></nav>
<main>
${sections}
<section id="configuration">
<h2>Configuration</h2>
${configSection(model)}
</section>
<section id="figure-1">
<h2>Figure 1: selection probability by rank (Eq. 5), computed in this page by @ftw/selection</h2>
<p class="muted">Drawing C of the N trajectories of the pool uniformly without replacement and keeping the K with the highest return selects the trajectory of rank r with probability P(r | N, C, K) = 1 / (K · binom(N, C)) · Σ<sub>k=1..K</sub> binom(r−1, k−1) · binom(N−r, C−k). With ties, the worst share of the pool holds one return (0, e.g. failed episodes) and the others distinct positive returns; ties are broken at random, so a tied trajectory gets the average of its block’s P(r). With a threshold, only returns strictly above it are kept (try 0 with ties).</p>
<form id="figure-1-form" autocomplete="off">
<label>N (pool size)<input name="n" type="number" min="1" max="100000" step="1" value="${model.figure1.n}"></label>
<label>C (minibatch size)<input name="c" type="number" min="1" step="1" value="${model.figure1.c}"></label>
<label>K (elites kept)<input name="k" type="number" min="1" step="1" value="${model.figure1.k}"></label>
<label>share of tied returns<input name="tied" type="number" min="0" max="1" step="0.05" value="0"></label>
<label>threshold (blank: none)<input name="threshold" type="number" step="any" value="${model.figure1.threshold ?? ''}"></label>
</form>
<div class="error" id="figure-1-error" role="alert"></div>
<div id="figure-1-chart"></div>
<div id="figure-1-values"></div>
</section>
</main>
${scripts}
</body>
</html>
`;
}
