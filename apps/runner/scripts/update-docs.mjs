// pnpm run docs: regenerates the artifacts in docs/ that the READMEs quote and embed. Builds the CLI from the
// current sources (scripts/build-from-source.mjs, so no stale dist/ can produce them), runs reproduce,
// occupancy, compare (Adam, the scenarios' optimiser), compare with plain SGD at the reproduction's
// rate, the Sokoban comparisons (linear, 10 seeds; neural, 10 seeds) and the asynchronous one (30 seeds; its last two tables run real
// actor processes over a private redis-server, on the bandit and on Sokoban, so redis-server must be
// installed, and their rates and outcomes change from run to run) in a temporary folder, and copies the
// charts, Figure 1's CSV, the comparison reports (image links rewritten) and the printed outputs into
// docs/; trains linear Sokoban policies and scores them with `ftw evaluate` on their levels and on 100 new
// ones. Then it fills the generated blocks of README.md and of the hand-written docs/*.md from those files
// (scripts/generated-blocks.mjs). Takes a few minutes.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromSource } from './build-from-source.mjs';
import { fillGeneratedBlocks } from './generated-blocks.mjs';

const runner = join(dirname(fileURLToPath(import.meta.url)), '..');
const docs = join(runner, 'docs');
const out = mkdtempSync(join(tmpdir(), 'ftw-docs-'));
const built = await buildFromSource();
const ftw = (...args) =>
  execFileSync(process.execPath, [built.file, ...args, '--out', out], { encoding: 'utf8' });

try {
  mkdirSync(docs, { recursive: true });
  const reproduce = ftw('reproduce');
  ftw('occupancy', '--quiet');
  // Two seeds at a time on worker threads: the same files as one at a time, sooner.
  const compare = ftw('compare', '--jobs', '2');
  const compareSgd = ftw(
    'compare',
    '--optimizer',
    'sgd',
    '--lr',
    '0.08',
    '--name',
    'compare-sgd',
    '--jobs',
    '2',
  );
  ftw(
    'compare',
    '--scenario',
    'sokoban',
    '--seeds',
    '0..9',
    '--name',
    'compare-sokoban',
    '--quiet',
    '--jobs',
    '2',
  );
  // The neural one takes the longest (seven methods × 10 seeds × 2·10^5 steps, about 3 min with an MLP).
  ftw(
    ...['compare', '--scenario', 'sokoban-neural', '--seeds', '0..9'],
    ...['--name', 'compare-sokoban-neural', '--quiet', '--jobs', '2'],
  );
  ftw('compare', '--scenario', 'async', '--seeds', '0..29', '--name', 'compare-async', '--quiet');
  // The README's `ftw evaluate` commands: a linear Sokoban policy on its own levels, then on 100 new ones.
  ftw(
    ...['train', '--env', 'sokoban', '--policy', 'linear', '--optimizer', 'adam', '--lr', '0.05'],
    ...['--rollouts', '4', '--iterations', '1000000', '--max-samples', '8000', '--seeds', '0..9'],
    ...['--name', 'sokoban-linear', '--quiet', '--jobs', '2'],
  );
  const linear = join(out, 'sokoban-linear');
  const evaluated = [
    ftw('evaluate', linear, '--name', 'evaluate'),
    ftw('evaluate', linear, '--level-seed', '1', '--held-out', '100', '--name', 'evaluate-new'),
  ];
  const copies = [
    ['reproduce/optimal-probability.svg', 'reproduce-optimal-probability.svg'],
    ['occupancy/figure-1.svg', 'figure-1.svg'],
    ['occupancy/occupancy.csv', 'figure-1.csv'],
    ['compare/curves-gaussian.svg', 'compare-gaussian.svg'],
    ['compare/curves-tie-heavy.svg', 'compare-tie-heavy.svg'],
    ['compare/regret-gaussian.svg', 'compare-regret-gaussian.svg'],
    ['compare/regret-tie-heavy.svg', 'compare-regret-tie-heavy.svg'],
    ['compare-sokoban/curves-sokoban-train.svg', 'compare-sokoban-train.svg'],
    ['compare-sokoban/curves-sokoban-held-out.svg', 'compare-sokoban-held-out.svg'],
    ['compare-sokoban-neural/curves-sokoban-train.svg', 'compare-sokoban-neural-train.svg'],
    ['compare-sokoban-neural/curves-sokoban-held-out.svg', 'compare-sokoban-neural-held-out.svg'],
  ];
  for (const [from, to] of copies) copyFileSync(join(out, from), join(docs, to));
  const report = readFileSync(join(out, 'compare', 'report.md'), 'utf8')
    .replaceAll('(curves-', '(compare-')
    .replaceAll('(regret-', '(compare-regret-');
  writeFileSync(join(docs, 'compare.md'), report);
  // The SGD comparison's report without its charts (docs/bandit-comparison.md quotes its printed tables).
  const sgdReport = readFileSync(join(out, 'compare-sgd', 'report.md'), 'utf8').replace(
    /\n!\[[^\]]*\]\([^)]*\)\n/g,
    '\n',
  );
  writeFileSync(join(docs, 'compare-sgd.md'), sgdReport);
  const sokobanReport = readFileSync(join(out, 'compare-sokoban', 'report.md'), 'utf8').replaceAll(
    '(curves-sokoban-',
    '(compare-sokoban-',
  );
  writeFileSync(join(docs, 'compare-sokoban.md'), sokobanReport);
  const neuralReport = readFileSync(join(out, 'compare-sokoban-neural', 'report.md'), 'utf8').replaceAll(
    '(curves-sokoban-',
    '(compare-sokoban-neural-',
  );
  writeFileSync(join(docs, 'compare-sokoban-neural.md'), neuralReport);
  copyFileSync(join(out, 'compare-async', 'report.md'), join(docs, 'compare-async.md'));
  // The printed outputs, minus what depends on the machine (timing and absolute paths).
  const clean = (text) =>
    text.replace(/\ncomputed in \d+ ms; run written to .*\n/, '\n').replace(/\n\nrun written to .*\n/, '\n');
  writeFileSync(join(docs, 'reproduce-output.txt'), clean(reproduce));
  writeFileSync(join(docs, 'compare-output.txt'), clean(compare));
  writeFileSync(join(docs, 'compare-sgd-output.txt'), clean(compareSgd));
  writeFileSync(
    join(docs, 'evaluate-output.txt'),
    evaluated.map((text) => clean(text).replace(`: ${linear}\n`, ': runs/sokoban-linear\n')).join('\n'),
  );
  // The README and the hand-written docs quote those files in their generated blocks.
  const quoting = [
    join(runner, 'README.md'),
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(docs, f)),
  ];
  for (const file of quoting) {
    const text = readFileSync(file, 'utf8');
    const filled = fillGeneratedBlocks(text, docs);
    if (filled !== text) writeFileSync(file, filled);
  }
  console.log(
    `docs/ updated: ${copies.map(([, to]) => to).join(', ')}, compare.md, compare-sgd.md, compare-sokoban.md, compare-sokoban-neural.md, compare-async.md, *-output.txt; README.md and docs/*.md blocks filled`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
  built.remove();
}
