import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { meanInterval } from './mean-interval.js';
import type { RunData } from './run-data.js';
import { viewModel } from './view-model.js';

const bernoulli = { kind: 'bernoulli', probs: [0.2, 0.8] };
const gaussian = { kind: 'gaussian', means: [1, 0.3], sds: [0.2, 0.2] };

/** A train run whose metric at iteration t of seed s is f(s, t) (and a new metric the view has never seen). */
function trainRun(
  name: string,
  seeds: number,
  iterations: number,
  f: (s: number, t: number) => number,
  config: Record<string, unknown> = {},
): RunData {
  const metrics = [];
  for (let s = 0; s < seeds; s++) {
    for (let t = 1; t <= iterations; t++) {
      metrics.push({
        seed: s,
        iteration: t,
        samples: 2 * t,
        optimalProbability: f(s, t),
        successRate: t % 2,
        isWeightEss: t < 3 ? null : t,
        evaluation: { heldOutSuccess: t / 10, extra: { depth: 1 } },
        // A Redis run's replay record (stream ids, draw counts) is bookkeeping, not a curve.
        replay: { pool: 'p', first: '1-0', last: '9-0', size: t, selectionDraws: 20 * t },
        // A label that changes every iteration names no configuration: it must not split the curves.
        level: `level-${t}`,
        updated: true,
      });
    }
  }
  return {
    name,
    config: {
      command: 'train',
      method: 'ftw',
      environment: bernoulli,
      capacity: 64,
      batchSize: 8,
      keep: 2,
      ...config,
    },
    metrics,
    summary: {
      finalOptimalProbability: { n: seeds, mean: 0.5, halfWidth: 0.1, sd: 0.1 },
      environmentSteps: 2 * iterations,
    },
  };
}

describe('viewModel', () => {
  it('discovers every numeric metric, known ones first with their labels, booleans, fixed fields and replay records left out', () => {
    const model = viewModel([trainRun('a', 2, 5, (s, t) => s + t)]);
    expect(model.environments[0]!.charts.map((c) => c.metric)).toEqual([
      'optimalProbability',
      'successRate',
      'evaluation.heldOutSuccess',
      'evaluation.extra.depth',
      'isWeightEss',
    ]);
    expect(model.environments[0]!.charts.map((c) => c.title)).toEqual([
      'Probability of the optimal action',
      'Success rate',
      'Success rate on held-out levels',
      'Evaluation: extra: depth',
      'Is weight ess',
    ]);
    expect(model.environments[0]!.charts[1]!.unitInterval).toBe(true);
    // Nulls are left out of the curves, not drawn as zeros.
    const ess = model.environments[0]!.charts[4]!.curves.find((c) => c.s === 0)!;
    expect(ess.x).toEqual([6, 8, 10]);
    expect(model.figure1).toEqual({ n: 64, c: 8, k: 2, threshold: null });
  });

  it('draws each seed and the mean with the 95% Student-t band of meanInterval', () => {
    const f = (s: number, t: number): number => Math.sin(3 * s + t) / (1 + s);
    const model = viewModel([trainRun('a', 4, 30, f)]);
    const chart = model.environments[0]!.charts[0]!;
    expect(chart.curves.filter((c) => c.s !== null).map((c) => c.s)).toEqual([0, 1, 2, 3]);
    const mean = chart.curves.find((c) => c.s === null)!;
    expect(mean.x).toEqual(Array.from({ length: 30 }, (_, i) => 2 * (i + 1)));
    for (const [i, x] of mean.x.entries()) {
      const t = x / 2;
      const interval = meanInterval([0, 1, 2, 3].map((s) => f(s, t)));
      // Values are kept to 5 significant digits in the page.
      expect(mean.y[i]).toBeCloseTo(interval.mean, 4);
      expect(mean.lo![i]).toBeCloseTo(interval.mean - interval.halfWidth, 4);
      expect(mean.hi![i]).toBeCloseTo(interval.mean + interval.halfWidth, 4);
    }
  });

  // The bound does not grow with the iterations (bench/view-page.mjs measures 10^4 on a page); 3,000 keep
  // the test fast.
  it('keeps 100 seeds × 3,000 iterations to a few thousand points per chart, extremes included', () => {
    const run = trainRun('big', 100, 3_000, (s, t) => (t === 1_500 + s ? 7 : Math.sin(t / 100 + s) / 2));
    const model = viewModel([run]);
    const chart = model.environments[0]!.charts[0]!;
    const points = chart.curves.reduce((n, c) => n + c.x.length, 0);
    expect(points).toBeLessThanOrEqual(100 * (2 * 15 + 2) + 2 * 250 + 2);
    // Every seed's spike survives the thinning.
    for (const c of chart.curves.filter((k) => k.s !== null)) expect(Math.max(...c.y)).toBe(7);
    expect(JSON.stringify(model).length).toBeLessThan(3e6);
  });

  it('keeps, when the mean curve is thinned, the band of every dropped point inside its kept neighbours’ band', () => {
    // 3 seeds × 1,200 iterations (more than the 2 × 250 points a mean curve keeps). The seeds agree except at
    // iteration 775, where they spread by ±0.3 around the same mean: the mean rises steadily, so thinning
    // keeps only each bucket's ends and drops iteration 775, but its spread must stay visible.
    const iterations = 1_200;
    const f = (s: number, t: number): number => t / iterations + (t === 775 ? 0.3 * (s - 1) : 0);
    const model = viewModel([trainRun('a', 3, iterations, f)]);
    const mean = model.environments[0]!.charts[0]!.curves.find((c) => c.s === null)!;
    expect(mean.x.length).toBeLessThan(600);
    expect(mean.x).not.toContain(2 * 775);
    // The band from the definition: x̄ ± t_{0.975, 2} · s / √3, s with n − 1 (t_{0.975, 2} = 4.302652729749464).
    const band = (t: number): [number, number] => {
      const values = [0, 1, 2].map((s) => f(s, t));
      const m = (values[0]! + values[1]! + values[2]!) / 3;
      const sd = Math.sqrt(values.reduce((q, v) => q + (v - m) ** 2, 0) / 2);
      const half = (4.302652729749464 * sd) / Math.sqrt(3);
      return [m - half, m + half];
    };
    // Kept to 5 significant digits in the page.
    const tolerance = 1e-4;
    const kept = mean.x.map((x) => x / 2);
    for (let j = 0; j + 1 < kept.length; j++) {
      // Every iteration between two kept points lies within the union of their bands...
      for (let t = kept[j]!; t <= kept[j + 1]!; t++) {
        const [lower, upper] = band(t);
        expect(Math.min(mean.lo![j]!, mean.lo![j + 1]!), `iteration ${t}`).toBeLessThanOrEqual(
          lower + tolerance,
        );
        expect(Math.max(mean.hi![j]!, mean.hi![j + 1]!), `iteration ${t}`).toBeGreaterThanOrEqual(
          upper - tolerance,
        );
      }
    }
    for (let j = 0; j < kept.length; j++) {
      // ... and a kept point's band reaches no further than the iterations between its kept neighbours.
      const from = j === 0 ? kept[0]! : kept[j - 1]! + 1;
      const to = j === kept.length - 1 ? kept[j]! : kept[j + 1]! - 1;
      let lowest = Number.POSITIVE_INFINITY;
      let highest = Number.NEGATIVE_INFINITY;
      for (let t = from; t <= to; t++) {
        lowest = Math.min(lowest, band(t)[0]);
        highest = Math.max(highest, band(t)[1]);
      }
      expect(mean.lo![j]!, `kept iteration ${kept[j]}`).toBeGreaterThanOrEqual(lowest - tolerance);
      expect(mean.hi![j]!, `kept iteration ${kept[j]}`).toBeLessThanOrEqual(highest + tolerance);
      expect(mean.y[j]!).toBeCloseTo(kept[j]! / iterations, 4);
    }
    // The spread at iteration 775 shows: ±4.3027 · 0.3 / √3 = ±0.74524 around 775/1,200.
    expect(Math.max(...mean.hi!)).toBeCloseTo(775 / iterations + (4.302652729749464 * 0.3) / Math.sqrt(3), 4);
  });

  it('averages seeds whose episodes differ in length on a common grid of steps, holding each last value', () => {
    // Seed 0 reaches step 3t at iteration t with value t; seed 1 reaches step 5t with value 10t.
    const metrics = [1, 2, 3, 4, 5, 6].flatMap((t) => [
      { seed: 0, iteration: t, samples: 3 * t, successRate: t },
      { seed: 1, iteration: t, samples: 5 * t, successRate: 10 * t },
    ]);
    const run: RunData = {
      name: 'multi',
      config: { command: 'train', environment: bernoulli },
      metrics,
      summary: {},
    };
    const model = viewModel([run]);
    const mean = model.environments[0]!.charts[0]!.curves.find((c) => c.s === null)!;
    // The grid spans the steps both seeds cover: 5 (seed 1's first) to 18 (seed 0's last).
    expect(mean.x[0]).toBe(5);
    expect(mean.x[mean.x.length - 1]).toBe(18);
    const held = (steps: readonly number[], values: readonly number[], x: number): number => {
      let v = Number.NaN;
      for (let i = 0; i < steps.length; i++) if (steps[i]! <= x) v = values[i]!;
      return v;
    };
    for (const [i, x] of mean.x.entries()) {
      const a = held([3, 6, 9, 12, 15, 18], [1, 2, 3, 4, 5, 6], x);
      const b = held([5, 10, 15, 20, 25, 30], [10, 20, 30, 40, 50, 60], x);
      expect(mean.y[i]).toBeCloseTo((a + b) / 2, 3);
    }
    expect(model.notices.join(' ')).toMatch(/seeds of multi · train do not share their environment steps/);
  });

  it('splits runs by environment, labels compare methods and lists the configuration keys that differ', () => {
    const compare: RunData = {
      name: 'cmp',
      config: {
        command: 'compare',
        seeds: [0, 1],
        scenarios: [
          {
            name: 'g',
            methods: [
              { label: 'ftw-sampled', config: { method: 'ftw', environment: gaussian, keep: 1 } },
              { label: 'ppo', config: { method: 'ppo', environment: gaussian, keep: 1 } },
            ],
          },
        ],
      },
      metrics: ['ftw-sampled', 'ppo'].flatMap((method) =>
        [0, 1].flatMap((seed) =>
          [1, 2, 3].map((t) => ({ scenario: 'g', method, seed, iteration: t, samples: 4 * t, reward: t })),
        ),
      ),
      summary: {
        scenarios: [
          {
            name: 'g',
            methods: [
              { label: 'ftw-sampled', meanReward: { n: 2, mean: 2, halfWidth: 0, sd: 0 } },
              { label: 'ppo', meanReward: { n: 2, mean: 1.23456, halfWidth: 0.5, sd: 0.1 } },
            ],
          },
        ],
      },
    };
    const model = viewModel([trainRun('t', 2, 3, () => 0.5), compare]);
    expect(model.groups.map((g) => [g.label, g.method, g.environment])).toEqual([
      ['t · ftw', 'ftw', 0],
      ['cmp · g · ftw-sampled', 'ftw-sampled', 1],
      ['cmp · g · ppo', 'ppo', 1],
    ]);
    // Without a describeEnvironment option, an environment is named by its fields.
    expect(model.environments.map((e) => e.label)).toEqual([
      'bernoulli, probs 0.2, 0.8',
      'gaussian, means 1, 0.3, sds 0.2, 0.2',
    ]);
    expect(model.notices[0]).toMatch(
      /2 different environments.*1\. bernoulli, probs 0\.2, 0\.8: t; 2\. gaussian.*: cmp\)\.$/,
    );
    // With one, by its text, except where it throws or names something `undefined` (a kind it does not know).
    const named = (describe: (env: Readonly<Record<string, unknown>>) => string): string[] =>
      viewModel([trainRun('t', 2, 3, () => 0.5), compare], {
        describeEnvironment: describe,
      }).environments.map((e) => e.label);
    expect(named((env) => `${String(env['kind'])} bandit`)).toEqual(['bernoulli bandit', 'gaussian bandit']);
    expect(
      named((env) => {
        if (env['kind'] === 'gaussian') throw new Error('unknown kind');
        return `Bernoulli bandit, p ${String(env['sds'])}`;
      }),
    ).toEqual(['bernoulli, probs 0.2, 0.8', 'gaussian, means 1, 0.3, sds 0.2, 0.2']);
    const summary = model.environments[1]!.tables[0]!;
    expect(summary.columns).toEqual(['run', 'mean reward']);
    expect(summary.rows).toEqual([
      ['cmp · g · ftw-sampled', '2.000 ± 0.000'],
      ['cmp · g · ppo', '1.235 ± 0.500'],
    ]);
    expect(model.configDiff.keys).toEqual(
      expect.arrayContaining(['command', 'environment.kind', 'method', 'label', 'keep']),
    );
    const value = (key: string): readonly string[] =>
      model.configDiff.values[model.configDiff.keys.indexOf(key)]!;
    expect(value('method')).toEqual(['ftw', 'ftw', 'ppo']);
    expect(value('label')).toEqual(['—', 'ftw-sampled', 'ppo']);
    expect(value('keep')).toEqual(['2', '1', '1']);
  });

  // Rows are read in one walk that remembers each position's column: rows whose fields come in another
  // order, miss a metric, or nest it must still put every value in its own metric's curve.
  test.prop([
    fc.array(
      fc.record({
        seed: fc.integer({ min: 0, max: 2 }),
        order: fc.shuffledSubarray(['alpha', 'beta', 'gamma', 'nested'], { minLength: 0, maxLength: 4 }),
        values: fc.array(fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constant(null)), {
          minLength: 4,
          maxLength: 4,
        }),
      }),
      { minLength: 1, maxLength: 40 },
    ),
  ])('puts every value in its metric and seed whatever the order and presence of the fields', (specs) => {
    const iteration = new Map<number, number>();
    const metrics = specs.map(({ seed, order, values }) => {
      const t = (iteration.get(seed) ?? 0) + 1;
      iteration.set(seed, t);
      const row: Record<string, unknown> = { seed, iteration: t, samples: 10 * t };
      for (const field of order) {
        const v = values[['alpha', 'beta', 'gamma', 'nested'].indexOf(field)]!;
        row[field] = field === 'nested' ? { delta: v } : v;
      }
      return row;
    });
    const model = viewModel([
      { name: 'r', config: { command: 'train', environment: bernoulli }, metrics, summary: {} },
    ]);
    const charts = model.environments[0]?.charts ?? [];
    for (const metric of ['alpha', 'beta', 'gamma', 'nested.delta']) {
      const read = (row: Record<string, unknown>): unknown =>
        metric === 'nested.delta' ? (row['nested'] as { delta?: unknown } | undefined)?.delta : row[metric];
      const chart = charts.find((c) => c.metric === metric);
      const expected = [0, 1, 2].flatMap((seed) => {
        const rows = metrics.filter((r) => r['seed'] === seed && typeof read(r) === 'number');
        return rows.length === 0 ? [] : [{ s: seed, x: rows.map((r) => r['samples']), y: rows.map(read) }];
      });
      if (expected.length === 0) {
        expect(chart).toBeUndefined();
        continue;
      }
      const curves = chart!.curves
        .filter((c) => c.s !== null)
        .map((c) => ({ s: c.s, x: c.x, y: c.y }))
        .sort((a, b) => a.s! - b.s!);
      expect(curves).toEqual(expected);
    }
  });

  it("takes each compare group's summary figures and configuration from its own scenario and method", () => {
    const scenarios = [
      { name: 'b', environment: bernoulli, keep: 1 },
      { name: 'g', environment: gaussian, keep: 2 },
    ];
    const methods = ['ftw', 'ppo'];
    const compare: RunData = {
      name: 'cmp',
      config: {
        command: 'compare',
        seeds: [0],
        iterations: 3,
        scenarios: scenarios.map(({ name, environment, keep }) => ({
          name,
          methods: methods.map((label) => ({ label, config: { method: label, environment, keep } })),
        })),
      },
      // Scenario i, method m: reward 100 i + 10 m + t at iteration t.
      metrics: scenarios.flatMap(({ name }, i) =>
        methods.flatMap((method, m) =>
          [1, 2, 3].map((t) => ({
            scenario: name,
            method,
            seed: 0,
            iteration: t,
            samples: t,
            reward: 100 * i + 10 * m + t,
          })),
        ),
      ),
      // Scenario g lists its methods in the other order: they are found by label, not by position.
      summary: {
        scenarios: [
          {
            name: 'b',
            methods: [
              { label: 'ftw', meanReward: { n: 1, mean: 1.5, halfWidth: 0, sd: 0 } },
              { label: 'ppo', meanReward: { n: 1, mean: 2.5, halfWidth: 0, sd: 0 } },
            ],
          },
          {
            name: 'g',
            methods: [
              { label: 'ppo', meanReward: { n: 1, mean: 4.5, halfWidth: 0, sd: 0 } },
              { label: 'ftw', meanReward: { n: 1, mean: 3.5, halfWidth: 0, sd: 0 } },
            ],
          },
        ],
      },
    };
    const model = viewModel([compare]);
    expect(model.environments.map((e) => e.tables.map((t) => t.rows))).toEqual([
      [
        [
          ['cmp · b · ftw', '1.500'],
          ['cmp · b · ppo', '2.500'],
        ],
        [
          ['cmp · b · ftw', '3.000'],
          ['cmp · b · ppo', '13.00'],
        ],
      ],
      [
        [
          ['cmp · g · ftw', '3.500'],
          ['cmp · g · ppo', '4.500'],
        ],
        [
          ['cmp · g · ftw', '103.0'],
          ['cmp · g · ppo', '113.0'],
        ],
      ],
    ]);
    // Each group's configuration is its scenario's and method's: command, seeds and iterations are shared.
    expect(model.configDiff).toEqual({
      keys: [
        'environment.kind',
        'environment.means',
        'environment.probs',
        'environment.sds',
        'keep',
        'label',
        'method',
        'scenario',
      ],
      values: [
        ['bernoulli', 'bernoulli', 'gaussian', 'gaussian'],
        ['—', '—', '[1,0.3]', '[1,0.3]'],
        ['[0.2,0.8]', '[0.2,0.8]', '—', '—'],
        ['—', '—', '[0.2,0.2]', '[0.2,0.2]'],
        ['1', '1', '2', '2'],
        ['ftw', 'ppo', 'ftw', 'ppo'],
        ['ftw', 'ppo', 'ftw', 'ppo'],
        ['b', 'b', 'g', 'g'],
      ],
      identical: 3,
    });
  });

  it('keeps the curves of two methods apart when one method follows another at the same seed', () => {
    const metrics = ['a', 'b'].flatMap((method, m) =>
      [1, 2, 3].map((t) => ({ method, seed: 0, iteration: t, samples: t, reward: 10 * m + t })),
    );
    const model = viewModel([
      { name: 'c', config: { command: 'compare', environment: bernoulli }, metrics, summary: {} },
    ]);
    expect(model.groups.map((g) => g.method)).toEqual(['a', 'b']);
    const seeds = model.environments[0]!.charts[0]!.curves.filter((c) => c.s === 0);
    expect(seeds.map((c) => [c.g, c.y])).toEqual([
      [0, [1, 2, 3]],
      [1, [11, 12, 13]],
    ]);
  });

  // Values are kept to 5 significant digits without formatting each one: the page must hold exactly what
  // Number(v.toPrecision(5)) gives, for tiny, huge, negative values, halves and -0.
  test.prop([
    fc.array(
      fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.integer({ min: -2_000_000, max: 2_000_000 }).map((i) => i / 20),
        fc.constantFrom(-0, 5e-324, 1.7976931348623157e308, 0.000125, 1.00005, 99999.5, 999995, 12345.5e-10),
      ),
      { minLength: 1, maxLength: 200 },
    ),
  ])('keeps each drawn value as Number(v.toPrecision(5))', (values) => {
    const metrics = values.map((v, i) => ({ seed: 0, iteration: i + 1, samples: i + 1, reward: v }));
    const model = viewModel([
      { name: 'r', config: { command: 'train', environment: bernoulli }, metrics, summary: {} },
    ]);
    const curve = model.environments[0]!.charts[0]!.curves.find((c) => c.s === 0)!;
    expect(curve.y).toEqual(values.map((v) => Number(v.toPrecision(5))));
  });
});
