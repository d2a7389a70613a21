import { fc, test } from '@fast-check/vitest';
import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import {
  finiteDifference,
  ftwLossDefinition,
  type SelectedTrajectory,
  type StepData,
} from '../test/definitions.js';
import { REPRODUCE_OPTIONS as REPRODUCE_CONFIG, type TestOptions as TrainConfig } from '../test/options.js';
import type { Episode } from './episode.js';
import { type EliteChoice, eliteSelector, FtwUpdater } from './ftw-updater.js';
import { createOptimizer } from './optimizer.js';
import { TabularPolicy } from './tabular-policy.js';

const A = 3;
const O = 4;

function makeEpisode(steps: readonly StepData[], ret: number, version: number): Episode {
  return {
    length: steps.length,
    observations: Int32Array.from(steps, (s) => s.observation),
    actions: Int32Array.from(steps, (s) => s.action),
    logProbs: new Float64Array(steps.length).fill(-Math.log(A)),
    versions: new Uint32Array(steps.length).fill(version),
    return: ret,
  };
}

const stepArb = fc.record({
  observation: fc.integer({ min: 0, max: O - 1 }),
  action: fc.integer({ min: 0, max: A - 1 }),
});
const episodeArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 4 }),
  ret: fc.double({ min: -2, max: 2, noNaN: true }),
});
const thetaArb = fc.array(fc.double({ min: -2, max: 2, noNaN: true }), {
  minLength: O * A,
  maxLength: O * A,
});
/** Selection counts for 3 episodes, at least one positive: repeats (m > 1) are the point. */
const countsArb = fc
  .array(fc.integer({ min: 0, max: 4 }), { minLength: 3, maxLength: 3 })
  .filter((c) => c.some((m) => m > 0));

/** The learning rate of the SGD step: the parameter change is −LR times the gradient the updater applied. */
const LR = 1;
/** |applied − finite difference| allowed per coordinate: the central difference is accurate to ~1e-10. */
const TOLERANCE = 1e-7;

function expectGradient(applied: Float64Array, expected: Float64Array): void {
  expect(applied.length).toBe(expected.length);
  for (let k = 0; k < expected.length; k++) {
    expect(
      Math.abs(applied[k]! - expected[k]!),
      `coordinate ${k}: ${applied[k]} vs ${expected[k]}`,
    ).toBeLessThan(TOLERANCE * (1 + Math.abs(expected[k]!)));
  }
}

function setup(config: Partial<TrainConfig>, choices: EliteChoice[]) {
  const full: TrainConfig = { ...REPRODUCE_CONFIG, capacity: 32, warmup: 1, ...config };
  const policy = new TabularPolicy(A, O);
  let call = 0;
  const updater = new FtwUpdater(full, policy, createOptimizer('sgd', LR), () => choices[call++] ?? null);
  return { policy, updater };
}

function selectionOf(
  episodes: readonly { steps: StepData[] }[],
  counts: readonly number[],
): {
  choice: EliteChoice;
  selected: SelectedTrajectory[];
  klRows: number[];
} {
  const positions: number[] = [];
  const chosen: number[] = [];
  const selected: SelectedTrajectory[] = [];
  const klRows: number[] = [];
  counts.forEach((m, i) => {
    if (m === 0) return;
    positions.push(i);
    chosen.push(m);
    selected.push({ steps: episodes[i]!.steps, count: m });
    for (const s of episodes[i]!.steps) klRows.push(s.observation);
  });
  return { choice: { positions, counts: chosen, size: positions.length }, selected, klRows };
}

describe('FtwUpdater', () => {
  for (const kl of ['reverse', 'forward'] as const) {
    for (const reference of ['uniform', 'initial'] as const) {
      test.prop(
        [
          thetaArb,
          thetaArb,
          fc.tuple(episodeArb, episodeArb, episodeArb),
          countsArb,
          fc.double({ min: 0, max: 2, noNaN: true }),
        ],
        { numRuns: 40 },
      )(
        `applies the gradient of L(θ) = −Σ m_i/(L_i M) Σ_t log π(a|o) + β·KL, ${kl} KL to the ${reference} policy, repeats counted`,
        (initial, theta0, episodes, counts, beta) => {
          const { choice, selected, klRows } = selectionOf(episodes, counts);
          const policy = new TabularPolicy(A, O);
          policy.parameters.set(initial);
          const updater = new FtwUpdater(
            { ...REPRODUCE_CONFIG, capacity: 32, warmup: 1, kl, reference, beta },
            policy,
            createOptimizer('sgd', LR),
            () => choice,
          );
          // `initial` is the policy when the updater was created; the policy then moves on (earlier training).
          policy.parameters.set(theta0);
          const stats = updater.update(
            episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
            0,
          );
          expect(stats).not.toBeNull();
          const ref = reference === 'uniform' ? null : Float64Array.from(initial);
          const loss = (theta: Float64Array): number =>
            ftwLossDefinition(theta, A, selected, klRows, beta, ref, kl);
          const applied = Float64Array.from(theta0, (t, k) => (t - policy.parameters[k]!) / LR);
          expectGradient(applied, finiteDifference(loss, theta0));
          expect(stats!.loss).toBeCloseTo(loss(Float64Array.from(theta0)), 10);
        },
      );
    }
  }

  for (const kl of ['reverse', 'forward'] as const) {
    test.prop([thetaArb, fc.tuple(episodeArb, episodeArb, episodeArb), countsArb, countsArb], {
      numRuns: 30,
    })(
      `with reference previous, pulls update k towards the policy before update k − 1 (${kl} KL)`,
      (theta0, episodes, counts1, counts2) => {
        const beta = 0.7;
        const first = selectionOf(episodes, counts1);
        // The second update selects among the 6 trajectories now pooled: the second batch's.
        const second = selectionOf(episodes, counts2);
        const secondChoice = {
          positions: Array.from(second.choice.positions, (p) => p + 3),
          counts: second.choice.counts,
          size: second.choice.size,
        };
        const { policy, updater } = setup({ kl, reference: 'previous', beta }, [first.choice, secondChoice]);
        policy.parameters.set(theta0);
        updater.update(
          episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
          0,
        );
        // Update 1: the policy before it is the current one, so the KL term has zero gradient there.
        const theta1 = Float64Array.from(policy.parameters);
        const loss1 = (t: Float64Array): number =>
          ftwLossDefinition(t, A, first.selected, first.klRows, beta, theta0, kl);
        expectGradient(
          Float64Array.from(theta0, (t, k) => (t - theta1[k]!) / LR),
          finiteDifference(loss1, theta0),
        );
        updater.update(
          episodes.map((e) => makeEpisode(e.steps, e.ret, 1)),
          1,
        );
        // Update 2 at θ1: the reference is θ0, the policy before update 1.
        const loss2 = (t: Float64Array): number =>
          ftwLossDefinition(t, A, second.selected, second.klRows, beta, Float64Array.from(theta0), kl);
        expectGradient(
          Float64Array.from(theta1, (t, k) => (t - policy.parameters[k]!) / LR),
          finiteDifference(loss2, theta1),
        );
      },
    );
  }

  it('takes `epochs` steps on the same loss, the reference fixed during the update', () => {
    const episodes = [
      {
        steps: [
          { observation: 0, action: 2 },
          { observation: 3, action: 1 },
        ],
        ret: 1,
      },
      { steps: [{ observation: 1, action: 0 }], ret: 0.5 },
      {
        steps: [
          { observation: 3, action: 0 },
          { observation: 2, action: 2 },
          { observation: 0, action: 1 },
        ],
        ret: 0.2,
      },
    ];
    const { choice, selected, klRows } = selectionOf(episodes, [2, 0, 1]);
    const theta0 = Float64Array.from({ length: O * A }, (_, k) => Math.sin(k));
    const { policy, updater } = setup({ kl: 'reverse', reference: 'previous', beta: 0.3, epochs: 3 }, [
      choice,
    ]);
    policy.parameters.set(theta0);
    updater.update(
      episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
      0,
    );
    const loss = (t: Float64Array): number =>
      ftwLossDefinition(t, A, selected, klRows, 0.3, theta0, 'reverse');
    let theta = theta0;
    for (let epoch = 0; epoch < 3; epoch++) {
      const g = finiteDifference(loss, theta);
      theta = Float64Array.from(theta, (t, k) => t - LR * g[k]!);
    }
    expectGradient(policy.parameters, theta);
  });

  it('reports the selection weighted by its counts: elite mean and spread, total and staleness', () => {
    const episodes = [
      { steps: [{ observation: 0, action: 0 }], ret: 1 },
      {
        steps: [
          { observation: 1, action: 1 },
          { observation: 2, action: 2 },
        ],
        ret: 3,
      },
      { steps: [{ observation: 0, action: 2 }], ret: 0 },
    ];
    const { choice } = selectionOf(episodes, [3, 1, 0]);
    const { updater } = setup({}, [null as unknown as EliteChoice, choice]);
    expect(
      updater.update(
        episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
        0,
      ),
    ).toBeNull();
    const stats = updater.update([makeEpisode([{ observation: 3, action: 0 }], 9, 4)], 4)!;
    // Counts 3 and 1 on returns 1 and 3: mean 6/4, spread sqrt((3·1 + 9)/4 − 2.25) = sqrt(0.75).
    expect(stats.selected).toBe(4);
    expect(stats.eliteMean).toBe(1.5);
    expect(stats.eliteSpread).toBeCloseTo(Math.sqrt(0.75), 14);
    // Both selected trajectories are from version 0, measured at version 4; the pool holds one of version 4.
    expect(stats.selectionStaleness).toBe(4);
    expect(stats.poolStaleness).toBe((4 + 4 + 4 + 0) / 4);
    expect(stats.poolSize).toBe(4);
  });

  describe('failure share', () => {
    const one = (observation: number, ret: number) => ({ steps: [{ observation, action: 0 }], ret });
    /** One update selecting `counts` of episodes with returns `returns`; returns its failure share. */
    function shareOf(returns: readonly number[], counts: readonly number[], failureReturn?: number) {
      const episodes = returns.map((r, i) => one(i % O, r));
      const { choice } = selectionOf(episodes, counts);
      const { updater } = setup(failureReturn === undefined ? {} : { failureReturn }, [choice]);
      return updater.update(
        episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
        0,
      )!.failureShare;
    }

    it('weights each failure (return ≤ failureReturn) by its selection count', () => {
      // Returns 0, 1, 0 with counts 3, 1, 2: failures hold 3 + 2 of 6 selections (5/6); counted once
      // each it would be 2 of 3. A return equal to failureReturn is a failure.
      expect(shareOf([0, 1, 0], [3, 1, 2], 0)).toBe(5 / 6);
      expect(shareOf([0, 1, 0], [1, 4, 0], 0)).toBe(1 / 5);
      expect(shareOf([0.5, 1, 2], [1, 1, 2], 0.5)).toBe(1 / 4);
    });

    it('is null without failureReturn, and with a threshold that leaves no elite', () => {
      expect(shareOf([0, 1, 0], [3, 1, 2])).toBeNull();
      const episodes = [one(0, 0), one(1, 0)];
      const { updater } = setup({ failureReturn: 0, threshold: 0, beta: 0.1 }, [
        { positions: [], counts: [], size: 0 },
      ]);
      const stats = updater.update(
        episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
        0,
      );
      expect(stats!.failureShare).toBeNull();
    });

    test.prop(
      [
        fc.array(fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: 0, max: 5 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: -2, max: 2 }),
      ],
      { numRuns: 100 },
    )('equals Σ_{r_i ≤ f} m_i / Σ m_i over the selected trajectories', (rows, f) => {
      fc.pre(rows.some(([, m]) => m > 0));
      let failed = 0;
      let total = 0;
      for (const [r, m] of rows) {
        total += m;
        if (r <= f) failed += m;
      }
      const share = shareOf(
        rows.map(([r]) => r),
        rows.map(([, m]) => m),
        f,
      );
      expect(share).toBeCloseTo(failed / total, 14);
    });

    it('rejects a failureReturn that is not a number', () => {
      expect(() => setup({ failureReturn: Number.NaN }, [])).toThrow(/failureReturn.*NaN/);
    });
  });

  describe('with a threshold that leaves no elite', () => {
    const episodes = [
      {
        steps: [
          { observation: 0, action: 2 },
          { observation: 3, action: 1 },
        ],
        ret: 1,
      },
      { steps: [{ observation: 1, action: 0 }], ret: 0 },
      { steps: [{ observation: 3, action: 0 }], ret: 0 },
      {
        steps: [
          { observation: 2, action: 1 },
          { observation: 2, action: 0 },
        ],
        ret: 0.5,
      },
      { steps: [{ observation: 0, action: 1 }], ret: 0 },
    ];
    for (const kl of ['reverse', 'forward'] as const) {
      it(`applies the KL term alone, averaged over the iteration's steps (${kl}, sampled and expected)`, () => {
        for (const selection of ['sampled', 'expected'] as const) {
          const config: TrainConfig = {
            ...REPRODUCE_CONFIG,
            capacity: 32,
            warmup: 5,
            threshold: 1,
            beta: 0.4,
            kl,
            reference: 'initial',
            selection,
          };
          const policy = new TabularPolicy(A, O);
          const initial = Float64Array.from({ length: O * A }, (_, k) => Math.cos(3 * k));
          policy.parameters.set(initial);
          const updater = new FtwUpdater(
            config,
            policy,
            createOptimizer('sgd', LR),
            eliteSelector(config, seededStreams(0).selection),
          );
          const theta0 = Float64Array.from({ length: O * A }, (_, k) => Math.sin(k) / 2);
          policy.parameters.set(theta0);
          const stats = updater.update(
            episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
            0,
          )!;
          expect(stats.selected).toBe(0);
          expect(stats.eliteMean).toBeNull();
          const rows = episodes.flatMap((e) => e.steps.map((s) => s.observation));
          const loss = (t: Float64Array): number => ftwLossDefinition(t, A, [], rows, 0.4, initial, kl);
          expectGradient(
            Float64Array.from(theta0, (t, k) => (t - policy.parameters[k]!) / LR),
            finiteDifference(loss, theta0),
          );
        }
      });
    }

    it('does not update at all when β = 0', () => {
      const config: TrainConfig = { ...REPRODUCE_CONFIG, warmup: 5, threshold: 1, beta: 0 };
      const policy = new TabularPolicy(A, O);
      const updater = new FtwUpdater(
        config,
        policy,
        createOptimizer('sgd', LR),
        eliteSelector(config, seededStreams(0).selection),
      );
      expect(
        updater.update(
          episodes.map((e) => makeEpisode(e.steps, e.ret, 0)),
          0,
        ),
      ).toBeNull();
      expect(Array.from(policy.parameters)).toEqual(new Array(O * A).fill(0));
    });
  });
});
