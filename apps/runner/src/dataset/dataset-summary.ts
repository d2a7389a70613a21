import type { DatasetManifest } from '@ftw/agent-data';
import { markdownTable } from '@ftw/report';

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;
const number = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/**
 * The text `ftw dataset` prints: what was read, the window, what was written, the FTW diagnostics (tie
 * rate at the cut, failures imitated, the minibatch success budget), the runs with warnings (and their
 * first lines) and the selections by rank against Eq. 5, then any warnings.
 *
 * @param manifest - the dataset's manifest
 * @param manifestFile - where the manifest was written
 * @returns the summary, ending with a newline
 * @example
 * ```ts
 * process.stdout.write(datasetSummary(manifest, 'sft.manifest.json'));
 * // | input | runs.jsonl: 1000 lines, 998 valid, 2 skipped | …
 * ```
 */
export function datasetSummary(manifest: DatasetManifest, manifestFile: string): string {
  const { input, window, output, report, configuration: c } = manifest;
  const rows: [string, string][] = [
    ['input', `${input.file}: ${input.lines} lines, ${input.valid} valid, ${input.skipped} skipped`],
    ['window', `newest ${window.size} of ${input.valid} runs (capacity ${String(c['capacity'])})`],
    [
      'selection',
      `${report.mode}, J = ${String(c['batches'])}, C = ${String(c['batchSize'])}, K = ${String(c['keep'])}` +
        `${c['threshold'] === null ? '' : `, threshold ${String(c['threshold'])}`}` +
        `${report.groups > 1 || c['perTask'] === true ? `, ${report.groups} tasks` : ''}, seed ${String(manifest.seed)}`,
    ],
    ['selected', `${number(report.total)} selections of ${report.selectedRuns} runs`],
    ['output', `${output.file}: ${output.lines} lines (${output.format})`],
    [
      'tie rate at the cut',
      `${percent(report.tieRateAtCut)} of minibatches${report.tieRateAfterKeys !== report.tieRateAtCut ? ` (${percent(report.tieRateAfterKeys)} after tie-break keys)` : ''}`,
    ],
    [
      'successes',
      `${report.successes} of ${report.n} runs (reward > ${report.successAbove}); ${report.meanSuccessesPerBatch.toFixed(2)} per minibatch`,
    ],
    [
      'failures imitated',
      `${number(report.eliteFailures)} selections (${percent(report.eliteFailureShare)})`,
    ],
  ];
  const warned = Object.entries(input.warnings).filter(([, w]) => w.count > 0);
  if (warned.length > 0) {
    rows.push([
      'run warnings',
      warned
        .map(
          ([kind, w]) =>
            `${kind}: ${w.count} (lines ${w.lines.slice(0, 3).join(', ')}${w.count > 3 ? ', …' : ''})`,
        )
        .join('; '),
    ]);
  }
  if (manifest.importance !== null) {
    const imp = manifest.importance;
    rows.push([
      'importance',
      `${imp.matched} of ${imp.traced} traced runs matched, ESS ${imp.ess.toFixed(1)} (${percent(imp.essFraction)})`,
    ]);
  }
  const table = markdownTable(['dataset', ''], rows, ['l', 'l']);
  const ranks = markdownTable(
    ['rank (top %)', 'selected', 'expected', 'Eq. 5 (distinct)'],
    report.rankBins.map((b) => [
      `${b.fromPercent}–${b.toPercent}`,
      number(b.selected),
      b.expected.toFixed(2),
      b.eq5.toFixed(2),
    ]),
    ['l', 'r', 'r', 'r'],
  );
  const warnings = report.warnings.map((w) => `warning: ${w}\n`).join('');
  return `${table}\n${ranks}\nmanifest: ${manifestFile}\n${warnings}`;
}
