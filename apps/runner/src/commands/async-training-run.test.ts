import { describe, expect, it } from 'vitest';
import type { AsyncOptions } from '../async/async-options.js';
import type { RedisSeedResult } from '../async/redis-training.js';
import type { AsyncIterationMetrics } from '../async/train-async-seed.js';
import { REPRODUCE_CONFIG } from '../config/reproduce-config.js';
import type { SavedPolicy } from '../train/saved-policy.js';
import { type AsyncOutcome, asyncRunResult, summarizeAsync } from './async-training-run.js';

/** t_{0.975, 1}: the 97.5% quantile of Student's t with 1 degree of freedom, tan(0.475π) (tables: 12.7062). */
const T1 = Math.tan(0.475 * Math.PI);

const OPTIONS: AsyncOptions = {
  actors: 2,
  redis: 'redis://127.0.0.1:6379',
  lag: 0,
  hotLoad: 'step',
  is: { kind: 'truncate', cap: 1 },
  horizon: 4,
};

/** A metrics row; the fields the summary reads are given, the rest are fixed. */
const row = (
  seed: number,
  versionSpread: number,
  multiVersionShare: number,
  update: { pool: number; selected: number; logWeight: number; ess: number } | null,
): AsyncIterationMetrics => ({
  seed,
  iteration: 1,
  samples: 12,
  reward: 0,
  optimalProbability: 0,
  regret: null,
  updated: update !== null,
  version: 0,
  versionSpread,
  multiVersionShare,
  poolStaleness: update?.pool ?? null,
  selectionStaleness: update?.selected ?? null,
  logWeightMean: update?.logWeight ?? null,
  logWeightMin: update === null ? null : update.logWeight - 1,
  logWeightMax: update === null ? null : update.logWeight + 1,
  essShare: update?.ess ?? null,
});

/**
 * Two seeds of unequal length, so that the mean over seeds of per-seed means (what the summary reports)
 * differs from the mean over all rows, and seed 0's first row has no update (its update figures are null).
 */
const seed0: RedisSeedResult = {
  seed: 0,
  metrics: [
    row(0, 1, 0.5, null),
    row(0, 2, 0.25, { pool: 2, selected: 1, logWeight: -0.5, ess: 0.5 }),
    row(0, 3, 0.75, { pool: 4, selected: 3, logWeight: -1.5, ess: 0.75 }),
  ],
  finalOptimalProbability: 0.5,
  environmentSteps: 100,
  updates: 2,
  finalPolicy: { seed: 0 } as SavedPolicy,
  stepsPerSecond: 1000,
  learnerWaitShare: 0.25,
  malformed: 2,
  behaviourCheck: { steps: 10, maxLogProbGap: 0.25 },
  published: { snapshots: 1, deltas: 9, bytes: 1_500_000 },
  faults: [
    {
      kind: 'actor-exit',
      at: Date.UTC(2026, 11, 5, 6, 1, 2, 300),
      actor: 1,
      code: null,
      signal: 'SIGKILL',
      restart: 1,
    },
    { kind: 'server-unreachable', at: Date.UTC(2026, 11, 5, 6, 1, 9), durationMs: 5049 },
  ],
};
const seed1: RedisSeedResult = {
  seed: 1,
  metrics: [row(1, 6, 1, { pool: 8, selected: 5, logWeight: -2, ess: 0.25 })],
  finalOptimalProbability: 0.75,
  environmentSteps: 300,
  updates: 1,
  finalPolicy: { seed: 1 } as SavedPolicy,
  stepsPerSecond: 3000,
  learnerWaitShare: 0.75,
  malformed: 1,
  behaviourCheck: { steps: 5, maxLogProbGap: 0.125 },
  published: { snapshots: 2, deltas: 3, bytes: 750_000 },
  faults: [],
};
const OUTCOME: AsyncOutcome = {
  config: { ...REPRODUCE_CONFIG, seeds: [0, 1] },
  options: OPTIONS,
  mode: 'redis',
  results: [seed0, seed1],
};

/** Mean and 95% half-width of two values, from the definition: s = |a − b| / √2, half-width t·s/√2. */
const two = (a: number, b: number) => ({ n: 2, mean: (a + b) / 2, halfWidth: (T1 * Math.abs(a - b)) / 2 });

/** The cells of a Markdown table's rows by their first cell. */
function cells(table: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of table.split('\n')) {
    const parts = line.split('|').map((c) => c.trim());
    if (parts.length >= 4) map.set(parts[1]!, parts[2]!);
  }
  return map;
}

describe('summarizeAsync', () => {
  it('averages per-seed means over seeds, the update figures over the iterations that have them', () => {
    const s = summarizeAsync(OUTCOME);
    const expectInterval = (
      actual: { n: number; mean: number; halfWidth: number } | null,
      expected: ReturnType<typeof two>,
    ) => {
      expect(actual).not.toBeNull();
      expect(actual!.n).toBe(expected.n);
      expect(actual!.mean).toBeCloseTo(expected.mean, 12);
      expect(actual!.halfWidth).toBeCloseTo(expected.halfWidth, 9);
    };
    expect(s.mode).toBe('redis');
    expectInterval(s.finalOptimalProbability, two(0.5, 0.75));
    expectInterval(s.environmentSteps, two(100, 300));
    // Seed 0: (1 + 2 + 3) / 3 = 2; seed 1: 6. Over all rows it would be 3, with n = 4.
    expectInterval(s.versionSpread, two(2, 6));
    expectInterval(s.multiVersionShare, two(0.5, 1));
    // Seed 0's first row made no update: its mean is over its two updated rows, (2 + 4) / 2 = 3, not 2.
    expectInterval(s.poolStaleness, two(3, 8));
    expectInterval(s.selectionStaleness, two(2, 5));
    expectInterval(s.logWeightMean, two(-1, -2));
    expectInterval(s.essShare, two(0.625, 0.25));
    expectInterval(s.stepsPerSecond, two(1000, 3000));
    expectInterval(s.learnerWaitShare!, two(0.25, 0.75));
    // Steps rescored add up over seeds; the gap is the largest of any seed.
    expect(s.behaviourCheck).toEqual({ steps: 15, maxLogProbGap: 0.25 });
    expect(s.published).toEqual({ snapshots: 3, deltas: 12, bytes: 2_250_000 });
    expect(s.skipped).toBe(3);
  });

  it('leaves the Redis figures null in the simulation, and the update figures null without an update', () => {
    const {
      stepsPerSecond: _,
      behaviourCheck: __,
      published: ___,
      malformed: ____,
      learnerWaitShare: _____,
      faults: ______,
      ...simulated
    } = seed1;
    const s = summarizeAsync({
      ...OUTCOME,
      mode: 'simulation',
      results: [{ ...simulated, metrics: [row(1, 0, 0, null)] }],
    });
    expect([s.stepsPerSecond, s.behaviourCheck, s.published, s.skipped]).toEqual([null, null, null, null]);
    // Absent, not null, so that a simulated run's summary.json keeps its bytes.
    expect('learnerWaitShare' in s).toBe(false);
    expect([s.poolStaleness, s.selectionStaleness, s.logWeightMean, s.essShare]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(s.versionSpread).toEqual({ n: 1, mean: 0, halfWidth: 0, sd: 0 });
  });
});

describe('asyncRunResult', () => {
  it('prints each summary figure in its row, and the check and publication lines from their sums', () => {
    const result = asyncRunResult(OUTCOME);
    const report = result.artifacts.report;
    const table = cells(report);
    const f = (a: number, b: number, digits: number) => {
      const { mean, halfWidth } = two(a, b);
      return `${mean.toFixed(digits)} ± ${halfWidth.toFixed(digits)}`;
    };
    expect(table.get('final P(optimal action)')).toBe(f(0.5, 0.75, 4));
    expect(table.get('environment steps')).toBe(f(100, 300, 0));
    expect(table.get('version spread inside trajectories')).toBe(f(2, 6, 3));
    expect(table.get('share of multi-version trajectories')).toBe(f(0.5, 1, 3));
    expect(table.get('pool staleness (versions)')).toBe(f(3, 8, 2));
    expect(table.get('selected staleness (versions)')).toBe(f(2, 5, 2));
    expect(table.get('log w(τ) of selected elites')).toBe(f(-1, -2, 3));
    expect(table.get('ESS of the selection / selected')).toBe(f(0.625, 0.25, 3));
    expect(table.get('environment steps per second')).toBe(f(1000, 3000, 0));
    expect(report).toContain(
      'The learner scored again the 15 actor steps taken with its current version: largest |log π − log q| = 0.25 (NOT 0: an actor acted with another policy than the learner holds).',
    );
    // 1 + 9 + 2 + 3 versions; 2,250,000 bytes are 2.250 MB (10⁶ bytes).
    expect(report).toContain(
      'The learner published 15 policy versions: 3 whole (snapshots) and 12 as the rows their update moved (deltas), 2.250 MB in all.',
    );
    expect(result.text('runs/x')).toContain('2.250 MB in all.');
    expect(report).toContain(
      'The learner skipped 3 stream entries: malformed, or without one valid position name per step.',
    );
    expect(report).toContain(
      '2 actor(s) (processes over Redis), hot-load per step, horizon 4, counts × min(w, 1)',
    );
    expect(result.artifacts.metrics).toHaveLength(4);
    // The faults the run survived, per seed, in the report and in summary.json.
    expect(report).toContain(
      'Fault, seed 0: 06:01:02.3 UTC: actor 1 exited (SIGKILL), replaced (restart 1).',
    );
    expect(report).toContain(
      'Fault, seed 0: 06:01:09.0 UTC: the Redis server did not answer the learner for 5.0 s.',
    );
    const { faults } = result.artifacts.summary as { faults: { seed: number; kind: string }[] };
    expect(faults.map((f) => [f.seed, f.kind])).toEqual([
      [0, 'actor-exit'],
      [0, 'server-unreachable'],
    ]);
    // A baseline weighs its episodes' terms, not elite counts.
    const reinforce = asyncRunResult({ ...OUTCOME, config: { ...OUTCOME.config, method: 'reinforce' } });
    expect(reinforce.artifacts.report).toContain('horizon 4, episode terms × min(w, 1)');
  });

  it('says the actors act with the published policy when the largest gap is 0, and nothing of 0 skipped', () => {
    const agreed = asyncRunResult({
      ...OUTCOME,
      results: [seed0, seed1].map((r) => ({ ...r, behaviourCheck: { steps: 4, maxLogProbGap: 0 } })),
    });
    expect(agreed.artifacts.report).toContain(
      'The learner scored again the 8 actor steps taken with its current version: largest |log π − log q| = 0 (the actors act with the policy the learner published).',
    );
    // Nothing skipped, nothing said (summary.json still has skipped: 0).
    const clean = asyncRunResult({
      ...OUTCOME,
      results: [seed0, seed1].map((r) => ({ ...r, malformed: 0 })),
    });
    expect(clean.artifacts.report).not.toContain('skipped');
    expect((clean.artifacts.summary as { skipped: number }).skipped).toBe(0);
  });
});
