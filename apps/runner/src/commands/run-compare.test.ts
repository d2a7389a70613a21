import { GaussianBandit } from '@ftw/bandit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPARE_SCENARIOS } from '../config/compare-scenarios.js';
import { runCompare } from './run-compare.js';

describe('runCompare', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('makes every method of a scenario call env.step the same number of times', async () => {
    // Every bandit of the package inherits step() from one base class; spying on it counts the real calls.
    const base = Object.getPrototypeOf(GaussianBandit.prototype) as { step: (a: number) => unknown };
    const step = vi.spyOn(base, 'step');
    const seeds = [0, 1];
    for (const scenario of COMPARE_SCENARIOS) {
      const counts: number[] = [];
      for (const method of scenario.methods) {
        const before = step.mock.calls.length;
        await runCompare({ seeds, scenarios: [{ ...scenario, methods: [method] }] });
        counts.push(step.mock.calls.length - before);
      }
      const budget = scenario.base.iterations * scenario.base.rollouts * seeds.length;
      expect(counts).toEqual(scenario.methods.map(() => budget));
    }
  });

  it('compares FTW sampled and expected with the three baselines, and the threshold on tie-heavy', () => {
    const labels = COMPARE_SCENARIOS.map((s) => s.methods.map((m) => m.label));
    for (const l of labels)
      expect(l).toEqual(expect.arrayContaining(['ftw-sampled', 'ftw-expected', 'reinforce', 'grpo', 'ppo']));
    const tie = COMPARE_SCENARIOS.find((s) => s.name === 'tie-heavy')!;
    expect(tie.base.keep).toBe(3);
    expect(tie.base.batchSize).toBe(5);
    expect(tie.methods.filter((m) => m.overrides.threshold === 0).map((m) => m.label)).toEqual([
      'ftw-sampled-threshold',
      'ftw-expected-threshold',
    ]);
  });

  it('applies optimiser overrides to every method', async () => {
    const [outcome] = await runCompare({
      seeds: [0, 1],
      scenarios: [{ ...COMPARE_SCENARIOS[0]!, base: { ...COMPARE_SCENARIOS[0]!.base, iterations: 5 } }],
      optimizer: 'sgd',
      lr: 0.1,
    });
    for (const m of outcome!.methods) {
      expect(m.config.optimizer).toBe('sgd');
      expect(m.config.lr).toBe(0.1);
      expect(m.config.seeds).toEqual([0, 1]);
    }
  });
});
