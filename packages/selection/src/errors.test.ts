import { fc, test } from '@fast-check/vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect } from 'vitest';
import { EliteSampler, expectedCounts, monteCarloOccupancy, rankOccupancy, selectElites } from './index.js';

/** Documented argument errors: a TypeError or RangeError whose message starts with the parameter. */
const PARAMETER =
  /^(n|batchSize|keep|batches|draws|threshold|returns(\[\d+\]|\.length)?|batches × keep|options|random(\.next\(\))?|out) must /;

function expectValidOrDocumentedError(run: () => unknown, check: (result: unknown) => void): void {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    expect(error instanceof RangeError || error instanceof TypeError, String(error)).toBe(true);
    expect((error as Error).message).toMatch(PARAMETER);
    return;
  }
  check(result);
}

const size = fc.oneof(
  fc.integer({ min: -3, max: 12 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 33),
  fc.constantFrom('3', null, undefined, {}, 3n) as fc.Arbitrary<unknown>,
);
// Number of simulated minibatches: small, or invalid (a valid huge count would only take long).
const draws = fc.oneof(
  fc.integer({ min: -3, max: 60 }),
  fc.double({ max: 60 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, '3', null) as fc.Arbitrary<unknown>,
);
const returns = fc.oneof(
  fc.array(fc.oneof(fc.integer({ min: -2, max: 2 }), fc.double()), { maxLength: 12 }),
  fc.constantFrom(null, 7, 'abc', [1, '2'], [Number.NaN]) as fc.Arbitrary<unknown>,
);
const random = fc.oneof(
  fc.integer().map((seed) => xoroshiro128plus(seed) as unknown),
  fc.constantFrom(1, -0.5, Number.NaN, 0.999).map((v) => () => v),
  fc.constantFrom(null, 5, {}) as fc.Arbitrary<unknown>,
);
const threshold = fc.oneof(fc.constant(undefined), fc.double(), fc.constant('1') as fc.Arbitrary<unknown>);

describe('every public function', () => {
  test.prop([size, size, size])('rankOccupancy: a probability vector or a documented error', (n, C, K) => {
    expectValidOrDocumentedError(
      () => rankOccupancy(n as number, C as number, K as number),
      (p) => {
        const v = p as Float64Array;
        expect(v.length).toBe(n);
        expect(v.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
        expect(Math.abs(v.reduce((s, x) => s + x, 0) - 1)).toBeLessThan(1e-12);
      },
    );
  });

  test.prop([returns, size, size, size, threshold, random])(
    'selectElites and expectedCounts: a valid selection or a documented error',
    (r, J, C, K, t, g) => {
      const options = { batches: J, batchSize: C, keep: K, threshold: t } as never;
      expectValidOrDocumentedError(
        () => selectElites(r as number[], options, g as () => number),
        (result) => {
          const { indices, counts } = result as { indices: Uint32Array; counts: Uint32Array };
          expect(indices.length).toBeLessThanOrEqual((J as number) * (K as number));
          expect(counts.reduce((s, c) => s + c, 0)).toBe(indices.length);
        },
      );
      expectValidOrDocumentedError(
        () => expectedCounts(r as number[], options),
        (e) => expect((e as Float64Array).every((x) => Number.isFinite(x) && x >= 0)).toBe(true),
      );
      expectValidOrDocumentedError(
        () => new EliteSampler(r as number[], options, g as () => number).next(),
        (m) => expect((m as { kept: Uint32Array }).kept.length).toBeLessThanOrEqual(K as number),
      );
    },
  );

  test.prop([size, size, size, draws, random])(
    'monteCarloOccupancy: a distribution or a documented error',
    (n, C, K, d, g) => {
      expectValidOrDocumentedError(
        () => monteCarloOccupancy(n as number, C as number, K as number, d as number, g as () => number),
        (q) => expect(Math.abs((q as Float64Array).reduce((s, x) => s + x, 0) - 1)).toBeLessThan(1e-9),
      );
    },
  );
});
