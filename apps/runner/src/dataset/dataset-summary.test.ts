import type { DatasetManifest, RankBin } from '@ftw/agent-data';
import { describe, expect, it } from 'vitest';
import { datasetSummary } from './dataset-summary.js';

/** The cells of each table row of the text, by its first cell (tables of two columns and more). */
function cells(text: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('| ')) continue;
    const parts = line
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim());
    rows.set(parts[0]!, parts.slice(1));
  }
  return rows;
}

const bins: RankBin[] = Array.from({ length: 10 }, (_, k) => ({
  fromPercent: 10 * k,
  toPercent: 10 * (k + 1),
  selected: 40 - 4 * k,
  expected: 38.123 - 3 * k,
  eq5: 36.456 - 3 * k,
}));

/** Every figure distinct, so that printing one field in another's place shows. */
const manifest = {
  generator: '@ftw/agent-data',
  configuration: {
    capacity: 600,
    batches: 64,
    batchSize: 8,
    keep: 2,
    threshold: null,
    perTask: false,
  },
  seed: 7,
  input: {
    file: 'runs.jsonl',
    sha256: 'a'.repeat(64),
    bytes: 123_456,
    lines: 1003,
    valid: 998,
    skipped: 2,
    warnings: {
      'no-final-answer': { count: 4, lines: [11, 12, 13, 14] },
      'undeclared-tool': { count: 0, lines: [] },
      'duplicate-tool-call-id': { count: 1, lines: [77] },
    },
  },
  window: { size: 600, evicted: 398, firstLine: 404, lastLine: 1003 },
  output: { file: 'sft.jsonl', format: 'openai', lines: 140, sha256: 'b'.repeat(64) },
  report: {
    mode: 'sampled',
    n: 600,
    groups: 1,
    skippedTasks: [],
    total: 128,
    selectedRuns: 97,
    rankBins: bins,
    tieRateAtCut: 0.4567,
    tieRateAfterKeys: 0.0123,
    successAbove: 0.5,
    successes: 180,
    eliteFailures: 3,
    eliteFailureShare: 3 / 128,
    meanSuccessesPerBatch: 2.4,
    shortfallProbability: 0.2,
    warnings: ['first warning', 'second warning'],
  },
  importance: {
    traced: 95,
    matched: 90,
    mismatched: 2,
    logWeights: [],
    ess: 71.24,
    essFraction: 0.5566,
    versions: undefined,
  },
  selected: [],
} satisfies DatasetManifest;

describe('datasetSummary', () => {
  it('prints each figure of the manifest in its own row, with its own value', () => {
    const text = datasetSummary(manifest, 'sft.manifest.json');
    const rows = cells(text);
    expect(rows.get('input')).toEqual(['runs.jsonl: 1003 lines, 998 valid, 2 skipped']);
    expect(rows.get('window')).toEqual(['newest 600 of 998 runs (capacity 600)']);
    expect(rows.get('selection')).toEqual(['sampled, J = 64, C = 8, K = 2, seed 7']);
    expect(rows.get('selected')).toEqual(['128 selections of 97 runs']);
    expect(rows.get('output')).toEqual(['sft.jsonl: 140 lines (openai)']);
    expect(rows.get('tie rate at the cut')).toEqual(['45.7% of minibatches (1.2% after tie-break keys)']);
    expect(rows.get('successes')).toEqual(['180 of 600 runs (reward > 0.5); 2.40 per minibatch']);
    // 3 of 128 selections: 2.34375%.
    expect(rows.get('failures imitated')).toEqual(['3 selections (2.3%)']);
    expect(rows.get('importance')).toEqual(['90 of 95 traced runs matched, ESS 71.2 (55.7%)']);
    expect(rows.get('run warnings')).toEqual([
      'no-final-answer: 4 (lines 11, 12, 13, …); duplicate-tool-call-id: 1 (lines 77)',
    ]);
    expect(rows.get('rank (top %)')).toEqual(['selected', 'expected', 'Eq. 5 (distinct)']);
    for (const [k, bin] of bins.entries()) {
      expect(rows.get(`${10 * k}–${10 * (k + 1)}`), `bin ${k}`).toEqual([
        String(bin.selected),
        bin.expected.toFixed(2),
        bin.eq5.toFixed(2),
      ]);
    }
    expect(rows.get('0–10')).toEqual(['40', '38.12', '36.46']);
    expect(
      text.endsWith('manifest: sft.manifest.json\nwarning: first warning\nwarning: second warning\n'),
    ).toBe(true);
  });

  it('prints fractional selections to two decimals, the threshold and the tasks, and one tie rate when the keys change nothing', () => {
    const text = datasetSummary(
      {
        ...manifest,
        configuration: { ...manifest.configuration, threshold: 0, perTask: true },
        report: {
          ...manifest.report,
          mode: 'expected',
          groups: 3,
          total: 127.456,
          eliteFailures: 1.5,
          eliteFailureShare: 1.5 / 127.456,
          tieRateAfterKeys: 0.4567,
          warnings: [],
        },
        input: {
          ...manifest.input,
          warnings: {
            'no-final-answer': { count: 0, lines: [] },
            'undeclared-tool': { count: 0, lines: [] },
            'duplicate-tool-call-id': { count: 0, lines: [] },
          },
        },
        importance: null,
      },
      'm.json',
    );
    const rows = cells(text);
    expect(rows.get('selection')).toEqual(['expected, J = 64, C = 8, K = 2, threshold 0, 3 tasks, seed 7']);
    expect(rows.get('selected')).toEqual(['127.46 selections of 97 runs']);
    expect(rows.get('tie rate at the cut')).toEqual(['45.7% of minibatches']);
    // 1.5 / 127.456 = 1.1769%.
    expect(rows.get('failures imitated')).toEqual(['1.50 selections (1.2%)']);
    expect(rows.has('importance')).toBe(false);
    expect(rows.has('run warnings')).toBe(false);
    expect(text.endsWith('manifest: m.json\n')).toBe(true);
  });
});
