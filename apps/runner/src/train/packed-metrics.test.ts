import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import { packMetrics, unpackMetrics } from './packed-metrics.js';
import { type IterationMetrics, trainSeed } from './train-seed.js';

const number = fc.oneof(
  fc.double(),
  fc.constantFrom(-0, 0, 5e-324, 1.7976931348623157e308, Number.NaN, Number.POSITIVE_INFINITY),
  fc.integer(),
);
const nullable = fc.option(number, { nil: null });

/** Rows as trainSeed builds them (its fields, in its order), all with the same detail keys or none. */
const rows = fc
  .option(fc.uniqueArray(fc.string({ maxLength: 5 }), { maxLength: 3 }), { nil: undefined })
  .chain((keys) =>
    fc.array(
      fc
        .record({
          seed: fc.nat(),
          iteration: fc.nat(),
          samples: fc.nat(),
          reward: number,
          optimalProbability: number,
          details: fc.array(number, { minLength: keys?.length ?? 0, maxLength: keys?.length ?? 0 }),
          regret: nullable,
          klMean: number,
          klMax: number,
          tvMax: number,
          updated: fc.boolean(),
          eliteMean: nullable,
          eliteSpread: nullable,
          selected: nullable,
          poolStaleness: nullable,
          selectionStaleness: nullable,
        })
        .map(
          ({ details, ...r }): IterationMetrics => ({
            seed: r.seed,
            iteration: r.iteration,
            samples: r.samples,
            reward: r.reward,
            optimalProbability: r.optimalProbability,
            evaluation:
              keys === undefined ? undefined : Object.fromEntries(keys.map((k, i) => [k, details[i]!])),
            regret: r.regret,
            klMean: r.klMean,
            klMax: r.klMax,
            tvMax: r.tvMax,
            updated: r.updated,
            eliteMean: r.eliteMean,
            eliteSpread: r.eliteSpread,
            selected: r.selected,
            poolStaleness: r.poolStaleness,
            selectionStaleness: r.selectionStaleness,
          }),
        ),
      { maxLength: 30 },
    ),
  );

/** Field by field with Object.is (−0 and NaN included), keys in the same order, details too. */
function expectSame(actual: readonly IterationMetrics[], expected: readonly IterationMetrics[]): void {
  expect(actual).toHaveLength(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i] as unknown as Record<string, unknown>;
    const e = expected[i] as unknown as Record<string, unknown>;
    expect(Object.keys(a)).toEqual(Object.keys(e));
    for (const k of Object.keys(e)) {
      if (k === 'evaluation' && e[k] !== undefined) {
        const ad = a[k] as Record<string, number>;
        const ed = e[k] as Record<string, number>;
        expect(Object.keys(ad)).toEqual(Object.keys(ed));
        for (const d of Object.keys(ed)) expect(Object.is(ad[d], ed[d])).toBe(true);
      } else expect(Object.is(a[k], e[k])).toBe(true);
    }
  }
}

describe('packMetrics and unpackMetrics', () => {
  test.prop([rows])('give back every row, field for field and in the same key order', (input) => {
    const packed = packMetrics(input);
    expect(packed).not.toBeNull();
    const back = unpackMetrics(packed!);
    expectSame(back, input);
    expect(back.map((r) => JSON.stringify(r))).toEqual(input.map((r) => JSON.stringify(r)));
  });

  it("give back a reproduction seed's rows, and a Sokoban-like run's with details", () => {
    const seed = trainSeed({ ...REPRODUCE_CONFIG, iterations: 60 }, 4).metrics;
    expectSame(unpackMetrics(packMetrics(seed)!), seed);
    const withDetails = seed.map((r, i) => ({ ...r, evaluation: { heldOutSuccess: i / 7 } }));
    expectSame(unpackMetrics(packMetrics(withDetails)!), withDetails);
  });

  it('leave rows whose details differ in keys or order to be sent as they are (null)', () => {
    const [a, b] = trainSeed({ ...REPRODUCE_CONFIG, iterations: 2 }, 0).metrics as [
      IterationMetrics,
      IterationMetrics,
    ];
    expect(packMetrics([{ ...a, evaluation: { x: 1 } }, b])).toBeNull();
    expect(packMetrics([a, { ...b, evaluation: { x: 1 } }])).toBeNull();
    expect(
      packMetrics([
        { ...a, evaluation: { x: 1, y: 2 } },
        { ...b, evaluation: { y: 2, x: 1 } },
      ]),
    ).toBeNull();
    expect(
      packMetrics([
        { ...a, evaluation: { x: 1 } },
        { ...b, evaluation: { x: 1, y: 2 } },
      ]),
    ).toBeNull();
    expect(unpackMetrics(packMetrics([])!)).toEqual([]);
  });
});
