import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { evaluateCommand } from './evaluate-command.js';
import { occupancyCommand } from './occupancy-command.js';
import { trainCommand } from './train-command.js';

/** t_{0.975, 2} in closed form, (2p − 1)·√(2 / (4p(1 − p))). */
const T2 = 0.95 * Math.sqrt(2 / (4 * 0.975 * 0.025));

const root = mkdtempSync(join(tmpdir(), 'ftw-printed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs a command in this process and returns what it printed on stdout (stderr, the progress, is dropped). */
async function run(command: Command, args: string[]): Promise<string> {
  let stdout = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await command.parseAsync(args, { from: 'user' });
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return stdout;
}

/** mean ± t_{0.975,2}·s/√3 of three values, as the commands print it. */
function interval(values: readonly number[], digits: number): string {
  const mean = (values[0]! + values[1]! + values[2]!) / 3;
  const s = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / 2);
  return `${mean.toFixed(digits)} ± ${((T2 * s) / Math.sqrt(3)).toFixed(digits)}`;
}

describe('the figures ftw train and ftw evaluate print', () => {
  it('train: the final score over seeds, mean ± 95% CI; evaluate: the same scores and interval', async () => {
    const args = ['--env', 'contextual', '--iterations', '40', '--seeds', '0,1,2', '--out', root];
    const trained = await run(trainCommand(), [...args, '--name', 't']);
    const summary = JSON.parse(readFileSync(join(root, 't', 'summary.json'), 'utf8')) as {
      seeds: { finalOptimalProbability: number; meanReward: number }[];
      finalOptimalProbability: { mean: number };
    };
    const scores = summary.seeds.map((s) => s.finalOptimalProbability);
    expect(new Set(scores).size).toBe(3);
    expect(trained).toContain(`\nfinal P(optimal action): ${interval(scores, 4)} (95% CI)\n`);
    const rewards = summary.seeds.map((s) => s.meanReward);
    expect(trained).toMatch(
      new RegExp(`^\\| mean ± 95% CI +\\| +${interval(scores, 4)} \\| +${interval(rewards, 4)} \\|`, 'm'),
    );

    const evaluated = await run(evaluateCommand(), [join(root, 't'), '--out', root, '--name', 'e']);
    for (const [seed, score] of scores.entries()) {
      expect(evaluated).toMatch(new RegExp(`^\\| ${seed} +\\| +${score.toFixed(4)} \\|$`, 'm'));
    }
    expect(evaluated).toMatch(new RegExp(`^\\| mean ± 95% CI \\| +${interval(scores, 4)} \\|$`, 'm'));
  });
});

describe('the figures ftw occupancy prints', () => {
  it('gives each pair its C, K, best-rank share C/(K·N), Σ P(r) and largest Monte Carlo error', async () => {
    const printed = await run(occupancyCommand(), [
      ...['--n', '12', '--pairs', '3:1,5:2', '--draws', '1000', '--out', root, '--name', 'o'],
    ]);
    const summary = JSON.parse(readFileSync(join(root, 'o', 'summary.json'), 'utf8')) as {
      pairs: { maxAbsError: number }[];
    };
    const [first, second] = summary.pairs.map((p) => p.maxAbsError.toExponential(2));
    // P(1) = C/(K·N): 3/12 = 0.25 and 5/24 = 0.208333….
    expect(printed).toMatch(new RegExp(`^\\| +3 \\| +1 \\| +0\\.25000 \\| +${first} \\|$`, 'm'));
    expect(printed).toMatch(new RegExp(`^\\| +5 \\| +2 \\| +0\\.20833 \\| +${second} \\|$`, 'm'));
    const report = readFileSync(join(root, 'o', 'report.md'), 'utf8');
    expect(report).toMatch(new RegExp(`^\\| +3 \\| +1 \\| +0\\.25000 \\| 1\\.0{12} \\| +${first} \\|$`, 'm'));
    expect(report).toMatch(
      new RegExp(`^\\| +5 \\| +2 \\| +0\\.20833 \\| 1\\.0{12} \\| +${second} \\|$`, 'm'),
    );
  });
});
