/// <reference lib="dom" />
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expectedCounts, rankOccupancy } from '@ftw/selection';
import type { Browser } from 'playwright-core';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_CLIENT_BUILD } from '../../../packages/report/view-client.tsup.ts';
import { type BuiltCli, buildCli } from './build-cli.js';
import { ARTIFACTS, launchChromium, type OpenedPage, openReport } from './view-browser.js';

/** The page's test hooks (see packages/report/src/client/main.ts). */
interface PageApi {
  renderAll(): Promise<void>;
  views: Map<string, unknown>;
  markCount(id: string): number;
  figure1: {
    n: number;
    c: number;
    k: number;
    tied: number;
    threshold: number | null;
    returns: number[];
    exact: number[];
    ties: number[] | null;
    thresholded: number[] | null;
  } | null;
}
declare const ftwView: PageApi;
declare global {
  interface Window {
    vega?: unknown;
    vegaLite?: unknown;
    vegaEmbed?: unknown;
  }
}

function ftw(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [built.cli, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The page's values against Node's, element by element. The code is the same (@ftw/selection's source,
 * bundled), but Chromium's V8 and Node 20's V8 round Math.exp/log differently in the last bit (seen: 2 ulps
 * in the tail of P(r | 37, 6, 2)), so equality is to 1e-14 relative, far below any formula error (a wrong
 * K, C or binomial changes values by percents) and zeros must be exact zeros.
 */
function expectSameValues(page: readonly number[], node: readonly number[]): void {
  expect(page.length).toBe(node.length);
  for (let i = 0; i < node.length; i++) {
    if (node[i] === 0) expect(page[i], `rank ${i + 1}`).toBe(0);
    else expect(Math.abs(page[i]! - node[i]!) / node[i]!, `rank ${i + 1}`).toBeLessThanOrEqual(1e-14);
  }
}

let built: BuiltCli;
let browser: Browser;
let root: string;
const opened: OpenedPage[] = [];

async function open(file: string, width?: number): Promise<OpenedPage> {
  const page = await openReport(browser, file, width);
  opened.push(page);
  return page;
}

/** Asserts the page drew without a console error and asked for nothing but itself. */
function expectClean(page: OpenedPage, file: string): void {
  expect(page.errors).toEqual([]);
  expect(page.blocked).toEqual([]);
  expect(page.requests).toEqual([`file://${file}`]);
}

beforeAll(async () => {
  built = await buildCli();
  // The page script from the current sources, beside the CLI as in dist/ (the CLI looks there first).
  await build({ ...VIEW_CLIENT_BUILD, outDir: dirname(built.cli), silent: true, config: false });
  root = mkdtempSync(join(tmpdir(), 'ftw-view-'));
  const runs = join(root, 'runs');
  const common = ['--out', runs, '--quiet', '--iterations', '150'];
  for (const args of [
    ['--env', 'tie-heavy', '--keep', '3', '--threshold', '0', '--seeds', '0..3', '--name', 'k3'],
    ['--env', 'tie-heavy', '--keep', '1', '--seeds', '0..3', '--name', 'k1'],
    ['--seeds', '0..2', '--name', 'gaussian'],
  ]) {
    const r = ftw('train', ...common, ...args);
    expect(r.status, r.stderr).toBe(0);
  }
  browser = await launchChromium();
});

afterAll(async () => {
  for (const page of opened) await page.close();
  await browser?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  built?.remove();
});

describe('ftw view in Chromium', () => {
  let file: string;
  let page: OpenedPage;

  beforeAll(async () => {
    file = join(root, 'two-runs.html');
    const r = ftw('view', join(root, 'runs', 'k3'), join(root, 'runs', 'k1'), '--out', file);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ftw view: 2 runs \(k3, k1\); [\d.]+ MB page written to /);
    page = await open(file);
    await page.page.evaluate(() => ftwView.renderAll());
  });

  it('draws every chart with marks, without a console error or any request but the file itself', async () => {
    const figures = await page.page.locator('figure.chart').evaluateAll((els) => els.map((e) => e.id));
    expect(figures.length).toBeGreaterThanOrEqual(10);
    const counts = await page.page.evaluate((ids) => ids.map((id) => ftwView.markCount(id)), figures);
    for (const [i, count] of counts.entries()) expect(count, figures[i]).toBeGreaterThan(0);
    // One chart per metric the runs record, discovered from metrics.ndjson.
    const metrics = await page.page
      .locator('figure.chart')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-metric')));
    expect(metrics).toEqual(
      expect.arrayContaining([
        'optimalProbability',
        'reward',
        'regret',
        'klMean',
        'tvMax',
        'eliteMean',
        'poolStaleness',
        'selectionStaleness',
      ]),
    );
    expectClean(page, file);
    // Each chart is as wide as its column (the templates are compiled at one width; the page sets each's).
    const widths = await page.page
      .locator('figure.chart .vega')
      .evaluateAll((els) =>
        els.map((e) => [e.clientWidth, e.querySelector('canvas')!.getBoundingClientRect().width]),
      );
    for (const [column, canvas] of widths) expect(Math.abs(canvas! - column!)).toBeLessThanOrEqual(1);
    // Nor a warning: an unarmed hover's empty data set once made Vega warn of an infinite extent per chart.
    expect(page.warnings).toEqual([]);
    // The charts come compiled and parsed: the page carries its own script (with the parts of Vega it uses),
    // not Vega's whole build, Vega-Lite nor vega-embed.
    const scripts = await page.page
      .locator('script[data-name]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    expect(scripts).toEqual(['ftw view']);
    expect(
      await page.page.evaluate(() => [typeof window.vega, typeof window.vegaLite, typeof window.vegaEmbed]),
    ).toEqual(['undefined', 'undefined', 'undefined']);
    await page.page.screenshot({ path: join(ARTIFACTS, 'view-two-runs.png'), fullPage: true });
  });

  it('toggles a run, a method, the seeds and the mean from the legend', async () => {
    const p = page.page;
    const count = (): Promise<number> => p.evaluate(() => ftwView.markCount('chart-0-0'));
    const all = await count();
    const changesTo = async (predicate: (n: number) => boolean): Promise<number> => {
      await expect.poll(count, { timeout: 10_000 }).toSatisfy(predicate);
      return count();
    };
    await p.locator('input[data-run="k1"]').uncheck();
    const withoutK1 = await changesTo((n) => n < all);
    expect(withoutK1).toBeGreaterThan(0);
    await p.screenshot({ path: join(ARTIFACTS, 'view-k1-hidden.png') });
    await p.locator('input[data-run="k1"]').check();
    await changesTo((n) => n === all);

    await p.locator('input[data-show="seeds"]').uncheck();
    const meansOnly = await changesTo((n) => n < all);
    await p.locator('input[data-show="mean"]').uncheck();
    await changesTo((n) => n === 0);
    await p.locator('input[data-show="seeds"]').check();
    await p.locator('input[data-show="mean"]').check();
    await changesTo((n) => n === all);

    await p.locator('input[data-seed="2"]').uncheck();
    const withoutSeed2 = await changesTo((n) => n < all);
    expect(withoutSeed2).toBeGreaterThan(meansOnly);
    await p.locator('input[data-seed="2"]').check();
    await changesTo((n) => n === all);
    // Both runs are FTW ("ftw"): hiding the method hides every curve.
    await p.locator('input[data-method="ftw"]').uncheck();
    await changesTo((n) => n === 0);
    await p.locator('input[data-method="ftw"]').check();
    await changesTo((n) => n === all);
    expect(page.errors).toEqual([]);
  });

  it('shows the values of the nearest mean point in a tooltip', async () => {
    const p = page.page;
    const canvas = p.locator('#chart-0-0 canvas');
    // Centred, so that the sticky legend does not cover it.
    await canvas.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await canvas.boundingBox())!;
    const tooltip = p.locator('#vg-tooltip-element');
    // Moves until the tooltip shows (the first move after a scroll may land before the canvas settles).
    await expect
      .poll(
        async () => {
          await p.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
          await p.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 5 });
          return tooltip.getAttribute('class');
        },
        { timeout: 10_000 },
      )
      .toMatch(/visible/);
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toMatch(/run(k3|k1) · ftw/);
    expect(text).toMatch(/environment steps[\d,]+/);
    expect(text).toMatch(/P\(optimal action\) \(mean\)[\d.]+/);
    expect(text).toMatch(/95% CI from[\d.-]+/);
    await p.mouse.move(0, 0);
  });

  it('makes a chart’s SVG and PNG when its export link is pressed, without a request', async () => {
    const p = page.page;
    const links = p.locator('#chart-0-1 .export a');
    expect(await links.allTextContents()).toEqual(['SVG', 'PNG']);
    // Vega writes the SVG as a blob URL, the PNG as a data URL: both made in the page.
    for (const [i, url] of [
      [0, /^blob:/],
      [1, /^data:image\/png;base64,/],
    ] as const) {
      await links.nth(i).dispatchEvent('mousedown');
      await expect.poll(() => links.nth(i).getAttribute('href')).toMatch(url);
    }
    expect(await links.nth(0).getAttribute('download')).toBe('reward.svg');
    expect(page.blocked).toEqual([]);
  });

  it('zooms the x axis of a chart with the mouse wheel, and not its y axis', async () => {
    const p = page.page;
    const domains = (): Promise<number[][]> =>
      p.evaluate(() => {
        const view = ftwView.views.get('chart-0-2') as { scale(name: string): { domain(): number[] } };
        return [view.scale('x').domain(), view.scale('y').domain()];
      });
    const [x, y] = await domains();
    const canvas = p.locator('#chart-0-2 canvas');
    await canvas.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await canvas.boundingBox())!;
    await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await p.mouse.wheel(0, -400);
    await expect
      .poll(async () => (await domains())[0]![1]! - (await domains())[0]![0]!)
      .toBeLessThan(x![1]! - x![0]!);
    expect((await domains())[1]).toEqual(y);
  });

  it('computes Eq. 5 in the page with @ftw/selection: the values equal rankOccupancy and expectedCounts', async () => {
    const p = page.page;
    const cases = [
      { n: 37, c: 6, k: 2, tied: 0.4, threshold: '0' },
      { n: 128, c: 5, k: 1, tied: 0, threshold: '' },
      { n: 1000, c: 32, k: 8, tied: 0.75, threshold: '' },
      { n: 9, c: 9, k: 3, tied: 0.5, threshold: '2.5' },
    ];
    for (const input of cases) {
      await p.fill('#figure-1-form input[name=n]', String(input.n));
      await p.fill('#figure-1-form input[name=c]', String(input.c));
      await p.fill('#figure-1-form input[name=k]', String(input.k));
      await p.fill('#figure-1-form input[name=tied]', String(input.tied));
      await p.fill('#figure-1-form input[name=threshold]', input.threshold);
      await expect
        .poll(() =>
          p.evaluate(
            () =>
              ftwView.figure1 && [
                ftwView.figure1.n,
                ftwView.figure1.c,
                ftwView.figure1.k,
                ftwView.figure1.tied,
                ftwView.figure1.threshold,
              ],
          ),
        )
        .toEqual([
          input.n,
          input.c,
          input.k,
          input.tied,
          input.threshold === '' ? null : Number(input.threshold),
        ]);
      const shown = (await p.evaluate(() => ftwView.figure1))!;
      expectSameValues(shown.exact, Array.from(rankOccupancy(input.n, input.c, input.k)));
      // The widget's returns: ranks 1..N−T distinct and positive, then T = round(tied·N) zeros.
      const t = Math.round(input.tied * input.n);
      const returns = Array.from({ length: input.n }, (_, i) => (i < input.n - t ? input.n - t - i : 0));
      expect(shown.returns).toEqual(returns);
      const perSlot = (threshold?: number): number[] =>
        Array.from(
          expectedCounts(returns, {
            batches: 1,
            batchSize: input.c,
            keep: input.k,
            ...(threshold === undefined ? {} : { threshold }),
          }),
          (e) => e / input.k,
        );
      if (t > 1) expectSameValues(shown.ties!, perSlot());
      else expect(shown.ties).toBeNull();
      if (input.threshold !== '') expectSameValues(shown.thresholded!, perSlot(Number(input.threshold)));
      else expect(shown.thresholded).toBeNull();
      // The table shows P(1) of Eq. 5 to six digits.
      await expect
        .poll(() => p.locator('#figure-1-table tbody tr').first().locator('td').first().textContent())
        .toBe(rankOccupancy(input.n, input.c, input.k)[0]!.toPrecision(6));
      // Every row: ranks 1, 2, 3, K, C, ⌈N/2⌉ and N (once each, in order), each series' P(r), and their sums
      // over all ranks: 1 for Eq. 5 and with ties (K slots per minibatch, always filled), less with a threshold.
      const rows = await p
        .locator('#figure-1-table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent)));
      const six = (x: number): string => (x === 0 ? '0' : x.toPrecision(6));
      const series = [
        Array.from(rankOccupancy(input.n, input.c, input.k)),
        ...(t > 1 ? [perSlot()] : []),
        ...(input.threshold === '' ? [] : [perSlot(Number(input.threshold))]),
      ];
      const ranks = [...new Set([1, 2, 3, input.k, input.c, Math.ceil(input.n / 2), input.n])]
        .filter((r) => r <= input.n)
        .sort((x, y) => x - y);
      const sum = (ys: readonly number[]): number => ys.reduce((x, y) => x + y, 0);
      expect(rows).toEqual([
        ...ranks.map((r) => [String(r), ...series.map((ys) => six(ys[r - 1]!))]),
        ['Σ over ranks', ...series.map((ys) => six(sum(ys)))],
      ]);
      expect(rows.at(-1)![1]).toBe('1.00000');
      if (t > 1) expect(rows.at(-1)![2]).toBe('1.00000');
    }
    await p.locator('#figure-1').screenshot({ path: join(ARTIFACTS, 'view-figure-1.png') });
  });

  it('shows the package’s own message for a bad widget input and keeps the last figure', async () => {
    const p = page.page;
    await p.fill('#figure-1-form input[name=c]', '50');
    await p.fill('#figure-1-form input[name=n]', '20');
    await expect.poll(() => p.locator('#figure-1-error').textContent()).toMatch(/batchSize/);
    const n = await p.evaluate(() => ftwView.figure1?.n);
    expect(n).not.toBe(20);
    expect(page.errors).toEqual([]);
  });
});

describe('report.html beside report.md', () => {
  it('is written by train and opens offline with every chart drawn', async () => {
    const dir = join(root, 'runs', 'gaussian');
    expect(existsSync(join(dir, 'report.md'))).toBe(true);
    const file = join(dir, 'report.html');
    expect(statSync(file).size).toBeLessThan(5e6);
    const page = await open(file);
    await page.page.evaluate(() => ftwView.renderAll());
    const ids = await page.page.locator('figure.chart').evaluateAll((els) => els.map((e) => e.id));
    const counts = await page.page.evaluate((list) => list.map((id) => ftwView.markCount(id)), ids);
    expect(counts.every((n) => n > 0)).toBe(true);
    await expect.poll(() => page.page.locator('h1').textContent()).toBe('ftw view: gaussian');
    expectClean(page, file);
  });
});

describe('runs of different environments', () => {
  it('get one section each and a notice that says they are not overlaid', async () => {
    const file = join(root, 'mixed.html');
    const r = ftw('view', join(root, 'runs', 'k3'), join(root, 'runs', 'gaussian'), '--out', file);
    expect(r.status, r.stderr).toBe(0);
    const page = await open(file);
    await page.page.evaluate(() => ftwView.renderAll());
    const notice = await page.page.locator('#notices li').first().textContent();
    expect(notice).toMatch(/2 different environments, whose curves cannot be compared on one axis/);
    expect(notice).toMatch(/tie-heavy binary bandit.*k3/);
    expect(notice).toMatch(/Gaussian bandit.*gaussian/);
    expect(await page.page.locator('section.environment').count()).toBe(2);
    for (const section of [0, 1]) {
      const ids = await page.page
        .locator(`#environment-${section} figure.chart`)
        .evaluateAll((els) => els.map((e) => e.id));
      expect(ids.length).toBeGreaterThan(0);
      const counts = await page.page.evaluate((list) => list.map((id) => ftwView.markCount(id)), ids);
      expect(counts.every((n) => n > 0)).toBe(true);
    }
    // The configuration table lists what differs, e.g. the environment and K.
    const keys = await page.page.locator('table.config-diff tbody th').allTextContents();
    expect(keys).toEqual(expect.arrayContaining(['environment.kind', 'keep']));
    expectClean(page, file);
    await page.page.screenshot({ path: join(ARTIFACTS, 'view-two-environments.png') });
  });
});

describe('a run killed while writing its metrics', () => {
  it('is drawn from its complete lines, with the cut line named on stderr and in a notice on the page', async () => {
    const dir = join(root, 'runs', 'killed');
    cpSync(join(root, 'runs', 'gaussian'), dir, { recursive: true });
    const metrics = join(dir, 'metrics.ndjson');
    const complete = readFileSync(metrics, 'utf8').trimEnd().split('\n').length - 1;
    // Cut 20 bytes into the last line, as a killed writer leaves it.
    truncateSync(metrics, readFileSync(metrics, 'utf8').lastIndexOf('\n', statSync(metrics).size - 2) + 21);
    const file = join(root, 'killed.html');
    const r = ftw('view', dir, '--out', file);
    expect(r.status, r.stderr).toBe(0);
    const notice = `killed: the last line of metrics.ndjson (line ${complete + 1}) is cut short, as when a run is killed while writing; the ${complete} complete lines are drawn`;
    expect(r.stderr).toBe(`ftw view: warning: ${notice}\n`);
    const page = await open(file);
    await page.page.evaluate(() => ftwView.renderAll());
    const shown = page.page.locator('#notices li', { hasText: 'cut short' });
    expect(await shown.textContent()).toBe(notice);
    expect(await shown.isVisible()).toBe(true);
    const ids = await page.page.locator('figure.chart').evaluateAll((els) => els.map((e) => e.id));
    const counts = await page.page.evaluate((list) => list.map((id) => ftwView.markCount(id)), ids);
    expect(counts.every((n) => n > 0)).toBe(true);
    expectClean(page, file);
  });

  it('is refused when a line that is not JSON is followed by another, or ends with a line break', () => {
    const dir = join(root, 'runs', 'broken');
    cpSync(join(root, 'runs', 'gaussian'), dir, { recursive: true });
    const metrics = join(dir, 'metrics.ndjson');
    const lines = readFileSync(metrics, 'utf8').trimEnd().split('\n');
    writeFileSync(metrics, `${lines.slice(0, -1).join('\n')}\n{"seed": 0,\n`);
    const r = ftw('view', dir, '--out', join(root, 'broken.html'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`metrics\\.ndjson line ${lines.length} is not valid JSON`));
    writeFileSync(metrics, `${lines.slice(0, 2).join('\n')}\n{"seed": 0,\n${lines.slice(2).join('\n')}\n`);
    expect(ftw('view', dir, '--out', join(root, 'broken.html')).stderr).toMatch(
      /metrics\.ndjson line 3 is not valid JSON/,
    );
    expect(existsSync(join(root, 'broken.html'))).toBe(false);
  });
});

describe('files of a run written by an editor that adds a byte-order mark', () => {
  it('are read, and an existing page is replaced only with --force', () => {
    const dir = join(root, 'runs', 'bom');
    cpSync(join(root, 'runs', 'gaussian'), dir, { recursive: true });
    for (const name of ['config.json', 'summary.json', 'metrics.ndjson']) {
      writeFileSync(join(dir, name), `\uFEFF${readFileSync(join(dir, name), 'utf8')}`);
    }
    const file = join(root, 'bom.html');
    writeFileSync(file, 'an older page');
    const refused = ftw('view', dir, '--out', file);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `error: --out ${JSON.stringify(file)} already exists; add --force to replace it, or choose another path\n`,
    );
    const r = ftw('view', dir, '--out', file, '--force');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(readFileSync(file, 'utf8')).toMatch(/<title>ftw view: bom<\/title>/);
  });
});
