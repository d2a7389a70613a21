import { describe, expect, it } from 'vitest';
import { formatInterval } from './format-interval.js';

describe('formatInterval', () => {
  it('prints the mean and the half-width of the interval (not the standard deviation)', () => {
    expect(formatInterval({ n: 3, mean: 0.96796, halfWidth: 0.00123, sd: 0.0005 }, 3)).toBe('0.968 ± 0.001');
    expect(formatInterval({ n: 10, mean: 18.526, halfWidth: 2.834, sd: 3.96 }, 2)).toBe('18.53 ± 2.83');
    expect(formatInterval({ n: 2, mean: 74.4, halfWidth: 8.6, sd: 1 }, 0)).toBe('74 ± 9');
  });

  it('prints the mean alone for one value, whose interval is not estimated', () => {
    expect(formatInterval({ n: 1, mean: 1320, halfWidth: 0, sd: 0 }, 0)).toBe('1320');
    expect(formatInterval({ n: 2, mean: 0.5, halfWidth: 0, sd: 0 }, 1)).toBe('0.5 ± 0.0');
  });
});
