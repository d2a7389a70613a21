import { describe, expect, it } from 'vitest';
import { occupancyChart } from './occupancy-chart.js';

describe('occupancyChart', () => {
  it('draws each pair as an exact line with its Monte Carlo dots, on ranks 1 to N', () => {
    const spec = occupancyChart(
      3,
      [
        { pair: 'C=2, K=1', rank: 1, exact: 0.6, monteCarlo: 0.61 },
        { pair: 'C=2, K=1', rank: 2, exact: 0.3, monteCarlo: null },
        { pair: 'C=2, K=1', rank: 3, exact: 0.1, monteCarlo: 0.09 },
        { pair: 'C=3, K=1', rank: 1, exact: 1, monteCarlo: 1 },
      ],
      1000,
    );
    expect(spec.title).toBe('Selection probability by rank, N = 3 (Eq. 5)');
    expect(spec.subtitle).toEqual([
      'lines: exact P(r | N, C, K); points: Monte Carlo, 1000 minibatches per pair',
    ]);
    expect(spec.x).toEqual({ title: 'rank r (1 = highest return)', domain: [1, 3] });
    expect(spec.y).toEqual({ title: 'P(r | N, C, K)', zero: true });
    expect(spec.symbol).toBe('dot');
    expect(spec.series).toEqual([
      { name: 'C=2, K=1', x: [1, 2, 3], line: [0.6, 0.3, 0.1], dots: [0.61, null, 0.09] },
      { name: 'C=3, K=1', x: [1], line: [1], dots: [1] },
    ]);
  });
});

describe('occupancyChart on bad input', () => {
  it('rejects a pool size that is not an integer ≥ 1', () => {
    expect(() => occupancyChart(0, [], 10)).toThrow(new RangeError('n must be an integer ≥ 1, got 0'));
    expect(() => occupancyChart(2.5, [], 10)).toThrow(new RangeError('n must be an integer ≥ 1, got 2.5'));
  });
});
