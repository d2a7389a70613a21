// pnpm docs: regenerates the pictures in docs/ that the READMEs embed, from the built CLI (pnpm build
// first). Runs reproduce, occupancy and compare with their defaults in a temporary folder and copies the
// charts, Figure 1's CSV and the comparison report (with its image links rewritten) into docs/.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runner = join(dirname(fileURLToPath(import.meta.url)), '..');
const docs = join(runner, 'docs');
const out = mkdtempSync(join(tmpdir(), 'ftw-docs-'));
const ftw = (...args) =>
  execFileSync(process.execPath, [join(runner, 'dist', 'cli.js'), ...args, '--out', out], {
    encoding: 'utf8',
  });

try {
  mkdirSync(docs, { recursive: true });
  const reproduce = ftw('reproduce');
  ftw('occupancy', '--quiet');
  const compare = ftw('compare');
  const copies = [
    ['reproduce/optimal-probability.svg', 'reproduce-optimal-probability.svg'],
    ['occupancy/figure-1.svg', 'figure-1.svg'],
    ['occupancy/occupancy.csv', 'figure-1.csv'],
    ['compare/curves-gaussian.svg', 'compare-gaussian.svg'],
    ['compare/curves-tie-heavy.svg', 'compare-tie-heavy.svg'],
    ['compare/regret-gaussian.svg', 'compare-regret-gaussian.svg'],
    ['compare/regret-tie-heavy.svg', 'compare-regret-tie-heavy.svg'],
  ];
  for (const [from, to] of copies) copyFileSync(join(out, from), join(docs, to));
  const report = readFileSync(join(out, 'compare', 'report.md'), 'utf8')
    .replaceAll('(curves-', '(compare-')
    .replaceAll('(regret-', '(compare-regret-');
  writeFileSync(join(docs, 'compare.md'), report);
  // The printed outputs, minus what depends on the machine (timing and absolute paths).
  const clean = (text) =>
    text.replace(/\ncomputed in \d+ ms; run written to .*\n/, '\n').replace(/\n\nrun written to .*\n/, '\n');
  writeFileSync(join(docs, 'reproduce-output.txt'), clean(reproduce));
  writeFileSync(join(docs, 'compare-output.txt'), clean(compare));
  console.log(`docs/ updated: ${copies.map(([, to]) => to).join(', ')}, compare.md, *-output.txt`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
