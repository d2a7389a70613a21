/// <reference lib="dom" />
import type { ViewModel } from '../view-model.js';

/** What the legend hides, as the charts' parameters expect it. */
export interface LegendState {
  hiddenRuns: string[];
  hiddenMethods: string[];
  hiddenGroups: number[];
  hiddenSeeds: number[];
  showSeeds: boolean;
  showMean: boolean;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function checkbox(
  row: HTMLElement,
  text: string,
  data: Record<string, string>,
  onChange: (checked: boolean) => void,
  swatch?: string,
): HTMLInputElement {
  const label = element('label');
  const input = element('input', { type: 'checkbox', ...data });
  input.checked = true;
  input.addEventListener('change', () => onChange(input.checked));
  label.append(input);
  if (swatch !== undefined) label.append(element('span', { class: 'swatch', style: `background:${swatch}` }));
  label.append(text);
  row.append(label);
  return input;
}

function toggle<T>(list: T[], value: T, hidden: boolean): void {
  const i = list.indexOf(value);
  if (hidden && i < 0) list.push(value);
  if (!hidden && i >= 0) list.splice(i, 1);
}

/**
 * Builds the page's legend: one checkbox per run, per method, per curve group (with its colour) and per
 * seed, and switches for the per-seed curves and the mean with its band. Every change calls `apply` with the
 * whole state, which the page hands to every chart.
 *
 * @param container - the legend's element
 * @param model - the page model
 * @param apply - called with the new state after each change
 * @returns the initial state (nothing hidden)
 */
export function buildLegend(
  container: HTMLElement,
  model: ViewModel,
  apply: (state: LegendState) => void,
): LegendState {
  const state: LegendState = {
    hiddenRuns: [],
    hiddenMethods: [],
    hiddenGroups: [],
    hiddenSeeds: [],
    showSeeds: true,
    showMean: true,
  };
  const row = (title: string): HTMLElement => {
    const r = element('div', { class: 'row' });
    r.append(element('b', {}, title));
    container.append(r);
    return r;
  };
  const runs = row('Runs');
  for (const run of model.runs) {
    checkbox(runs, run.name, { 'data-run': run.name }, (on) => {
      toggle(state.hiddenRuns, run.name, !on);
      apply(state);
    });
  }
  const methods = row('Methods');
  for (const method of [...new Set(model.groups.map((g) => g.method))]) {
    checkbox(methods, method, { 'data-method': method }, (on) => {
      toggle(state.hiddenMethods, method, !on);
      apply(state);
    });
  }
  // Colours are per environment, so each environment gets its own row of curves.
  const curveRows = model.environments.map((_, e) =>
    row(model.environments.length > 1 ? `Curves ${e + 1}.` : 'Curves'),
  );
  for (const [i, group] of model.groups.entries()) {
    checkbox(
      curveRows[group.environment]!,
      group.label,
      { 'data-group': String(i) },
      (on) => {
        toggle(state.hiddenGroups, i, !on);
        apply(state);
      },
      group.color,
    );
  }
  const show = row('Show');
  checkbox(show, 'per-seed curves', { 'data-show': 'seeds' }, (on) => {
    state.showSeeds = on;
    apply(state);
  });
  checkbox(show, 'mean ± 95% CI', { 'data-show': 'mean' }, (on) => {
    state.showMean = on;
    apply(state);
  });
  const seeds = [...new Set(model.groups.flatMap((g) => g.seeds))].sort((a, b) => a - b);
  const seedRow = row('Seeds');
  const all = element('button', { type: 'button' }, 'all');
  const none = element('button', { type: 'button' }, 'none');
  seedRow.append(all, none);
  const list = element('span', { class: 'seeds' });
  seedRow.append(list);
  const boxes = seeds.map((seed) =>
    checkbox(list, String(seed), { 'data-seed': String(seed) }, (on) => {
      toggle(state.hiddenSeeds, seed, !on);
      apply(state);
    }),
  );
  const setAll = (on: boolean): void => {
    for (const box of boxes) box.checked = on;
    state.hiddenSeeds = on ? [] : [...seeds];
    apply(state);
  };
  all.addEventListener('click', () => setAll(true));
  none.addEventListener('click', () => setAll(false));
  return state;
}
