/// <reference lib="dom" />

import templates from 'ftw:vega-templates';
import { expectedCounts, rankOccupancy } from '@ftw/selection';
import { FIGURE_ONE_DATA, FIGURE_ONE_SERIES } from '../figure-one-spec.js';
import { fillTemplate } from '../fill-template.js';
import { minMaxBuckets } from '../min-max-buckets.js';
import { mountChart } from './mount-chart.js';
import { changeset } from './vega-runtime.js';
import type { VegaView } from './vega-view.js';

/** What the widget last computed: its inputs and P(r) at every rank r = 1..N for each curve. */
export interface FigureOneValues {
  readonly n: number;
  readonly c: number;
  readonly k: number;
  /** Share of the pool tied at return 0 (the worst ranks). */
  readonly tied: number;
  readonly threshold: number | null;
  /** The returns by rank: distinct positive values, then `round(tied · N)` zeros. */
  readonly returns: readonly number[];
  /** Eq. 5: `rankOccupancy(N, C, K)`. */
  readonly exact: readonly number[];
  /** With the ties broken at random: `expectedCounts(returns, {J: 1, C, K}) / K`; null without ties. */
  readonly ties: readonly number[] | null;
  /** With the threshold as well; null without a threshold. */
  readonly thresholded: readonly number[] | null;
}

/** Points drawn per curve: more ranks are thinned keeping each bucket's minimum and maximum. */
const DRAWN = 2_000;

/**
 * The returns the widget assumes: ranks 1..N − T hold distinct positive returns N − T, …, 1 and the T =
 * round(tied · N) worst hold 0 (e.g. failed episodes), in rank order.
 */
export function widgetReturns(n: number, tied: number): number[] {
  const t = Math.round(tied * n);
  return Array.from({ length: n }, (_, i) => Math.max(0, n - t - i));
}

/**
 * Computes the widget's curves with `@ftw/selection` itself, exactly as a program would: Eq. 5 from
 * `rankOccupancy`, and with ties and a threshold from `expectedCounts` over one minibatch divided by K.
 *
 * @throws TypeError or RangeError from `@ftw/selection`, naming the bad parameter
 */
export function figureOneValues(
  n: number,
  c: number,
  k: number,
  tied: number,
  threshold: number | null,
): FigureOneValues {
  if (!(tied >= 0 && tied <= 1)) throw new RangeError(`share of tied returns must be in [0, 1], got ${tied}`);
  const exact = Array.from(rankOccupancy(n, c, k));
  const returns = widgetReturns(n, tied);
  const perSlot = (counts: Float64Array): number[] => Array.from(counts, (e) => e / k);
  const t = Math.round(tied * n);
  const ties = t > 1 ? perSlot(expectedCounts(returns, { batches: 1, batchSize: c, keep: k })) : null;
  const thresholded =
    threshold === null
      ? null
      : perSlot(expectedCounts(returns, { batches: 1, batchSize: c, keep: k, threshold }));
  return { n, c, k, tied, threshold, returns, exact, ties, thresholded };
}

function rows(values: FigureOneValues): object[] {
  const out: object[] = [];
  const add = (series: string, ys: readonly number[] | null): void => {
    if (ys === null) return;
    for (const i of minMaxBuckets(ys, DRAWN / 2)) out.push({ series, rank: i + 1, p: ys[i] });
  };
  add(FIGURE_ONE_SERIES[0], values.exact);
  add(FIGURE_ONE_SERIES[1], values.ties);
  add(FIGURE_ONE_SERIES[2], values.thresholded);
  return out;
}

function format(p: number): string {
  return p === 0 ? '0' : p.toPrecision(6);
}

function valuesTable(values: FigureOneValues): string {
  const ranks = [...new Set([1, 2, 3, values.k, values.c, Math.ceil(values.n / 2), values.n])]
    .filter((r) => r >= 1 && r <= values.n)
    .sort((a, b) => a - b);
  const series: [string, readonly number[] | null][] = [
    ['Eq. 5', values.exact],
    ['with ties', values.ties],
    [`threshold ${values.threshold}`, values.thresholded],
  ];
  const shown = series.filter((s): s is [string, readonly number[]] => s[1] !== null);
  const sum = (ys: readonly number[]): number => ys.reduce((a, b) => a + b, 0);
  const head = `<tr><th>rank r</th>${shown.map(([name]) => `<th>${name}</th>`).join('')}</tr>`;
  const body = ranks
    .map(
      (r) =>
        `<tr><th scope="row">${r}</th>${shown.map(([, ys]) => `<td>${format(ys[r - 1]!)}</td>`).join('')}</tr>`,
    )
    .join('');
  const total = `<tr><th scope="row">Σ over ranks</th>${shown.map(([, ys]) => `<td>${format(sum(ys))}</td>`).join('')}</tr>`;
  return `<div class="table-wrap"><table id="figure-1-table"><caption>P(r | N = ${values.n}, C = ${values.c}, K = ${values.k}) at a few ranks</caption><thead>${head}</thead><tbody>${body}${total}</tbody></table></div>`;
}

/**
 * The widget chart's Vega runtime description: the template compiled from `figureOneSpec` when the runner
 * was built (points at every rank for N ≤ 64), its x-axis title naming N.
 */
function runtime(n: number): object {
  const template = n <= 64 ? templates.figureOnePoints : templates.figureOneLines;
  return fillTemplate(template, { xTitle: `rank r (1 = highest return, N = ${n})` }) as object;
}

/**
 * Wires the Figure 1 form: on every input, recomputes the curves in the page with `@ftw/selection` and
 * redraws the chart and the table; a bad input shows the package's own error message and keeps the last
 * good figure.
 *
 * @param onValues - receives each new result (the page exposes the latest for tests and the console)
 * @returns resolves once the first figure is drawn
 */
export async function mountFigureOne(onValues: (values: FigureOneValues) => void): Promise<void> {
  const form = document.getElementById('figure-1-form') as HTMLFormElement;
  const error = document.getElementById('figure-1-error')!;
  const chart = document.getElementById('figure-1-chart')!;
  const table = document.getElementById('figure-1-values')!;
  let view: VegaView | undefined;
  let drawnN = -1;
  const read = (name: string): number => Number((form.elements.namedItem(name) as HTMLInputElement).value);
  const update = async (): Promise<void> => {
    let values: FigureOneValues;
    try {
      const thresholdText = (form.elements.namedItem('threshold') as HTMLInputElement).value.trim();
      values = figureOneValues(
        read('n'),
        read('c'),
        read('k'),
        read('tied'),
        thresholdText === '' ? null : Number(thresholdText),
      );
    } catch (e) {
      error.textContent = (e as Error).message;
      return;
    }
    error.textContent = '';
    const data = rows(values);
    if (view === undefined || drawnN !== values.n) {
      const width = Math.max(300, Math.min(1000, chart.clientWidth - 200));
      view = await mountChart(chart, {
        runtime: runtime(values.n),
        width,
        data: { [FIGURE_ONE_DATA]: data },
        fileName: 'figure-1',
      });
      drawnN = values.n;
    } else {
      await view
        .change(
          FIGURE_ONE_DATA,
          changeset()
            .remove(() => true)
            .insert(data),
        )
        .runAsync();
    }
    table.innerHTML = valuesTable(values);
    onValues(values);
  };
  let pending: Promise<void> = Promise.resolve();
  form.addEventListener('input', () => {
    pending = pending.then(update);
  });
  form.addEventListener('submit', (e) => e.preventDefault());
  await update();
}
