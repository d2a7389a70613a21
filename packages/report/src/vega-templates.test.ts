import { fc, test } from '@fast-check/vitest';
import { parse, View } from 'vega';
import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { legendSignals } from './client/curve-legend.js';
import { curveRows } from './client/curve-rows.js';
import { curveTooltip } from './client/curve-tooltip.js';
import { curveChartSpec, MEAN_DATA, SEED_DATA, TEMPLATE_WIDTH } from './curve-chart-spec.js';
import { FIGURE_ONE_DATA, FIGURE_ONE_SERIES, figureOneSpec } from './figure-one-spec.js';
import { fillTemplate, templateHoles } from './fill-template.js';
import { type VegaTemplate, vegaTemplates } from './vega-templates.js';
import { VEGA_TRANSFORMS } from './vega-transforms.js';
import type { ChartData, GroupData } from './view-model.js';

const templates = vegaTemplates();

/** Draws a Vega runtime description headless, with its data sets' rows, at a width: the SVG text. */
async function svg(runtime: object, data: Record<string, readonly object[]>, width: number): Promise<string> {
  const view = new View(runtime as never, { renderer: 'none' });
  try {
    view.width(width);
    for (const [name, rows] of Object.entries(data))
      view.insert(
        name,
        rows.map((r) => ({ ...r })),
      );
    await view.runAsync();
    // Vega numbers clip paths with one counter per process: renumber them per document.
    const ids = new Map<string, number>();
    return (await view.toSVG()).replace(/clip\d+/g, (id) => {
      if (!ids.has(id)) ids.set(id, ids.size);
      return `clip-${ids.get(id)}`;
    });
  } finally {
    view.finalize();
  }
}

/** The two SVG texts are equal; if not, where they first differ. */
function expectSameSvg(actual: string, expected: string): void {
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  expect(
    actual === expected,
    `differ at ${i}: …${actual.slice(i - 80, i + 80)}… vs …${expected.slice(i - 80, i + 80)}…`,
  ).toBe(true);
}

/** The reference: the Vega-Lite specification filled first, then compiled and parsed as it is, at the width. */
function fromVegaLite(spec: object, values: Record<string, unknown>): object {
  return parse(compile(fillTemplate(JSON.stringify(spec), values) as never).spec);
}

const groups: GroupData[] = [
  { label: 'a · ftw', run: 'a', method: 'ftw', seeds: [0, 1, 2], environment: 0, color: '#4e79a7' },
  { label: 'b · ppo', run: 'b', method: 'ppo', seeds: [0, 1, 2], environment: 0, color: '#f28e2b' },
];

/** A chart with 3 seeds and a mean with its band per group, from a seeded stream. */
function chart(unitInterval: boolean, seed: number, band = true): ChartData {
  let state = seed >>> 0;
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const x = [10, 20, 40, 80, 160, 320];
  const curves = groups.flatMap((_, g) => [
    ...[0, 1, 2].map((s) => ({ g, s, x, y: x.map(() => (unitInterval ? random() : 5 * random() - 1)) })),
    {
      g,
      s: null,
      x,
      y: x.map(() => 0.5),
      ...(band ? { lo: x.map(() => 0.4 - 0.1 * random()), hi: x.map(() => 0.6 + 0.1 * random()) } : {}),
    },
  ]);
  return { metric: 'm', title: 't', axis: 'P(optimal action)', unitInterval, curves } as unknown as ChartData;
}

const legend = { hiddenGroups: [] as number[], hiddenSeeds: [1], showSeeds: true, showMean: true };

describe('vegaTemplates', () => {
  it.each([
    [true, true, true],
    [false, true, true],
    // Means only, without bands: the scales' domains come from the mean lines alone.
    [false, false, false],
  ])(
    'draws a learning-curve chart (unitInterval %s, seeds shown %s, bands %s) exactly as compiling its Vega-Lite specification with the same values',
    async (unitInterval, showSeeds, band) => {
      const c = chart(unitInterval, 7, band);
      const { seeds, means } = curveRows(c);
      const rows = { [SEED_DATA]: seeds, [MEAN_DATA]: means };
      const values = {
        yTitle: 'P(optimal action)',
        colorDomain: groups.map((_, g) => g),
        colorRange: groups.map((g) => g.color),
        seedOpacity: 0.3,
        ...legend,
        showSeeds,
      };
      const template = unitInterval ? templates.curveUnit : templates.curveFree;
      const mine = await svg(fillTemplate(template, values) as object, rows, 700);
      const reference = await svg(fromVegaLite(curveChartSpec(unitInterval, 700), values), rows, 700);
      expectSameSvg(mine, reference);
      // The values are drawn: the title, both colours, the seeds' opacity; and the width is not the template's.
      expect(mine).toContain('P(optimal action)');
      expect(mine).toContain('#f28e2b');
      if (showSeeds) expect(mine).toContain('stroke="#4e79a7" stroke-width="1" opacity="0.3"');
      else expect(mine).not.toContain('opacity="0.3"');
      expect(await svg(fillTemplate(template, values) as object, rows, TEMPLATE_WIDTH)).not.toBe(mine);
    },
  );

  it('draws the Figure 1 widget exactly as compiling its Vega-Lite specification', async () => {
    const rows = FIGURE_ONE_SERIES.flatMap((series, i) =>
      [1, 2, 3, 4, 5].map((rank) => ({ series, rank, p: (i + 1) / (rank + 3) })),
    );
    for (const [points, template] of [
      [true, templates.figureOnePoints],
      [false, templates.figureOneLines],
    ] as const) {
      const values = { xTitle: 'rank r (1 = highest return, N = 5)' };
      const mine = await svg(fillTemplate(template, values) as object, { [FIGURE_ONE_DATA]: rows }, 640);
      expectSameSvg(
        mine,
        await svg(fromVegaLite(figureOneSpec(points, 640), values), { [FIGURE_ONE_DATA]: rows }, 640),
      );
      expect(mine).toContain('N = 5');
    }
  });

  it('leaves no hole but those filled in the page, each a whole string', () => {
    const holes = (t: VegaTemplate): string[] => templateHoles(t).sort();
    expect(holes(templates.curveUnit)).toEqual(
      [
        'colorDomain',
        'colorRange',
        'hiddenGroups',
        'hiddenSeeds',
        'seedOpacity',
        'showMean',
        'showSeeds',
        'yTitle',
      ].sort(),
    );
    expect(holes(templates.figureOneLines)).toEqual(['xTitle']);
    for (const text of Object.values(templates)) {
      expect(text.match(/@@/g)?.length).toBe(text.match(/"@@[A-Za-z0-9]+"/g)?.length);
    }
  });
});

describe('VEGA_TRANSFORMS', () => {
  it('has a transform for every operator of every template, and no other', () => {
    const types = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) for (const item of node) visit(item);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          // Operators (a facet's subflow has its own); streams have types too: event names.
          if (key === 'operators' && Array.isArray(value)) {
            for (const op of value as { type?: string }[])
              if (op.type !== undefined) types.add(op.type.toLowerCase());
          }
          visit(value);
        }
      }
    };
    for (const text of Object.values(templates)) visit(JSON.parse(text));
    types.delete('operator');
    expect([...types].sort()).toEqual([...VEGA_TRANSFORMS].sort());
  });
});

describe('fillTemplate', () => {
  const template = JSON.stringify({
    a: '@@title',
    b: ['@@labels'],
    c: [{ d: '@@n', e: 'plain @@text', g: ['@@one'] }],
    f: ['@@title', 'x'],
  });

  it('fills string holes and array holes, with arrays whole', () => {
    const filled = fillTemplate(template, { title: 'T "quoted"', labels: ['p', 'q'], n: 3, one: 1 });
    expect(filled).toEqual({
      a: 'T "quoted"',
      b: ['p', 'q'],
      c: [{ d: 3, e: 'plain @@text', g: [1] }],
      f: ['T "quoted"', 'x'],
    });
    expect(templateHoles(template)).toEqual(['title', 'labels', 'n', 'one']);
  });

  it('names a hole without a value, a value without a hole and a value that is not JSON', () => {
    const some = { title: 'T', labels: [], one: 1 };
    expect(() => fillTemplate(template, some)).toThrow(/hole @@n has no value/);
    expect(() => fillTemplate(template, { ...some, n: 1, extra: 2 })).toThrow(
      /no chart template hole for @@extra/,
    );
    expect(() => fillTemplate(template, { ...some, n: undefined })).toThrow(
      /hole @@n: undefined is not a JSON value/,
    );
  });

  // JSON without '@@' (which would be a hole): fast-check's strings almost never contain it anyway.
  const json = fc.jsonValue().filter((j) => !JSON.stringify(j).includes('@@'));
  test.prop([json, json, fc.string()])(
    'leaves any JSON as it is and fills every hole with its value',
    (json, value, title) => {
      const t = JSON.stringify({ json, hole: '@@title', nested: [{ again: '@@title', v: ['@@v'] }] });
      const filled = fillTemplate(t, { title, v: value }) as {
        json: unknown;
        hole: string;
        nested: { again: string; v: unknown }[];
      };
      expect(filled.json).toEqual(JSON.parse(JSON.stringify(json)));
      expect(filled.hole).toBe(title);
      expect(filled.nested[0]!.again).toBe(title);
      expect(filled.nested[0]!.v).toEqual(JSON.parse(JSON.stringify(Array.isArray(value) ? value : [value])));
    },
  );
});

describe('curveRows', () => {
  it('ends each seed’s curve with a row without x and y, and keeps the means apart', () => {
    const { seeds, means } = curveRows(chart(true, 1));
    const breaks = seeds.filter((r) => r.x === null);
    expect(breaks.map((r) => [r.g, r.seed])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    expect(breaks.every((r) => r.y === null)).toBe(true);
    expect(seeds.length).toBe(2 * 3 * 7);
    expect(means.map((r) => r.g)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    expect(means.every((r) => r.lo !== null && r.lo < r.y && r.y < r.hi!)).toBe(true);
  });
});

describe('legendSignals', () => {
  it('hides a group whose own box, run or method is unchecked', () => {
    const three: GroupData[] = [...groups, { ...groups[0]!, label: 'c · ppo', run: 'c', method: 'ppo' }];
    const state = {
      hiddenRuns: [] as string[],
      hiddenMethods: [] as string[],
      hiddenGroups: [] as number[],
      hiddenSeeds: [2],
      showSeeds: false,
      showMean: true,
    };
    expect(legendSignals(state, three)).toEqual({
      hiddenGroups: [],
      hiddenSeeds: [2],
      showSeeds: false,
      showMean: true,
    });
    expect(legendSignals({ ...state, hiddenMethods: ['ppo'] }, three).hiddenGroups).toEqual([1, 2]);
    expect(legendSignals({ ...state, hiddenRuns: ['a'], hiddenGroups: [2] }, three).hiddenGroups).toEqual([
      0, 2,
    ]);
  });
});

describe('curveTooltip', () => {
  it('writes a mean point’s run, steps, mean and interval, escaped; anything else as given', () => {
    const html = curveTooltip('P(optimal action)', [{ ...groups[0]!, label: 'a<b' }])(
      { datum: { g: 0, x: 12000, y: 0.81234, lo: 0.8, hi: 0.82 } },
      (v) => String(v).replaceAll('<', '&lt;'),
    );
    expect(html).toBe(
      '<table><tr><td class="key">run</td><td class="value">a&lt;b</td></tr>' +
        '<tr><td class="key">environment steps</td><td class="value">12,000</td></tr>' +
        '<tr><td class="key">P(optimal action) (mean)</td><td class="value">0.8123</td></tr>' +
        '<tr><td class="key">95% CI from</td><td class="value">0.8</td></tr>' +
        '<tr><td class="key">95% CI to</td><td class="value">0.82</td></tr></table>',
    );
    expect(curveTooltip('y', groups)({ g: 0, seed: 3, x: 1, y: 2 }, () => 'as given')).toBe('as given');
    // Steps as Intl.NumberFormat('en-US', { maximumSignificantDigits: 12 }) writes them.
    const intl = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 12 });
    for (const x of [0, 7, 999, 1000, 12345.5, 1234567, -4321, 0.25, 987654321012.4]) {
      const cell = curveTooltip('y', groups)({ g: 1, x, y: 1, lo: null, hi: null }, String);
      expect(cell).toContain(`<td class="value">${intl.format(x)}</td>`);
    }
  });
});
