import { describe, expect, it } from 'vitest';
import { curveBand } from './curve-band.js';
import { learningCurveChart } from './learning-curve-chart.js';

describe('learningCurveChart', () => {
  const points = [
    ...curveBand('seed 0', [4, 8, 12], [[0.2, 0.5, 0.9]]),
    ...curveBand(
      'mean',
      [4, 8, 12],
      [
        [0.2, 0.5, 0.9],
        [0.4, 0.7, 0.9],
      ],
    ),
  ];

  it('makes one series per curve, in order of first appearance, with the mean as line and the 95% interval as band', () => {
    const spec = learningCurveChart(points, { title: 'P', yTitle: 'P(optimal action)', unitInterval: true });
    expect(spec.series.map((s) => s.name)).toEqual(['seed 0', 'mean']);
    const mean = spec.series[1]!;
    expect(mean.x).toEqual([4, 8, 12]);
    expect(mean.line).toEqual(points.slice(3).map((p) => p.mean));
    expect(mean.band!.lower).toEqual(points.slice(3).map((p) => p.lower));
    expect(mean.band!.upper).toEqual(points.slice(3).map((p) => p.upper));
    expect(mean.band!.lower[0]).toBeLessThan(mean.line![0]!);
    expect(mean.band!.upper[0]).toBeGreaterThan(mean.line![0]!);
    expect(spec.y).toEqual({ title: 'P(optimal action)', domain: [0, 1] });
    expect(spec.x).toEqual({ title: 'environment samples', zero: true });
    expect(spec.legend).toBe('method');
    expect(spec.bandOpacity).toBe(0.15);
  });

  it('drops the band when asked, takes a log axis, and lightens bands beyond four series', () => {
    const spec = learningCurveChart(points, {
      title: 'KL',
      yTitle: 'KL',
      band: false,
      logScale: true,
      legend: 'series',
    });
    expect(spec.series.every((s) => s.band === undefined)).toBe(true);
    expect(spec.y).toEqual({ title: 'KL', type: 'log' });
    expect(spec.legend).toBe('series');
    const many = ['a', 'b', 'c', 'd', 'e'].flatMap((s) => curveBand(s, [1], [[0.5]]));
    expect(learningCurveChart(many, { title: 't', yTitle: 'y' }).bandOpacity).toBe(0.08);
  });

  it('rejects a point that is not finite, naming it', () => {
    const bad = [...points, { series: 'mean', samples: 16, mean: Number.NaN, lower: 0, upper: 1 }];
    expect(() => learningCurveChart(bad, { title: 't', yTitle: 'y' })).toThrow(
      new RangeError('points[6].mean must be a finite number, got NaN'),
    );
  });
});
