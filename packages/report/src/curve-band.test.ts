import { describe, expect, it } from 'vitest';
import { curveBand } from './curve-band.js';
import { meanInterval } from './mean-interval.js';

describe('curveBand', () => {
  it('averages seeds point by point with their interval', () => {
    const points = curveBand(
      'ftw',
      [4, 8],
      [
        [0.5, 0.7],
        [0.5, 0.9],
      ],
    );
    expect(points[0]).toEqual({ series: 'ftw', samples: 4, mean: 0.5, lower: 0.5, upper: 0.5 });
    const i = meanInterval([0.7, 0.9]);
    expect(points[1]).toEqual({
      series: 'ftw',
      samples: 8,
      mean: i.mean,
      lower: i.mean - i.halfWidth,
      upper: i.mean + i.halfWidth,
    });
  });

  it('thins points but keeps the last', () => {
    const samples = [1, 2, 3, 4, 5];
    expect(curveBand('x', samples, [samples], 2).map((p) => p.samples)).toEqual([1, 3, 5]);
    expect(curveBand('x', [1, 2, 3, 4], [[1, 2, 3, 4]], 2).map((p) => p.samples)).toEqual([1, 3, 4]);
  });

  it('rejects ragged or missing curves', () => {
    expect(() => curveBand('x', [1, 2], [[1]])).toThrow(
      new RangeError('curves[0] must have 2 points, got 1'),
    );
    expect(() => curveBand('x', [1], [])).toThrow(new RangeError('curves must not be empty, got []'));
    expect(() =>
      curveBand(
        'x',
        [1, 2],
        [
          [1, 2],
          [3, Number.NaN],
        ],
      ),
    ).toThrow(new RangeError('curves[1][1] must be finite, got NaN'));
    // A point thinned away is not read.
    expect(curveBand('x', [1, 2, 3], [[1, Number.NaN, 3]], 2).map((p) => p.mean)).toEqual([1, 3]);
  });
});
