import { fc, test } from '@fast-check/vitest';
import { expectedCounts, selectElites } from '@ftw/selection';
import { describe, expect, it } from 'vitest';
import { selectDataset } from './select-dataset.js';
import { rankValues } from './tie-break.js';
import type { Trajectory } from './trajectory-schema.js';

/** A run with `turns` assistant turns and the given reward. */
function run(i: number, reward: number, turns = 1, task = 't'): Trajectory {
  const messages: Trajectory['messages'] = [{ role: 'user', content: task }];
  for (let k = 0; k < turns; k++) messages.push({ role: 'assistant', content: `step ${k}` });
  return { id: `r${i}`, task, messages, reward };
}

function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every C-subset of 0..n−1. */
function* subsets(n: number, c: number, start = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === c) {
    yield prefix;
    return;
  }
  for (let i = start; i <= n - (c - prefix.length); i++) yield* subsets(n, c, i + 1, [...prefix, i]);
}

describe('selectDataset', () => {
  const rewards = [0.1, 0.9, 0.4, 0.4, 0.7, 0.2, 0.8, 0.3, 0.6, 0.5];
  const items = rewards.map((r, i) => run(i, r));
  const options = { batches: 30, batchSize: 4, keep: 2 };

  it('draws the same counts as selectElites on the rewards with the same random stream', () => {
    const { counts, report } = selectDataset(items, options, uniform(5));
    expect(Array.from(counts)).toEqual(Array.from(selectElites(rewards, options, uniform(5)).counts));
    expect(report.total).toBe(60);
    expect(report.mode).toBe('sampled');
  });

  it('gives the exact expected counts in expected mode, with no randomness', () => {
    const { counts, report } = selectDataset(items, { ...options, mode: 'expected' });
    expect(Array.from(counts)).toEqual(Array.from(expectedCounts(rewards, options)));
    expect(report.total).toBeCloseTo(60, 10);
    expect(report.rankBins.reduce((s, b) => s + b.expected, 0)).toBeCloseTo(60, 10);
    expect(report.rankBins.reduce((s, b) => s + b.eq5, 0)).toBeCloseTo(60, 10);
  });

  it('counts selections by rank: the best tenth of a distinct-reward window gets its Eq. 5 share', () => {
    const { report } = selectDataset(items, { ...options, mode: 'expected' });
    // Rank 1 of 10 with C = 4, K = 2: P(1) = C/(K N) = 0.2, so J·K·P = 12 selections.
    expect(report.rankBins[0]!.eq5).toBeCloseTo(12, 12);
    expect(report.rankBins[0]!.selected).toBeCloseTo(12, 12);
  });

  it('draws, in sampled mode, selections per rank bin that match the exact expected counts', () => {
    // 200 runs with tied binary-ish rewards; J = 4000 minibatches of C = 10, K = 3.
    const random = uniform(12);
    const runs = Array.from({ length: 200 }, (_, i) => run(i, Math.floor(random() * 4)));
    const { report } = selectDataset(runs, { batches: 4000, batchSize: 10, keep: 3 }, uniform(99));
    // A bin's selections S = Σ_b X_b over J independent minibatches, X_b ∈ [0, K] the bin's kept items in
    // minibatch b, so Var S ≤ K·λ (λ = E S, the exact expected count). Bernstein:
    // P(|S − λ| ≥ t) ≤ 2 exp(−t² / (2 (Kλ + K t / 3))). With t = 5√(Kλ) + 10K the exponent is at least 12.6
    // for every λ ≥ 0 (K = 3), so the false-alarm probability is below 7e-6 per bin, 7e-5 over the 10 bins.
    for (const bin of report.rankBins) {
      expect(Math.abs(bin.selected - bin.expected)).toBeLessThanOrEqual(5 * Math.sqrt(3 * bin.expected) + 30);
    }
    expect(report.total).toBe(12000);
  });

  it('reports, in expected mode, the failure selections E[max(0, K − successes in the minibatch)] per minibatch', () => {
    // 8 runs, 2 successes: K = 3 > the 1.25 successes a minibatch of C = 5 holds on average.
    const binary = [1, 0, 0, 1, 0, 0, 0, 0].map((r, i) => run(i, r));
    const { report } = selectDataset(binary, { batches: 10, batchSize: 5, keep: 3, mode: 'expected' });
    let failures = 0;
    let short = 0;
    let total = 0;
    for (const s of subsets(8, 5)) {
      const x = s.filter((i) => binary[i]!.reward === 1).length;
      failures += Math.max(0, 3 - x);
      if (x < 3) short++;
      total++;
    }
    expect(report.eliteFailures).toBeCloseTo((10 * failures) / total, 10);
    expect(report.shortfallProbability).toBeCloseTo(short / total, 12);
    expect(report.meanSuccessesPerBatch).toBeCloseTo(1.25, 12);
    expect(report.successAbove).toBe(0);
    expect(report.warnings[0]).toMatch(/K = 3 exceeds the 1\.25 successes .* Sokoban collapse/);
    // Binary rewards tie at the cut whenever fewer than 3 or ... : the exact rate is reported.
    expect(report.tieRateAtCut).toBeGreaterThan(0.5);
  });

  it('never selects a failure with a threshold, and then does not warn', () => {
    const binary = [1, 0, 0, 1, 0, 0, 0, 0].map((r, i) => run(i, r));
    const { counts, report } = selectDataset(
      binary,
      { batches: 10, batchSize: 5, keep: 3, threshold: 0 },
      uniform(1),
    );
    binary.forEach((t, i) => {
      if (t.reward === 0) expect(counts[i]).toBe(0);
    });
    expect(report.eliteFailures).toBe(0);
    expect(report.warnings).toEqual([]);
  });

  it('prefers the shorter of equal rewards with the fewer-turns key', () => {
    const runs = [run(0, 1, 5), run(1, 1, 2), run(2, 0, 1), run(3, 1, 3), run(4, 0, 4)];
    const { counts, report } = selectDataset(runs, {
      batches: 12,
      batchSize: 2,
      keep: 1,
      mode: 'expected',
      tieBreak: ['fewer-turns'],
    });
    // Ranks: r1 (2 turns) > r3 (3) > r0 (5) > r2 (reward 0, 1 turn) > r4 (reward 0, 4 turns); C = 2, K = 1:
    // P(r) = 2 (N − r) / (N (N − 1)) = (4, 3, 2, 1, 0)/10.
    expect(Array.from(counts)).toEqual(
      [12 * 0.2, 12 * 0.4, 12 * 0.1, 12 * 0.3, 0].map((x) => expect.closeTo(x, 12)),
    );
    expect(report.tieRateAfterKeys).toBe(0);
    expect(report.tieRateAtCut).toBeGreaterThan(0);
  });

  it("counts the turns and tool calls of a run's additional histories in its tie-break keys", () => {
    // r0 has 1 turn of its own and 2 in a sub-agent's conversation: 3 in all, more than r1's 2.
    const sub: Trajectory['messages'] = [
      { role: 'user', content: 'sub' },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
      { role: 'assistant', content: 'done' },
    ];
    const runs = [{ ...run(0, 1, 1), additionalHistories: [{ messages: sub }] }, run(1, 1, 2)];
    expect(Array.from(rankValues(runs, ['fewer-turns'], undefined).values)).toEqual([0, 1]);
    expect(Array.from(rankValues(runs, ['fewer-tool-calls'], undefined).values)).toEqual([0, 1]);
    expect(Array.from(rankValues([run(0, 1, 1), run(1, 1, 2)], ['fewer-turns'], undefined).values)).toEqual([
      1, 0,
    ]);
  });

  it('selects within each task, skipping tasks with fewer than C runs', () => {
    const runs = [
      ...Array.from({ length: 6 }, (_, i) => run(i, i, 1, 'a')),
      ...Array.from({ length: 5 }, (_, i) => run(10 + i, i, 1, 'b')),
      run(20, 1, 1, 'c'),
    ];
    const { counts, report } = selectDataset(
      runs,
      { batches: 7, batchSize: 3, keep: 1, perTask: true },
      uniform(2),
    );
    const byTask = (task: string) => runs.reduce((s, t, i) => s + (t.task === task ? counts[i]! : 0), 0);
    expect([byTask('a'), byTask('b'), byTask('c')]).toEqual([7, 7, 0]);
    expect(report.groups).toBe(2);
    expect(report.skippedTasks).toEqual([{ task: 'c', size: 1 }]);
    expect(report.warnings.join(' ')).toMatch(/1 task\(s\) with fewer than C = 3 runs/);
  });

  it('throws POOL_TOO_SMALL when no group holds C runs, and names bad options', () => {
    expect(() => selectDataset(items.slice(0, 3), options, uniform(1))).toThrow(
      expect.objectContaining({ code: 'POOL_TOO_SMALL' }),
    );
    expect(() => selectDataset(items, { ...options, keep: 5 }, uniform(1))).toThrow(
      /keep must be <= batchSize \(4\), got 5/,
    );
    expect(() => selectDataset(items, { ...options, batches: 0 }, uniform(1))).toThrow(
      /batches must be a positive integer, got 0/,
    );
    expect(() => selectDataset(items, { ...options, mode: 'greedy' as never })).toThrow(/mode must be/);
    expect(() => selectDataset(items, { ...options, tieBreak: ['shortest' as never] }, uniform(1))).toThrow(
      /tieBreak/,
    );
    expect(() => selectDataset(items, options)).toThrow(/random is required/);
  });
});

describe('rankValues', () => {
  const runs = fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 3 })), {
    minLength: 1,
    maxLength: 20,
  });
  test.prop([runs, fc.option(fc.integer({ min: -1, max: 2 }), { nil: undefined })])(
    'orders by reward, then fewer turns; keeps equal what ties on both; maps the threshold exactly',
    (pairs, threshold) => {
      const items = pairs.map(([reward, turns], i) => run(i, reward, turns));
      const { values, threshold: mapped } = rankValues(items, ['fewer-turns'], threshold);
      for (let i = 0; i < pairs.length; i++) {
        for (let j = 0; j < pairs.length; j++) {
          const [ri, ti] = pairs[i]!;
          const [rj, tj] = pairs[j]!;
          const better = ri > rj || (ri === rj && ti < tj);
          const equal = ri === rj && ti === tj;
          expect(values[i]! > values[j]!).toBe(better);
          if (equal) expect(values[i]).toBe(values[j]);
        }
        if (threshold !== undefined) expect(values[i]! > mapped!).toBe(pairs[i]![0] > threshold);
      }
    },
  );

  it('orders ties by age with newer and older', () => {
    const items = [run(0, 1), run(1, 1), run(2, 0)];
    expect(Array.from(rankValues(items, ['newer'], undefined).values)).toEqual([1, 2, 0]);
    expect(Array.from(rankValues(items, ['older'], undefined).values)).toEqual([2, 1, 0]);
  });
});

/**
 * The report's figures written from their definitions, by enumerating every C-subset of each group (no
 * formula of the code reused): a group's expected selections, tie rate at the cut, successes per minibatch
 * and shortfall, then the per-group means, the rank table's columns and the counts over the window.
 */
describe('selectDataset report, against an enumeration of every minibatch', () => {
  // Task a: 6 runs, task b: 5 runs (ties at the top and the bottom), task c: 1 run (fewer than C, skipped).
  const rewards: [string, number][] = [
    ['a', 1],
    ['b', 2],
    ['a', 0],
    ['b', 2],
    ['a', 0],
    ['c', 3],
    ['a', 1],
    ['b', 0],
    ['a', 0],
    ['b', 1],
    ['a', 1],
    ['b', 0],
  ];
  const runs = rewards.map(([task, reward], i) => run(i, reward, 1, task));
  const J = 4;
  const C = 3;
  const K = 2;

  /** Exact per-group figures: each member's expected selections (ties at the cut share their slots). */
  function enumerate(values: readonly number[], above: number) {
    const n = values.length;
    const expected = new Array<number>(n).fill(0);
    let all = 0;
    let tied = 0;
    let successes = 0;
    let short = 0;
    for (const s of subsets(n, C)) {
      all++;
      const sorted = s.map((i) => values[i]!).sort((x, y) => y - x);
      const cut = sorted[K - 1]!;
      if (sorted[K] === cut) tied++;
      const better = s.filter((i) => values[i]! > cut).length;
      const atCut = s.filter((i) => values[i] === cut).length;
      for (const i of s) {
        if (values[i]! > cut) expected[i]! += 1;
        else if (values[i] === cut) expected[i]! += (K - better) / atCut;
      }
      const x = s.filter((i) => values[i]! > above).length;
      successes += x;
      if (x < K) short++;
    }
    return {
      expected: expected.map((e) => (J * e) / all),
      tieRate: tied / all,
      successesPerBatch: successes / all,
      shortfall: short / all,
    };
  }

  /** J · P(the rank-(p+1) member of N distinct values is kept), by enumeration: Eq. 5 times J·K. */
  function eq5(n: number): number[] {
    const kept = new Array<number>(n).fill(0);
    let all = 0;
    for (const s of subsets(n, C)) {
      all++;
      // Position p is the (p+1)-th best; a member is kept when fewer than K members of s rank above it.
      for (const p of s) if (s.filter((q) => q < p).length < K) kept[p]! += 1;
    }
    return kept.map((k) => (J * k) / all);
  }

  /** The reference report of the window with successes above `above`. */
  function reference(above: number) {
    const counts = new Array<number>(runs.length).fill(0);
    const bins = Array.from({ length: 10 }, () => ({ expected: 0, eq5: 0 }));
    const perGroup: ReturnType<typeof enumerate>[] = [];
    for (const task of ['a', 'b']) {
      const members = runs.flatMap((t, i) => (t.task === task ? [i] : []));
      const values = members.map((i) => runs[i]!.reward);
      const group = enumerate(values, above);
      perGroup.push(group);
      members.forEach((i, j) => {
        counts[i] = group.expected[j]!;
      });
      // Best first; equal rewards in window order.
      const order = members.map((_, j) => j).sort((x, y) => values[y]! - values[x]! || x - y);
      const distinct = eq5(members.length);
      order.forEach((j, p) => {
        const bin = bins[Math.floor((10 * p) / members.length)]!;
        bin.expected += group.expected[j]!;
        bin.eq5 += distinct[p]!;
      });
    }
    const mean = (f: (g: ReturnType<typeof enumerate>) => number) => (f(perGroup[0]!) + f(perGroup[1]!)) / 2;
    const failures = counts.reduce((s, c, i) => s + (runs[i]!.reward > above ? 0 : c), 0);
    return {
      counts,
      bins,
      tieRate: mean((g) => g.tieRate),
      successesPerBatch: mean((g) => g.successesPerBatch),
      shortfall: mean((g) => g.shortfall),
      failures,
      successes: runs.filter((t) => t.reward > above).length,
      selectedRuns: counts.filter((c) => c > 0).length,
    };
  }

  it('gives the exact counts, per-group means, failures and their share of the J·K per task', () => {
    const ref = reference(0);
    const { counts, report } = selectDataset(runs, {
      batches: J,
      batchSize: C,
      keep: K,
      mode: 'expected',
      perTask: true,
    });
    for (const [i, c] of Array.from(counts).entries()) expect(c, `run ${i}`).toBeCloseTo(ref.counts[i]!, 12);
    expect(report.n).toBe(12);
    expect(report.groups).toBe(2);
    expect(report.total).toBeCloseTo(2 * J * K, 12);
    // Task c's run (reward 3) is never selected: 11 of the 12 runs.
    expect(report.selectedRuns).toBe(ref.selectedRuns);
    expect(ref.selectedRuns).toBe(11);
    // Successes are counted over the whole window, task c's run included: 7 rewards above 0.
    expect(report.successAbove).toBe(0);
    expect(report.successes).toBe(ref.successes);
    expect(ref.successes).toBe(7);
    expect(report.eliteFailures).toBeCloseTo(ref.failures, 12);
    expect(report.eliteFailureShare).toBeCloseTo(ref.failures / (2 * J * K), 12);
    expect(report.tieRateAtCut).toBeCloseTo(ref.tieRate, 12);
    expect(report.tieRateAfterKeys).toBeCloseTo(ref.tieRate, 12);
    expect(report.meanSuccessesPerBatch).toBeCloseTo(ref.successesPerBatch, 12);
    expect(report.shortfallProbability).toBeCloseTo(ref.shortfall, 12);
    report.rankBins.forEach((bin, k) => {
      expect(bin.expected, `bin ${k} expected`).toBeCloseTo(ref.bins[k]!.expected, 12);
      expect(bin.eq5, `bin ${k} Eq. 5`).toBeCloseTo(ref.bins[k]!.eq5, 12);
      expect(bin.selected, `bin ${k} selected`).toBeCloseTo(ref.bins[k]!.expected, 12);
    });
  });

  it('shows, in sampled mode, the exact expected counts in the "expected" column, not the draws', () => {
    const ref = reference(1);
    const { counts, report } = selectDataset(
      runs,
      { batches: J, batchSize: C, keep: K, perTask: true, successAbove: 1 },
      uniform(3),
    );
    report.rankBins.forEach((bin, k) => {
      expect(bin.expected, `bin ${k} expected`).toBeCloseTo(ref.bins[k]!.expected, 12);
      expect(bin.eq5, `bin ${k} Eq. 5`).toBeCloseTo(ref.bins[k]!.eq5, 12);
    });
    expect(report.rankBins.reduce((s, b) => s + b.selected, 0)).toBe(2 * J * K);
    // The sampled counts are whole selections; the report counts them as drawn.
    const drawn = Array.from(counts);
    expect(report.total).toBe(2 * J * K);
    expect(report.selectedRuns).toBe(drawn.filter((c) => c > 0).length);
    const failures = drawn.reduce((s, c, i) => s + (runs[i]!.reward > 1 ? 0 : c), 0);
    expect(report.eliteFailures).toBe(failures);
    expect(report.eliteFailureShare).toBeCloseTo(failures / (2 * J * K), 12);
    // Successes above 1: the two 2s of task b and task c's 3.
    expect(report.successes).toBe(3);
    expect(report.meanSuccessesPerBatch).toBeCloseTo(ref.successesPerBatch, 12);
    expect(report.shortfallProbability).toBeCloseTo(ref.shortfall, 12);
  });

  it('counts, with a threshold, only the ties that the random tie-break decides: those above the threshold', () => {
    // The same window with 1 to 3 turns per run, a threshold of 0 and the fewer-turns key. Runs 4 and 8 (task
    // a, reward 0) tie on both keys, above run 2 (reward 0, more turns): a tie of failures that is not at the
    // bottom of the rank values, yet below the threshold.
    const turned = rewards.map(([task, reward], i) =>
      run(i, reward, reward === 0 ? (i % 4 === 0 ? 1 : 3) : 1 + (i % 3), task),
    );
    const { counts, report } = selectDataset(turned, {
      batches: J,
      batchSize: C,
      keep: K,
      mode: 'expected',
      perTask: true,
      threshold: 0,
      tieBreak: ['fewer-turns'],
    });
    // Reference: in each minibatch the runs above 0 are ordered by (reward, fewer turns); the min(K, m) best
    // of the m eligible ones are kept, runs equal on both sharing the last slots. The cut is decided at
    // random when the K-th and (K+1)-th best are equal and above 0 (on reward alone, or on both keys).
    const expected = new Array<number>(turned.length).fill(0);
    let tieRate = 0;
    let tieRateKeys = 0;
    for (const task of ['a', 'b']) {
      const members = turned.flatMap((t, i) => (t.task === task ? [i] : []));
      const turns = (i: number) => turned[i]!.messages.length - 1;
      const key = (i: number) => [turned[i]!.reward, -turns(i)] as const;
      const compare = (x: number, y: number) => key(y)[0] - key(x)[0] || key(y)[1] - key(x)[1];
      let all = 0;
      let tied = 0;
      let tiedKeys = 0;
      const share = new Map<number, number>();
      for (const s of subsets(members.length, C)) {
        all++;
        const batch = s.map((j) => members[j]!).sort(compare);
        const [kth, next] = [batch[K - 1]!, batch[K]!];
        const above = turned[kth]!.reward > 0;
        if (above && turned[kth]!.reward === turned[next]!.reward) tied++;
        if (above && compare(kth, next) === 0) tiedKeys++;
        const eligible = batch.filter((i) => turned[i]!.reward > 0);
        const slots = Math.min(K, eligible.length);
        if (slots === 0) continue;
        const cut = eligible[slots - 1]!;
        const better = eligible.filter((i) => compare(i, cut) < 0).length;
        const atCut = eligible.filter((i) => compare(i, cut) === 0).length;
        for (const i of eligible) {
          const c = compare(i, cut);
          if (c < 0) share.set(i, (share.get(i) ?? 0) + 1);
          else if (c === 0) share.set(i, (share.get(i) ?? 0) + (slots - better) / atCut);
        }
      }
      for (const [i, v] of share) expected[i] = (J * v) / all;
      tieRate += tied / all / 2;
      tieRateKeys += tiedKeys / all / 2;
    }
    for (const [i, c] of Array.from(counts).entries()) expect(c, `run ${i}`).toBeCloseTo(expected[i]!, 12);
    expect(report.tieRateAtCut).toBeCloseTo(tieRate, 12);
    expect(report.tieRateAfterKeys).toBeCloseTo(tieRateKeys, 12);
    expect(report.tieRateAfterKeys).toBeLessThan(report.tieRateAtCut);
    expect(report.eliteFailures).toBe(0);
  });
});
