// Prints the SHA-256 digests of metrics.ndjson, summary.json and policies.ndjson for a fixed list of
// `ftw` commands, run from the current sources (scripts/build-from-source.mjs). The digests of the code
// before the training loop moved into @ftw/trainer are kept in scripts/digests.json; a refactor that
// leaves every CLI result bit for bit the same prints the same digests.
//
//   node scripts/digests.mjs            print the digests as JSON
//   node scripts/digests.mjs --check    compare them with scripts/digests.json, exit 1 on a difference
//   node scripts/digests.mjs --only reproduce,compare-sokoban   a subset, by name
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFromSource } from './build-from-source.mjs';

/** Each run: a name and the `ftw` arguments (the output folder and `--quiet` are added). */
export const DIGEST_RUNS = [
  { name: 'reproduce', args: ['reproduce'] },
  { name: 'compare-gaussian', args: ['compare', '--scenarios', 'gaussian', '--seeds', '0..3'] },
  { name: 'compare-tie-heavy', args: ['compare', '--scenarios', 'tie-heavy', '--seeds', '0..3'] },
  { name: 'compare-sokoban', args: ['compare', '--scenario', 'sokoban', '--seeds', '0..1'] },
  // Its `redis` and `redisSokoban` parts come from real actor processes racing the learner, so they differ
  // from run to run: the summary is digested without them (the simulated variants are deterministic).
  {
    name: 'compare-async',
    args: ['compare', '--scenario', 'async', '--seeds', '0..1'],
    drop: ['redis', 'redisSokoban'],
  },
  {
    name: 'train-sokoban-linear',
    args: ['train', '--env', 'sokoban', '--policy', 'linear', '--seeds', '0..1', '--iterations', '120'],
  },
  {
    name: 'train-sokoban-expected-forward',
    args: [
      'train',
      '--env',
      'sokoban',
      '--policy',
      'linear',
      '--seeds',
      '0',
      '--iterations',
      '80',
      '--selection',
      'expected',
      '--kl',
      'forward',
      '--reference',
      'previous',
      '--optimizer',
      'adam',
      '--keep',
      '2',
      '--tie-rule',
      'shortest',
      '--threshold',
      '0',
    ],
  },
  {
    name: 'train-ppo-is-lag',
    args: [
      'train',
      '--method',
      'ppo',
      '--is',
      'truncate:2',
      '--actors',
      '3',
      '--lag',
      '2',
      '--hot-load',
      'step',
      '--horizon',
      '3',
      '--seeds',
      '0,1',
      '--iterations',
      '60',
    ],
  },
  {
    name: 'train-ftw-lag-contextual',
    args: [
      'train',
      '--env',
      'contextual',
      '--actors',
      '2',
      '--lag',
      '1',
      '--max-version-lag',
      '4',
      '--is',
      'truncate:3',
      '--reference',
      'initial',
      '--seeds',
      '0,1',
      '--iterations',
      '80',
    ],
  },
];

const FILES = ['metrics.ndjson', 'summary.json', 'policies.ndjson'];
const here = dirname(fileURLToPath(import.meta.url));
const committed = join(here, 'digests.json');

/**
 * @param {readonly string[]} names - the runs to digest (default all)
 * @returns {Promise<Record<string, Record<string, string>>>} digests by run name, then by file name
 */
export async function computeDigests(names = DIGEST_RUNS.map((run) => run.name)) {
  const built = await buildFromSource();
  const out = mkdtempSync(join(tmpdir(), 'ftw-digests-'));
  try {
    /** @type {Record<string, Record<string, string>>} */
    const digests = {};
    for (const run of DIGEST_RUNS.filter((r) => names.includes(r.name))) {
      const args = [built.file, ...run.args, '--out', out, '--name', run.name, '--quiet'];
      const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`ftw ${run.args.join(' ')} failed:\n${child.stderr}`);
      digests[run.name] = {};
      for (const file of FILES) {
        const path = join(out, run.name, file);
        if (!existsSync(path)) continue;
        let bytes = readFileSync(path);
        let key = file;
        if (file === 'summary.json' && run.drop !== undefined) {
          const summary = JSON.parse(bytes.toString('utf8'));
          for (const field of run.drop) delete summary[field];
          bytes = Buffer.from(JSON.stringify(summary));
          key = `summary.json without ${run.drop.join(', ')}`;
        }
        digests[run.name][key] = createHash('sha256').update(bytes).digest('hex');
      }
    }
    return digests;
  } finally {
    rmSync(out, { recursive: true, force: true });
    built.remove();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const onlyAt = process.argv.indexOf('--only');
  const names = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : undefined;
  const digests = await computeDigests(names);
  if (process.argv.includes('--check')) {
    const expected = JSON.parse(readFileSync(committed, 'utf8'));
    let same = true;
    for (const [name, files] of Object.entries(digests)) {
      for (const [file, digest] of Object.entries(files)) {
        const ok = expected[name]?.[file] === digest;
        same &&= ok;
        console.log(`${ok ? 'same' : 'DIFFERENT'}  ${name}/${file}`);
      }
    }
    process.exit(same ? 0 : 1);
  }
  console.log(JSON.stringify(digests, null, 2));
}
