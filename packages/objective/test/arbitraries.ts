// fast-check arbitraries shared by the loss tests.
import { fc } from '@fast-check/vitest';

/** Logits from moderate to extreme: ±1000 exactly, anything in between, and near-deterministic gaps. */
export const extremeLogit = fc.oneof(
  fc.double({ min: -5, max: 5, noNaN: true }),
  fc.constantFrom(-1000, 1000, 30, -30),
  fc.double({ min: -1000, max: 1000, noNaN: true }),
);

/** Logits in [-4, 4], where the naive textbook formulas are accurate. */
export const moderateLogit = fc.double({ min: -4, max: 4, noNaN: true });

export interface Batch {
  rows: number;
  actions: number;
  logits: number[];
  selected: number[];
  /** Per-row values (advantages, returns, gradients of log π), in [-3, 3]. */
  values: number[];
  /** Per-row log-probabilities in [-6, 0] (behaviour policies). */
  logProbs: number[];
  /** Per-row weights with a positive first entry, or undefined. */
  weights: number[] | undefined;
  normalize: 'mean' | 'sum';
}

/** A batch of 1–4 rows over 1–5 actions with per-row values, log-probabilities and weights. */
export function batch(logit: fc.Arbitrary<number>): fc.Arbitrary<Batch> {
  return fc
    .record({ rows: fc.integer({ min: 1, max: 4 }), actions: fc.integer({ min: 1, max: 5 }) })
    .chain(({ rows, actions }) => {
      const perRow = <T>(a: fc.Arbitrary<T>) => fc.array(a, { minLength: rows, maxLength: rows });
      return fc.record({
        rows: fc.constant(rows),
        actions: fc.constant(actions),
        logits: fc.array(logit, { minLength: rows * actions, maxLength: rows * actions }),
        selected: perRow(fc.integer({ min: 0, max: actions - 1 })),
        values: perRow(fc.double({ min: -3, max: 3, noNaN: true })),
        logProbs: perRow(fc.double({ min: -6, max: 0, noNaN: true })),
        weights: fc.option(
          fc
            .tuple(
              fc.double({ min: 0.1, max: 5, noNaN: true }),
              perRow(fc.double({ min: 0, max: 5, noNaN: true })),
            )
            .map(([first, rest]) => [first, ...rest.slice(1)]),
          { nil: undefined },
        ),
        normalize: fc.constantFrom('mean' as const, 'sum' as const),
      });
    });
}

/** Largest absolute entry. */
export function maxAbs(values: ArrayLike<number>): number {
  let m = 0;
  for (let k = 0; k < values.length; k++) m = Math.max(m, Math.abs(values[k]!));
  return m;
}
