import { describe, expect, it } from 'vitest';
import type { SeedResult } from '../train/train-seed.js';
import { heldOutLines, heldOutSummary } from './held-out-summary.js';

/** A seed whose last evaluation solved `solved` of `levels` held-out levels. */
function seed(id: number, solved: number, levels: number): SeedResult {
  const metrics = [
    { evaluation: { heldOutSuccess: 0 } },
    { evaluation: { heldOutSuccess: solved / levels } },
  ] as unknown as SeedResult['metrics'];
  return { seed: id, metrics } as SeedResult;
}

describe('heldOutSummary', () => {
  it("gives each seed's last held-out success with its Wilson interval, and the mean over seeds", () => {
    const summary = heldOutSummary([seed(0, 81, 263), seed(1, 15, 263)], 263);
    expect(summary.levels).toBe(263);
    const [first, second] = summary.seeds;
    // Newcombe (1998), Table II: 81/263 gives 0.2553 to 0.3662.
    expect([first!.seed, first!.successes, first!.trials]).toEqual([0, 81, 263]);
    expect([first!.lower.toFixed(4), first!.upper.toFixed(4)]).toEqual(['0.2553', '0.3662']);
    expect(second!.successes).toBe(15);
    expect(summary.mean.mean).toBeCloseTo((81 + 15) / 2 / 263, 15);
    expect(heldOutLines(summary)).toEqual([
      'held-out greedy success (263 levels never trained on; per seed with its 95% Wilson interval):',
      '  seed 0: 81/263 = 0.3080 [0.2553, 0.3662]',
      '  seed 1: 15/263 = 0.0570 [0.0349, 0.0920]',
      `  mean over seeds: 0.1825 ± ${summary.mean.halfWidth.toFixed(4)} (95% CI)`,
    ]);
  });

  it('recovers every count exactly from the stored share', () => {
    // (1 / 49) · 49 is 0.9999999999999999 in doubles: a count that truncated instead of rounding would be off.
    for (const levels of [49, 263, 500]) {
      for (let solved = 0; solved <= levels; solved++) {
        expect(heldOutSummary([seed(0, solved, levels)], levels).seeds[0]!.successes).toBe(solved);
      }
    }
  });
});
