/// <reference lib="dom" />

import { HOVER_ARMED, MEAN_DATA, SEED_DATA } from '../curve-chart-spec.js';
import type { ChartData, ViewModel } from '../view-model.js';
import { curveChartRuntime } from './curve-chart.js';
import { legendSignals } from './curve-legend.js';
import { curveRows } from './curve-rows.js';
import { curveTooltip } from './curve-tooltip.js';
import { type FigureOneValues, figureOneValues, mountFigureOne } from './figure-one.js';
import { buildLegend, type LegendState } from './legend.js';
import { mountChart } from './mount-chart.js';
import { countMarks, type VegaView } from './vega-view.js';

/** What the page exposes on `window.ftwView`, for the console and for the browser tests. */
export interface PageApi {
  /** Resolves when what is in view at load is drawn (rejects on a failure); the rest is drawn on scrolling. */
  readonly ready: Promise<void>;
  /** Draws every chart and the Figure 1 widget not drawn yet; resolves when done. */
  readonly renderAll: () => Promise<void>;
  /** The learning-curve charts drawn so far: their Vega views by element id. */
  readonly views: Map<string, VegaView>;
  /** Drawn line, area and point items of a chart. */
  readonly markCount: (id: string) => number;
  /** What the Figure 1 widget shows now. */
  figure1: FigureOneValues | null;
  /** The widget's computation, for checking it against `@ftw/selection` in Node. */
  readonly figureOneValues: typeof figureOneValues;
  /** Milliseconds from navigation start until `ready`. */
  renderMs: number | null;
  /** Milliseconds each chart took to draw, in drawing order. */
  readonly chartMs: number[];
}

function showError(message: string): void {
  const li = document.createElement('li');
  li.className = 'error';
  li.textContent = message;
  document.getElementById('notices')?.append(li);
}

/** Margin around the viewport within which a chart is drawn before it is scrolled to. */
const AHEAD = '300px';

function start(): PageApi {
  const model = JSON.parse(document.getElementById('ftw-data')!.textContent!) as ViewModel;
  const views = new Map<string, VegaView>();
  const chartMs: number[] = [];
  let state: LegendState;
  const apply = (next: LegendState): void => {
    state = next;
    for (const view of views.values()) {
      // New arrays each time: Vega sees an unchanged reference as an unchanged value and would not refilter.
      for (const [name, value] of Object.entries(legendSignals(state, model.groups)))
        view.signal(name, value);
      void view.runAsync();
    }
  };
  state = buildLegend(document.getElementById('legend')!, model, apply);

  const charts = new Map<string, ChartData>(
    model.environments.flatMap((env, e) => env.charts.map((chart, i) => [`chart-${e}-${i}`, chart] as const)),
  );
  // Charts are drawn one at a time, in page order of request, so each shows as soon as it is ready.
  let queue: Promise<void> = Promise.resolve();
  const requested = new Map<string, Promise<void>>();
  const draw = (id: string): Promise<void> => {
    const existing = requested.get(id);
    if (existing !== undefined) return existing;
    const chart = charts.get(id)!;
    const target = document.querySelector<HTMLElement>(`#${id} .vega`)!;
    // Measured when the chart is asked for: the charts in view are asked for together, after one layout;
    // measured when drawn, each would force the page to be laid out again around the chart before it.
    const width = Math.max(300, target.clientWidth);
    const done = queue.then(async () => {
      const started = performance.now();
      const rows = curveRows(chart);
      const view = await mountChart(target, {
        runtime: curveChartRuntime(chart, model.groups, state),
        width,
        data: { [SEED_DATA]: rows.seeds, [MEAN_DATA]: rows.means },
        formatTooltip: curveTooltip(chart.axis, model.groups),
        fileName: chart.metric,
      });
      views.set(id, view);
      // The hover's points are built when the pointer first comes over the chart (see HOVER_ARMED).
      target.addEventListener(
        'pointerenter',
        () => {
          view.signal(HOVER_ARMED, true);
          void view.runAsync();
        },
        { once: true },
      );
      chartMs.push(performance.now() - started);
    });
    queue = done.catch(() => undefined);
    requested.set(id, done);
    return done;
  };
  const inView = (id: string): boolean => {
    const rect = document.getElementById(id)!.getBoundingClientRect();
    return rect.top < window.innerHeight && rect.bottom > 0;
  };
  // The Figure 1 widget is drawn once, when it comes near the viewport or when everything is asked for.
  let widget: Promise<void> | undefined;
  const drawWidget = (): Promise<void> => {
    widget ??= queue.then(() =>
      mountFigureOne((values) => {
        api.figure1 = values;
      }),
    );
    return widget;
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        void draw(entry.target.id).catch(report);
      }
    },
    { rootMargin: AHEAD },
  );
  for (const id of charts.keys()) observer.observe(document.getElementById(id)!);
  const widgetObserver = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      widgetObserver.disconnect();
      void drawWidget().catch(report);
    },
    { rootMargin: AHEAD },
  );
  widgetObserver.observe(document.getElementById('figure-1')!);

  const api: PageApi = {
    ready: Promise.resolve(),
    renderAll: async () => {
      await Promise.all([...[...charts.keys()].map(draw), drawWidget()]);
    },
    views,
    markCount: (id) => {
      const view = views.get(id);
      if (view === undefined)
        throw new Error(`chart ${id} is not drawn; drawn: ${[...views.keys()].join(', ')}`);
      return countMarks(view);
    },
    figure1: null,
    figureOneValues,
    renderMs: null,
    chartMs,
  };
  const ready = (async () => {
    const visible = [...charts.keys()].filter(inView).map(draw);
    if (inView('figure-1')) visible.push(drawWidget());
    await Promise.all(visible);
    api.renderMs = performance.now();
  })();
  ready.catch(report);
  (api as { ready: Promise<void> }).ready = ready;
  return api;
}

function report(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  showError(`The page could not draw everything: ${message}`);
  console.error(error);
}

try {
  (globalThis as unknown as { ftwView: PageApi }).ftwView = start();
} catch (error) {
  report(error);
}
