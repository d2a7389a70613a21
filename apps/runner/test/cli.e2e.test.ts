import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chiSquareInterval } from '@ftw/report';
import { rankOccupancy } from '@ftw/selection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../src/main.js';
import { type BuiltCli, buildCli, RUNNER } from './build-cli.js';

interface Result {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let built: BuiltCli;

function ftw(...args: string[]): Result {
  const r = spawnSync(process.execPath, [built.cli, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Temporary folders of the tests, removed after the file's tests. */
const roots: string[] = [];
const tempRoot = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'ftw-e2e-'));
  roots.push(root);
  return root;
};
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const ndjson = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  built = await buildCli();
});

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  built.remove();
});

describe('ftw reproduce', () => {
  const out = tempRoot();
  let first: Result;
  let second: Result;

  beforeAll(() => {
    first = ftw('reproduce', '--out', out, '--name', 'a');
    second = ftw('reproduce', '--out', out, '--name', 'b', '--json');
  });

  it('reaches a mean optimal-arm probability between 0.960 and 0.975', () => {
    expect(second.status, second.stderr).toBe(0);
    const summary = JSON.parse(second.stdout) as { optimalArmProbability: { mean: number; perSeed: object } };
    expect(Object.keys(summary.optimalArmProbability.perSeed)).toEqual(['0', '1', '2']);
    expect(summary.optimalArmProbability.mean).toBeGreaterThanOrEqual(0.96);
    expect(summary.optimalArmProbability.mean).toBeLessThanOrEqual(0.975);
    // --json prints the summary only: no progress, no table.
    expect(second.stderr).toBe('');
  });

  it('prints the table and plain progress lines when not on a terminal', () => {
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/mean optimal-arm probability: 0\.9\d{3}/);
    expect(first.stdout).toMatch(/\| 0 +\| +0\.9\d{3} \|/);
    expect(first.stderr).toMatch(/^reproduce: 10% \(72\/720\)/m);
    expect(first.stderr).toMatch(/^reproduce: 100% \(720\/720\)/m);
  });

  it('writes every artifact, and each parses', () => {
    const dir = join(out, 'a');
    const config = readJson(join(dir, 'config.json')) as {
      command: string;
      seeds: number[];
      capacity: number;
      provenance: { packages: Record<string, string>; gitCommit: string | null };
    };
    expect(config.command).toBe('reproduce');
    expect(config.seeds).toEqual([0, 1, 2]);
    expect(config.capacity).toBe(128);
    expect(Object.keys(config.provenance.packages)).toEqual([
      '@ftw/runner',
      '@ftw/selection',
      '@ftw/replay-pool',
      '@ftw/objective',
      '@ftw/bandit',
    ]);
    // The commit of the checkout the CLI runs from, or null outside a git work tree.
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: RUNNER, encoding: 'utf8' });
    expect(config.provenance.gitCommit).toBe(head.status === 0 ? head.stdout.trim() : null);
    const metrics = ndjson(join(dir, 'metrics.ndjson'));
    expect(metrics).toHaveLength(3 * 240);
    for (const key of [
      'reward',
      'optimalProbability',
      'klMean',
      'klMax',
      'eliteMean',
      'eliteSpread',
      'poolStaleness',
    ]) {
      expect(metrics[100]).toHaveProperty(key);
    }
    expect(metrics.filter((m) => m['updated']).length).toBe(3 * 236);
    const summary = readJson(join(dir, 'summary.json')) as { updatesPerSeed: number };
    expect(summary.updatesPerSeed).toBe(236);
    const report = readFileSync(join(dir, 'report.md'), 'utf8');
    const images = [...report.matchAll(/!\[[^\]]*\]\(([^)]+\.svg)\)/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThanOrEqual(3);
    for (const image of images) expect(readFileSync(join(dir, image), 'utf8')).toMatch(/^<svg[^>]*>/);
    const policies = ndjson(join(dir, 'policies.ndjson'));
    expect(policies.map((p) => [p['seed'], p['kind'], p['numActions']])).toEqual([
      [0, 'tabular', 2],
      [1, 'tabular', 2],
      [2, 'tabular', 2],
    ]);
    const timing = readJson(join(dir, 'timing.json')) as { durationMs: number };
    expect(timing.durationMs).toBeGreaterThanOrEqual(0);
    expect(readdirSync(out).sort()).toEqual(['a', 'b']);
  });

  it('gives byte-identical metrics and summary when run twice', () => {
    for (const file of ['metrics.ndjson', 'summary.json', 'policies.ndjson']) {
      expect(readFileSync(join(out, 'b', file))).toEqual(readFileSync(join(out, 'a', file)));
    }
  });
});

describe('ftw evaluate', () => {
  const out = tempRoot();

  it("scores a run's saved policies exactly as the run did, and linear Sokoban policies on new levels", () => {
    const run = ftw('reproduce', '--out', out, '--name', 'r', '--json');
    expect(run.status, run.stderr).toBe(0);
    const perSeed = (JSON.parse(run.stdout) as { optimalArmProbability: { perSeed: Record<string, number> } })
      .optimalArmProbability.perSeed;
    const evaluated = ftw('evaluate', join(out, 'r'), '--out', out, '--json');
    expect(evaluated.status, evaluated.stderr).toBe(0);
    const summary = JSON.parse(evaluated.stdout) as { seeds: { seed: number; score: number }[] };
    expect(Object.fromEntries(summary.seeds.map((s) => [String(s.seed), s.score]))).toEqual(perSeed);

    const sokoban = ['train', '--env', 'sokoban', '--size', '5', '--levels', '4', '--held-out', '2'];
    const budget = ['--rollouts', '4', '--iterations', '60', '--seeds', '0,1', '--out', out];
    const linear = ftw(
      ...sokoban,
      '--policy',
      'linear',
      '--optimizer',
      'adam',
      '--lr',
      '0.05',
      ...budget,
      '--name',
      'lin',
      '--json',
    );
    expect(linear.status, linear.stderr).toBe(0);
    const trained = JSON.parse(readFileSync(join(out, 'lin', 'summary.json'), 'utf8')) as {
      seeds: { seed: number; finalOptimalProbability: number }[];
    };
    const again = ftw('evaluate', join(out, 'lin'), '--out', out, '--name', 'e1', '--json');
    expect(again.status, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { seeds: { score: number }[] }).seeds.map((s) => s.score)).toEqual(
      trained.seeds.map((s) => s.finalOptimalProbability),
    );
    const unseen = ftw(
      'evaluate',
      join(out, 'lin'),
      '--level-seed',
      '9',
      '--held-out',
      '6',
      '--out',
      out,
      '--name',
      'e2',
    );
    expect(unseen.status, unseen.stderr).toBe(0);
    expect(unseen.stdout).toContain('| success on the 4 first levels of level seed 9 (unseen) |');
    expect(unseen.stdout).toContain('success on its 6 held-out levels (unseen)');
    expect(readdirSync(join(out, 'e2')).sort()).toEqual(
      expect.arrayContaining(['config.json', 'metrics.ndjson', 'report.md', 'summary.json']),
    );

    // A tabular policy knows the positions of its own levels only.
    const tabular = ftw(...sokoban, ...budget, '--name', 'tab');
    expect(tabular.status, tabular.stderr).toBe(0);
    // Sokoban's score is named as what it is, not as a bandit's.
    expect(tabular.stdout).toMatch(/\| seed +\| success on training levels +\|/);
    expect(tabular.stdout).toMatch(/^final success on training levels: [\d.]+ ± [\d.]+ \(95% CI\)$/m);
    const refused = ftw('evaluate', join(out, 'tab'), '--level-seed', '9', '--out', out, '--name', 'e3');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      "--level-seed 9: a tabular policy knows only the positions of the run's own training levels (level seed 0)",
    );
    expect(ftw('evaluate', join(out, 'tab'), '--out', out, '--name', 'e4', '--quiet').status).toBe(0);
  });

  it('trains mlp and cnn policies on Sokoban, scores their saved weights as the run did, refuses bad lines', () => {
    const sokoban = ['train', '--env', 'sokoban', '--size', '5', '--levels', '4', '--held-out', '3'];
    const budget = [
      '--rollouts',
      '8',
      '--iterations',
      '6',
      '--seeds',
      '0,1',
      '--optimizer',
      'adam',
      '--lr',
      '0.01',
    ];
    for (const [policy, extra] of [
      ['mlp', ['--hidden', '16', '--envs', '4']],
      ['cnn', ['--filters', '4', '--hidden', '8', '--envs', '3']],
    ] as const) {
      const name = `net-${policy}`;
      const trained = ftw(...sokoban, '--policy', policy, ...extra, ...budget, '--out', out, '--name', name);
      expect(trained.status, trained.stderr).toBe(0);
      const lines = ndjson(join(out, name, 'policies.ndjson'));
      expect(lines.map((l) => [l['seed'], l['kind'], l['format']])).toEqual([
        [0, 'network', 'ftw-tfjs-policy/1'],
        [1, 'network', 'ftw-tfjs-policy/1'],
      ]);
      const summary = readJson(join(out, name, 'summary.json')) as {
        seeds: { finalOptimalProbability: number }[];
      };
      const evaluated = ftw('evaluate', join(out, name), '--out', out, '--name', `e-${name}`, '--json');
      expect(evaluated.status, evaluated.stderr).toBe(0);
      expect(
        (JSON.parse(evaluated.stdout) as { seeds: { score: number }[] }).seeds.map((s) => s.score),
      ).toEqual(summary.seeds.map((s) => s.finalOptimalProbability));
    }
    const path = join(out, 'net-mlp', 'policies.ndjson');
    const [first] = ndjson(path);
    const refuse = (line: Record<string, unknown>, message: string) => {
      writeFileSync(path, `${JSON.stringify(line)}\n`);
      const refused = ftw('evaluate', join(out, 'net-mlp'), '--out', out, '--name', 'e-bad');
      expect(refused.status).toBe(2);
      expect(refused.stderr.trim().split('\n')).toEqual([
        `error: policies.ndjson:1: TfjsPolicyError ${message}`,
      ]);
    };
    const weights = [...(first!['parameters'] as number[])];
    weights[5] = Number.NaN; // JSON.stringify writes it as null
    refuse(
      { ...first, parameters: weights },
      'NON_FINITE_WEIGHT: parameters[5] must be a finite number, got null (NaN or ±Infinity when saved)',
    );
    const architecture = { ...(first!['architecture'] as object), hiddenSizes: [32] };
    refuse(
      { ...first, architecture },
      'ARCHITECTURE_MISMATCH: architecture.hiddenSizes is [32] in the record, [16] in this policy',
    );
    refuse(
      { ...first, parameters: weights.slice(1).map(() => 0) },
      'PARAMETER_COUNT_MISMATCH: parameters must hold 1428 weights for this architecture, got 1427',
    );
  });

  it('names what is wrong with a folder that is not a run with saved policies', () => {
    const missing = ftw('evaluate', join(out, 'nothing'), '--out', out);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`${join(out, 'nothing', 'policies.ndjson')} is missing`);
    const bad = join(out, 'bad');
    mkdirSync(bad);
    writeFileSync(
      join(bad, 'policies.ndjson'),
      '{"seed":0,"kind":"deep","numActions":2,"parameters":[0,0]}\n',
    );
    const wrong = ftw('evaluate', bad, '--out', out);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(`${join(bad, 'policies.ndjson')}:1 is not a saved policy`);
    writeFileSync(
      join(bad, 'policies.ndjson'),
      '{"seed":0,"kind":"tabular","numActions":2,"parameters":[0,0]}\n',
    );
    const noConfig = ftw('evaluate', bad, '--out', out);
    expect(noConfig.status).toBe(2);
    expect(noConfig.stderr).toContain(`${join(bad, 'config.json')} is missing`);
    const bandit = ftw('evaluate', join(out, 'r'), '--level-seed', '3', '--out', out);
    expect(bandit.status).toBe(2);
    expect(bandit.stderr).toContain(
      '--level-seed and --held-out apply to a Sokoban run, got a run of --env gaussian',
    );
  });
});

describe('ftw train --level-set split', () => {
  it('trains on a level split, reports held-out success with Wilson intervals, and reuses its cache', () => {
    const out = tempRoot();
    const cache = join(out, 'cache');
    const args = [
      'train',
      '--env',
      'sokoban',
      '--policy',
      'linear',
      '--level-set',
      'split',
      '--levels',
      '200',
    ];
    const run = (name: string) =>
      ftw(
        ...args,
        '--held-out',
        '40',
        '--level-cache',
        cache,
        '--iterations',
        '30',
        '--seeds',
        '0,1',
        '--name',
        name,
        '--out',
        out,
      );
    const first = run('a');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      '200 training + 40 held-out levels (split: distinct, held-out ones never trained on;',
    );
    expect(first.stdout).toMatch(
      /held-out greedy success \(40 levels never trained on; per seed with its 95% Wilson interval\):\n {2}seed 0: (\d+)\/40 = [\d.]+ \[[\d.]+, [\d.]+\]\n {2}seed 1: \d+\/40 = [\d.]+ \[[\d.]+, [\d.]+\]\n {2}mean over seeds: [\d.]+ ± [\d.]+ \(95% CI\)/,
    );
    expect(readdirSync(cache)).toEqual(['sokoban-6x6x1-moves-1-8-seed-0-held-40-train-200.levels']);
    const summary = readJson(join(out, 'a', 'summary.json')) as {
      heldOut: { levels: number; seeds: { seed: number; successes: number; trials: number; rate: number }[] };
    };
    const metrics = ndjson(join(out, 'a', 'metrics.ndjson'));
    expect(summary.heldOut.levels).toBe(40);
    for (const s of summary.heldOut.seeds) {
      const last = metrics.filter((m) => m['seed'] === s.seed).at(-1) as {
        evaluation: { heldOutSuccess: number };
      };
      expect(s.successes / s.trials).toBe(last.evaluation.heldOutSuccess);
    }
    expect((readJson(join(out, 'a', 'config.json')) as { environment: unknown }).environment).toMatchObject({
      levelSet: 'split',
      levelCache: cache,
    });
    // The second run reads the cache: the same levels, so the same results bit for bit.
    const second = run('b');
    expect(second.status, second.stderr).toBe(0);
    expect(readFileSync(join(out, 'b', 'metrics.ndjson'), 'utf8')).toBe(
      readFileSync(join(out, 'a', 'metrics.ndjson'), 'utf8'),
    );
  });
});

describe('bad flags and failures', () => {
  const cases: [string[], RegExp][] = [
    [['train', '--keep', '9'], /--keep \(K\) must be <= --batch-size \(C = 5\), got 9/],
    [['train', '--lr', 'fast'], /--lr must be a finite number > 0, got "fast"/],
    [
      ['train', '--env', 'maze'],
      /--env must be one of gaussian, bernoulli, contextual, tie-heavy, sokoban, got "maze"/,
    ],
    [['train', '--config', '/nonexistent/cfg.json'], /--config must name a readable JSON file/],
    [['occupancy', '--pairs', '4:5'], /--pairs\[0\] K must be an integer in \[1, 4\], got "5"/],
    [['compare', '--seeds', '1'], /--seeds must list at least 2 seeds/],
    [['reproduce', '--bogus'], /unknown option '--bogus'/],
    [
      ['train', '--env', 'sokoban', '--policy', 'mlp', '--actors', '2', '--envs', '4'],
      /--envs applies to lockstep environments in one process; each actor process steps one environment, got --envs 4 with --actors 2/,
    ],
    [
      ['train', '--env', 'sokoban', '--policy', 'cnn', '--actors', '2', '--lag', '1'],
      /--policy cnn runs with actor processes \(--redis\) or lockstep environments \(--envs\), not in the simulation \(--lag\)/,
    ],
    [['reproduce', '--name', '../up'], /--name must be 1-128 letters/],
    [
      ['train', '--env', 'sokoban', '--size', '3', '--boxes', '4'],
      /--size 3, --boxes 4 and --max-moves 8 \(default\): no 3×3 level with 4 boxes and an optimal solution of at most 8 moves could be generated; give a larger --size, fewer --boxes or a larger --max-moves/,
    ],
    [
      ['train', '--env', 'sokoban', '--size', '3', '--level-set', 'split', '--levels', '5000'],
      /--levels 5000 and --held-out 10 \(default\) with --level-set split: only \d+ distinct 3×3 levels with 1 box found in \d+ draws/,
    ],
    [['fly'], /unknown command 'fly'/],
    [[], /Usage: ftw/],
  ];
  it('warns when --max-steps is below the longest optimal solution of the Sokoban levels, and not at it', () => {
    const run = (steps: string) =>
      ftw(
        'train',
        '--env',
        'sokoban',
        '--max-steps',
        steps,
        '--iterations',
        '2',
        '--seeds',
        '0',
        '--quiet',
        '--out',
        tempRoot(),
      );
    const short = run('3');
    expect(short.status).toBe(0);
    const longest =
      /ftw train: warning: --max-steps 3 is below the longest optimal solution of the levels \((\d+) moves\)/.exec(
        short.stderr,
      );
    expect(longest).not.toBeNull();
    // --max-moves 8 (default) bounds every level's optimum: a limit at the longest one warns no more.
    expect(Number(longest![1])).toBeGreaterThan(3);
    expect(Number(longest![1])).toBeLessThanOrEqual(8);
    const enough = run(longest![1]!);
    expect(enough.status).toBe(0);
    expect(enough.stderr).not.toMatch(/warning/);
  });

  for (const [args, message] of cases) {
    it(`exits 2 with a message for: ftw ${args.join(' ')}`, () => {
      const out = tempRoot();
      const r = ftw(...args, ...(args.length > 0 && args[0] !== 'fly' ? ['--out', out] : []));
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(readdirSync(out)).toEqual([]);
    });
  }

  it('reads a config file that opens with a byte-order mark', () => {
    const dir = tempRoot();
    const config = join(dir, 'cfg.json');
    writeFileSync(config, '\uFEFF{ "iterations": 3, "seeds": "0" }\n');
    const r = ftw('train', '--config', config, '--out', dir, '--json');
    expect(r.status, r.stderr).toBe(0);
    expect((readJson(join(dir, 'train', 'config.json')) as { iterations: number }).iterations).toBe(3);
  });
});

describe('output paths of the commands that write runs', () => {
  /** A folder holding a run of saved policies for evaluate, and the paths the cases need. */
  const setUp = () => {
    const dir = tempRoot();
    const run = join(dir, 'saved');
    mkdirSync(run);
    writeFileSync(join(run, 'config.json'), '{"environment":{"kind":"gaussian"}}\n');
    writeFileSync(
      join(run, 'policies.ndjson'),
      '{"seed":0,"kind":"tabular","numActions":2,"parameters":[0,0]}\n',
    );
    writeFileSync(join(dir, 'a-file'), '');
    mkdirSync(join(dir, 'runs', 'mine'), { recursive: true });
    writeFileSync(join(dir, 'runs', 'mine', 'notes.txt'), 'not a run');
    return { dir, run };
  };
  const commands: [string, (run: string) => string[]][] = [
    ['reproduce', () => []],
    ['train', () => ['--iterations', '3']],
    ['occupancy', () => ['--draws', '100']],
    ['compare', () => ['--seeds', '0,1']],
    ['evaluate', (run) => [run]],
  ];
  for (const [command, extra] of commands) {
    it(`ftw ${command}: one line and exit code 2 for a file, a path through one, a read-only place and a folder that is not a run`, () => {
      const { dir, run } = setUp();
      const before = readdirSync(dir).sort();
      const cases: [string[], string][] = [
        [
          ['--out', join(dir, 'a-file')],
          `--out ${JSON.stringify(join(dir, 'a-file'))} is a file, not a folder; give the folder that holds runs`,
        ],
        [
          ['--out', join(dir, 'a-file', 'runs')],
          `${JSON.stringify(join(dir, 'a-file'))} is a file, not a folder; choose another path`,
        ],
        [
          ['--out', '/sys/runs'],
          '--out "/sys/runs": permission denied in "/sys"; choose a folder you can write to',
        ],
        [
          ['--out', '/proc/runs'],
          '--out "/proc/runs": "/proc" does not accept new files; choose another folder',
        ],
        [
          ['--out', join(dir, 'runs'), '--name', 'mine'],
          'already exists and is not an ftw run (a folder without config.json); add --force to replace it, or choose another --name or --out',
        ],
      ];
      for (const [args, message] of cases) {
        const r = ftw(command, ...extra(run), ...args, '--quiet');
        expect(r.status, `${command} ${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/^error: [^\n]+\n$/);
        expect(r.stderr).toContain(message);
      }
      expect(readdirSync(dir).sort()).toEqual(before);
      expect(readdirSync(join(dir, 'runs'))).toEqual(['mine']);
      expect(readdirSync(join(dir, 'runs', 'mine'))).toEqual(['notes.txt']);
    });
  }

  it('replaces a folder that is not a run with --force, and creates a missing --out with its parents', () => {
    const { dir } = setUp();
    expect(
      ftw('occupancy', '--draws', '100', '--out', join(dir, 'runs'), '--name', 'mine', '--force', '--quiet')
        .status,
    ).toBe(0);
    expect(readdirSync(join(dir, 'runs', 'mine'))).toContain('config.json');
    expect(readdirSync(join(dir, 'runs', 'mine'))).not.toContain('notes.txt');
    expect(ftw('occupancy', '--draws', '100', '--out', join(dir, 'new', 'deep'), '--quiet').status).toBe(0);
    expect(readdirSync(join(dir, 'new', 'deep'))).toEqual(['occupancy']);
  });
});

describe('an interrupted run', () => {
  it('exits 130 on SIGINT and leaves nothing behind', async () => {
    const out = tempRoot();
    const child = spawn(process.execPath, [built.cli, 'compare', '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // Interrupt once the computation is under way (the first progress line).
        if (stderr.includes('compare: 10%') && child.exitCode === null) child.kill('SIGINT');
      });
      child.on('exit', (exitCode) => resolve(exitCode));
    });
    expect(stderr).toMatch(/compare: 10%/);
    expect(code).toBe(130);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('--help', () => {
  it('ftw --help and each ftw <command> --help exit 0, list every option with its default, and show examples', async () => {
    const program = await createProgram();
    const top = ftw('--help');
    expect(top.status, top.stderr).toBe(0);
    expect(top.stderr).toBe('');
    const names = program.commands.map((c) => c.name());
    for (const name of names) expect(top.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const examples = (help: string): string[] =>
      (/\nExamples:\n((?: {2}ftw .*\n?)+)/.exec(help)?.[1] ?? '')
        .trimEnd()
        .split('\n')
        .map((l) => l.trim());
    const topExamples = examples(top.stdout);
    expect(topExamples.length).toBeGreaterThan(0);
    for (const line of topExamples)
      expect(names).toContain(line.split(/\s+/)[1]!.replace(/^<command>$/, names[0]!));
    for (const command of program.commands) {
      const name = command.name();
      const r = ftw(name, '--help');
      expect(r.status, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
      // Each option's entry (its line and the indented ones that continue it) ends with its default or
      // (required).
      const entries = new Map<string, string>();
      const section = /\nOptions:\n([\s\S]*?)(?:\n\n|$)/.exec(r.stdout)?.[1] ?? '';
      for (const entry of section.split(/\n(?= {2}-)/)) {
        const flag = /^ {2}(?:-\w, )?(--[a-z-]+)/.exec(entry)?.[1];
        if (flag !== undefined) entries.set(flag, entry.replace(/\s+/g, ' ').trim());
      }
      const longs = command.options.map((o) => o.long!);
      expect([...entries.keys()].filter((f) => f !== '--help').sort()).toEqual([...longs].sort());
      for (const long of longs) {
        expect(entries.get(long), `${name} ${long}`).toMatch(/\((?:default: .+|required)\)$/);
      }
      // At least one example, of this command, using only its own options.
      const shown = examples(r.stdout);
      expect(shown.length, name).toBeGreaterThan(0);
      for (const line of shown) {
        expect(line.startsWith(`ftw ${name}`), line).toBe(true);
        for (const flag of line.match(/ --[a-z-]+/g) ?? []) expect(longs, line).toContain(flag.trim());
      }
    }
  });

  it('lists every option of every command with its default', () => {
    const train = ftw('train', '--help');
    expect(train.status).toBe(0);
    const help = train.stdout.replace(/\s+/g, ' ');
    for (const [flag, value] of [
      ['--batch-size', '"5"'],
      ['--keep', '"1"'],
      ['--beta', '"0.05"'],
      ['--kl', '"reverse"'],
      ['--reference', '"uniform"'],
      ['--optimizer', '"sgd"'],
      ['--selection', '"sampled"'],
      ['--tie-rule', '"random"'],
      ['--threshold', '"none"'],
      ['--seeds', '"0,1,2"'],
      ['--out', '"runs"'],
      ['--level-set', '"stream"'],
      ['--level-cache', '"none"'],
    ]) {
      // The option's own text runs up to its default, without reaching the next option.
      expect(help).toMatch(new RegExp(`${flag} <[^>]+> (?:(?! --).)*?\\(default: ${value}\\)`));
    }
    for (const command of ['reproduce', 'occupancy', 'compare', 'evaluate']) {
      const r = ftw(command, '--help');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
        new RegExp(`--name <name> (?:(?! --).)*?\\(default: "${command}"\\)`),
      );
    }
    const flat = (command: string): string => ftw(command, '--help').stdout.replace(/\s+/g, ' ');
    expect(flat('occupancy')).toMatch(
      /--pairs <list> (?:(?! --).)*?\(default: "4:1,5:1,5:3,8:2,16:4,32:8"\)/,
    );
    expect(flat('occupancy')).toMatch(/--draws <count> (?:(?! --).)*?\(default: "100000"\)/);
    expect(flat('compare')).toMatch(/--seeds <list> (?:(?! --).)*?\(default: "0..9"\)/);
  });
});

describe('ftw occupancy', () => {
  it("writes Figure 1 whose exact column is @ftw/selection's rankOccupancy and whose Monte Carlo column is a sample of it", () => {
    const out = tempRoot();
    const draws = 20_000;
    const r = ftw('occupancy', '--out', out, '--draws', String(draws), '--quiet');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    const dir = join(out, 'occupancy');
    expect(readFileSync(join(dir, 'figure-1.svg'), 'utf8')).toMatch(/^<svg/);
    const lines = readFileSync(join(dir, 'occupancy.csv'), 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('n,batchSize,keep,rank,exact,monteCarlo');
    const pairs = [
      [4, 1],
      [5, 1],
      [5, 3],
      [8, 2],
      [16, 4],
      [32, 8],
    ] as const;
    expect(lines).toHaveLength(1 + 128 * pairs.length);
    // False alarms: 768 per-rank bounds at δ = 5e-7 each, and the two K = 1 chi-square statistics at 1e-4
    // per side: at most 3.9e-4 + 4e-4 < 1e-3 per run (the run is seeded, so it is also reproducible).
    const delta = 5e-7;
    const L = Math.log(2 / delta);
    let row = 1;
    for (const [c, k] of pairs) {
      const exact = rankOccupancy(128, c, k);
      const counts: number[] = [];
      for (let rank = 1; rank <= 128; rank++, row++) {
        const [n, batchSize, keep, r2, value, mc] = lines[row]!.split(',').map(Number);
        expect([n, batchSize, keep, r2]).toEqual([128, c, k, rank]);
        expect(value).toBe(exact[rank - 1]);
        counts.push(mc! * k * draws);
      }
      // Each minibatch keeps rank r at most once, with probability p = K·P(r): the count of rank r is
      // Binomial(draws, p). Pearson's statistic needs independent cells, which holds for K = 1 (the counts
      // are multinomial); cells expected below 5 are pooled, and X² is then close to χ² with (cells − 1)
      // degrees of freedom. A column of exact values gives X² ≈ 0, far below the lower quantile.
      if (k === 1) {
        let x2 = 0;
        let cells = 0;
        let pooledCount = 0;
        let pooledExpected = 0;
        for (let i = 0; i < 128; i++) {
          const e = draws * exact[i]!;
          if (e < 5) {
            pooledCount += counts[i]!;
            pooledExpected += e;
            continue;
          }
          x2 += (counts[i]! - e) ** 2 / e;
          cells++;
        }
        if (pooledExpected > 0) {
          x2 += (pooledCount - pooledExpected) ** 2 / pooledExpected;
          cells++;
        }
        const { lo, hi } = chiSquareInterval(1e-4, cells - 1);
        expect(x2, `C=${c}: X² = ${x2} with ${cells - 1} degrees of freedom`).toBeGreaterThan(lo);
        expect(x2, `C=${c}: X² = ${x2} with ${cells - 1} degrees of freedom`).toBeLessThan(hi);
      }
      // Every rank within its Bernstein bound: |X − draws·p| ≤ L/3 + sqrt((L/3)² + 2·draws·p(1 − p)·L).
      for (let i = 0; i < 128; i++) {
        const p = k * exact[i]!;
        const bound = L / 3 + Math.sqrt((L / 3) ** 2 + 2 * draws * p * (1 - p) * L);
        expect(Math.abs(counts[i]! - draws * p), `C=${c}, K=${k}, rank ${i + 1}`).toBeLessThanOrEqual(bound);
        // Counts are whole numbers (the column is count / (K · draws)); impossible ranks are never kept.
        expect(Math.abs(counts[i]! - Math.round(counts[i]!))).toBeLessThan(1e-6);
        if (p === 0) expect(counts[i]).toBe(0);
      }
    }
  });
});

describe('ftw compare', () => {
  it('runs every method on the same number of environment samples', () => {
    const out = tempRoot();
    const r = ftw('compare', '--out', out, '--seeds', '0,1', '--json');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as {
      scenarios: {
        name: string;
        samplesPerSeed: number;
        methods: { label: string; environmentSteps: number; seeds: { environmentSteps: number }[] }[];
      }[];
    };
    expect(summary.scenarios.map((s) => s.name)).toEqual(['gaussian', 'tie-heavy']);
    for (const scenario of summary.scenarios) {
      expect(scenario.methods.map((m) => m.label)).toEqual(
        expect.arrayContaining(['ftw-sampled', 'ftw-expected', 'reinforce', 'grpo', 'ppo']),
      );
      for (const method of scenario.methods) {
        for (const seed of method.seeds) expect(seed.environmentSteps).toBe(scenario.samplesPerSeed);
      }
    }
    const labels = summary.scenarios[1]!.methods.map((m) => m.label);
    expect(labels).toEqual(expect.arrayContaining(['ftw-sampled-threshold', 'ftw-expected-threshold']));
    const dir = join(out, 'compare');
    for (const file of ['curves-gaussian.svg', 'curves-tie-heavy.svg', 'report.md', 'metrics.ndjson']) {
      expect(existsSync(join(dir, file))).toBe(true);
    }
  });
});

describe('--jobs', () => {
  it('trains seeds on worker threads with the same files, bit for bit', () => {
    const out = tempRoot();
    const files = ['metrics.ndjson', 'summary.json', 'policies.ndjson', 'report.md'];
    const runs = {
      train:
        'train --env sokoban --policy linear --rollouts 4 --iterations 1000000 --max-samples 600 --seeds 0..4',
      compare: 'compare --seeds 0,1 --scenarios tie-heavy',
    };
    for (const jobs of ['1', '3', 'auto']) {
      for (const [run, args] of Object.entries(runs)) {
        const r = ftw(
          ...args.split(' '),
          '--quiet',
          '--jobs',
          jobs,
          '--out',
          out,
          '--name',
          `${run}-${jobs}`,
        );
        expect(r.status, r.stderr).toBe(0);
      }
    }
    for (const run of ['train', 'compare']) {
      for (const file of files) {
        if (run === 'compare' && file === 'policies.ndjson') continue;
        for (const jobs of ['3', 'auto']) {
          expect(readFileSync(join(out, `${run}-${jobs}`, file), 'utf8'), `${run} ${file}`).toBe(
            readFileSync(join(out, `${run}-1`, file), 'utf8'),
          );
        }
      }
    }
    const bad = ftw('train', '--jobs', '0', '--out', out);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--jobs must be an integer in [1, 256] or auto, got "0"');
    const word = ftw('train', '--jobs', 'many', '--out', out);
    expect(word.status).toBe(2);
    expect(word.stderr).toContain('--jobs must be an integer in [1, 256] or auto, got "many"');
    const async = ftw('train', '--actors', '2', '--lag', '1', '--jobs', '2', '--out', out);
    expect(async.status).toBe(2);
    expect(async.stderr).toContain(
      '--jobs applies to synchronous training (seeds on worker threads), got --jobs 2 with asynchronous actors',
    );
    const asyncCompare = ftw('compare', '--scenario', 'async', '--jobs', '2', '--out', out);
    expect(asyncCompare.status).toBe(2);
    expect(asyncCompare.stderr).toContain('got --jobs 2 with --scenario async');
  });
});
