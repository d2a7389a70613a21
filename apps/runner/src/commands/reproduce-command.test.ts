import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reproduceCommand } from './reproduce-command.js';

/** t_{0.975, 2} in closed form, (2p − 1)·√(2 / (4p(1 − p))). */
const T2 = 0.95 * Math.sqrt(2 / (4 * 0.975 * 0.025));

describe('ftw reproduce', () => {
  const root = mkdtempSync(join(tmpdir(), 'ftw-reproduce-'));
  let stdout = '';
  let summary: {
    optimalArmProbability: { perSeed: Record<string, number>; mean: number; ci95: number };
    updatesPerSeed: number;
    seeds: { seed: number; finalOptimalProbability: number; updates: number }[];
  };

  beforeAll(async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await reproduceCommand().parseAsync(['--out', root, '--name', 'r'], { from: 'user' });
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    summary = JSON.parse(readFileSync(join(root, 'r', 'summary.json'), 'utf8'));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reports the mean over seeds 0, 1, 2 with its 95% Student-t half-width', () => {
    const perSeed = summary.optimalArmProbability.perSeed;
    expect(Object.keys(perSeed)).toEqual(['0', '1', '2']);
    expect(summary.seeds.map((s) => s.finalOptimalProbability)).toEqual(Object.values(perSeed));
    const values = Object.values(perSeed);
    const mean = (values[0]! + values[1]! + values[2]!) / 3;
    const s = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / 2);
    expect(s).toBeGreaterThan(0);
    expect(Math.abs(summary.optimalArmProbability.mean - mean)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(summary.optimalArmProbability.ci95 - (T2 * s) / Math.sqrt(3))).toBeLessThanOrEqual(1e-15);
    expect(summary.updatesPerSeed).toBe(236);
    expect(summary.seeds.map((x) => x.updates)).toEqual([236, 236, 236]);

    // The same figures on stdout and in the report.
    const m = mean.toFixed(4);
    const ci = ((T2 * s) / Math.sqrt(3)).toFixed(4);
    expect(stdout).toContain(
      `mean optimal-arm probability: ${m} (95% CI ± ${ci}, seeds 0, 1, 2); reference implementation ≈ 0.968`,
    );
    for (const [seed, p] of Object.entries(perSeed)) {
      expect(stdout).toMatch(new RegExp(`^\\| ${seed} +\\| +${p.toFixed(4).replace('.', '\\.')} \\|`, 'm'));
    }
    expect(stdout).toMatch(new RegExp(`^\\| mean ± 95% CI +\\| +${m} ± ${ci} \\|`, 'm'));
    const report = readFileSync(join(root, 'r', 'report.md'), 'utf8');
    expect(report).toContain(`this run: ${m} ± ${ci}.`);
    expect(report).toContain('236 updates per seed');
  });
});
