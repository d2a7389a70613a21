import { describe, expect, it } from 'vitest';
import { metricLabel, sortMetrics } from './metric-label.js';
import { summaryTables } from './summary-tables.js';

/** The per-iteration metrics the runner records (train, compare, reproduce, async, Sokoban). */
const RECORDED = [
  'optimalProbability',
  'successRate',
  'evaluation.heldOutSuccess',
  'reward',
  'regret',
  'episodeLength',
  'eliteMean',
  'eliteSpread',
  'selected',
  'klMean',
  'klMax',
  'tvMean',
  'tvMax',
  'version',
  'versionSpread',
  'multiVersionShare',
  'logWeightMean',
  'logWeightMin',
  'logWeightMax',
  'essShare',
  'poolStaleness',
  'selectionStaleness',
];

describe('metricLabel', () => {
  it('gives every recorded metric its own axis title, which heads its column in the final-values table', () => {
    const axes = RECORDED.map((k) => metricLabel(k).axis);
    const twice = axes.filter((a, i) => axes.indexOf(a) !== i);
    expect(twice).toEqual([]);
    // The table of a run that records both staleness figures tells them apart.
    const values = new Map(RECORDED.map((k, i) => [k, [i]]));
    const tables = summaryTables(
      [
        {
          label: 'r',
          run: { name: 'r', config: {}, metrics: [], summary: {} },
          strings: {},
          seeds: [{ seed: 0, values }],
        },
      ],
      sortMetrics(RECORDED),
    );
    const columns = tables[0]!.columns;
    expect(new Set(columns).size).toBe(columns.length);
    expect(columns).toHaveLength(RECORDED.length + 1);
  });

  it('titles the known metrics in the fixed order and others from their key', () => {
    expect(sortMetrics(['zeta', 'selectionStaleness', 'regret', 'optimalProbability'])).toEqual([
      'optimalProbability',
      'regret',
      'selectionStaleness',
      'zeta',
    ]);
    expect(metricLabel('heldOutSuccessRate')).toEqual({
      title: 'Held out success rate',
      axis: 'held out success rate',
      unitInterval: true,
    });
  });
});
