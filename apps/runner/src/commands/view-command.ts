import { RunFolderError, readRunFolder, reportPage } from '@ftw/report';
import { Command } from 'commander';
import { withHelp } from '../cli/help-text.js';
import { UsageError } from '../cli/usage-error.js';
import { checkOutputFile, OutputPathError, writeOutputFile } from '../run/output-path.js';
import { REPORT_OPTIONS } from '../run/report-options.js';

/**
 * `ftw view <run dir>... [--out report.html]`: one self-contained HTML page overlaying the runs given
 * (learning curves of every metric per seed and as mean with a 95% band, summary tables, the configuration
 * keys that differ, and a live Figure 1 widget), which opens offline.
 *
 * @returns the commander command
 * @example
 * ```ts
 * program.addCommand(viewCommand()); // ftw view runs/reproduce runs/tie-k3 --out report.html
 * ```
 */
export function viewCommand(): Command {
  const command = new Command('view')
    .description('lay runs side by side in one self-contained, offline HTML page (curves, tables, Figure 1)')
    .argument('<run...>', 'run folders written by ftw train, compare or reproduce')
    .option('--out <file>', 'the HTML file to write (its folder must exist)', 'report.html')
    .option('--force', 'replace --out when it exists', false)
    .option('--quiet', 'print nothing but warnings', false);
  withHelp(command, [
    'ftw view runs/reproduce runs/tie-k3 --out runs/view.html',
    'ftw view runs/compare --out runs/view.html --force',
  ]);
  command.action(async (paths: string[]) => {
    const o = command.opts<{ out: string; quiet: boolean; force: boolean }>();
    const where = { label: '--out', path: o.out };
    const out = checkOutputFile(where, o.force);
    if (!o.out.endsWith('.html'))
      throw new OutputPathError(
        `--out ${JSON.stringify(o.out)} is not an .html file; name the page, e.g. --out ${JSON.stringify(`${o.out.replace(/\.[^./]*$/, '')}.html`)}`,
      );
    const runs = [];
    for (const path of paths) {
      try {
        runs.push(await readRunFolder(path));
      } catch (error) {
        throw error instanceof RunFolderError ? new UsageError(error.message) : error;
      }
    }
    for (const notice of runs.flatMap((r) => r.notices ?? []))
      process.stderr.write(`ftw view: warning: ${notice}\n`);
    const names = runs.map((r) => r.name);
    const twice = names.filter((n, i) => names.indexOf(n) !== i);
    if (twice.length > 0) {
      throw new UsageError(
        `runs must have distinct folder names (the legend tells them apart by name), got ${JSON.stringify(twice[0])} twice`,
      );
    }
    const html = reportPage(runs, REPORT_OPTIONS);
    await writeOutputFile(where, html, o.force);
    if (!o.quiet) {
      process.stdout.write(
        `ftw view: ${runs.length} run${runs.length === 1 ? '' : 's'} (${names.join(', ')}); ${(Buffer.byteLength(html) / 1e6).toFixed(2)} MB page written to ${out}\n`,
      );
    }
  });
  return command;
}
