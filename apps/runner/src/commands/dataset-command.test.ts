import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error -- the package's example is plain JavaScript, run as is by node.
import { scriptedLog } from '../../../../packages/agent-data/examples/scripted-agent.mjs';
import { main } from '../main.js';

const dir = mkdtempSync(join(tmpdir(), 'ftw-dataset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
    stdout += String(text);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    stderr += String(text);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const ftw = (...args: string[]) => main(['node', 'ftw', 'dataset', ...args]);
const log = (name: string, shape: string, runs = 400, successRate = 0.3) => {
  const path = join(dir, name);
  writeFileSync(path, scriptedLog({ shape, runs, successRate, seed: 5 }));
  return path;
};
const base = ['--capacity', '300', '--batch-size', '5', '--keep', '3', '--batches', '200'];

describe('ftw dataset', () => {
  it('turns the example agent log into an OpenAI fine-tuning file with a manifest and a summary (exit 0)', async () => {
    const input = log('ai-sdk.jsonl', 'ai-sdk');
    const out = join(dir, 'sft.jsonl');
    expect(await ftw('--input', input, '--from', 'ai-sdk', ...base, '--format', 'openai', '--out', out)).toBe(
      0,
    );
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(600);
    expect(JSON.parse(lines[0]!).messages[1].role).toBe('user');
    const manifest = JSON.parse(readFileSync(join(dir, 'sft.manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      seed: 0,
      configuration: { from: 'ai-sdk', batches: 200, batchSize: 5, keep: 3 },
    });
    expect(manifest.selected.reduce((s: number, e: { count: number }) => s + e.count, 0)).toBe(600);
    expect(stdout).toMatch(/failures imitated/);
    expect(stdout).toMatch(/Eq\. 5/);
    // 30% successes, K = 3 of C = 5: the paper's collapse regime is flagged.
    expect(stdout).toMatch(/warning: K = 3 exceeds the 1\.\d\d successes/);
  });

  it("runs the package README's two commands: the example agent's AI SDK log to an OpenAI fine-tuning file", async () => {
    // node packages/agent-data/examples/scripted-agent.mjs --shape ai-sdk --runs 2000 --success-rate 0.3 --seed 1 --out runs.jsonl
    const input = join(dir, 'runs.jsonl');
    writeFileSync(input, scriptedLog({ shape: 'ai-sdk', runs: 2000, successRate: 0.3, seed: 1 }));
    const folder = join(dir, 'readme');
    mkdirSync(folder);
    const out = join(folder, 'sft.jsonl');
    const code = await ftw(
      ...['--input', input, '--from', 'ai-sdk', '--capacity', '1000', '--batch-size', '8', '--keep', '2'],
      ...[
        '--batches',
        '500',
        '--threshold',
        '0',
        '--tie-break',
        'fewer-turns',
        '--format',
        'openai',
        '--out',
        out,
      ],
    );
    expect(code).toBe(0);
    // The summary the README shows, line for line, up to its '…'.
    const readme = readFileSync(
      new URL('../../../../packages/agent-data/README.md', import.meta.url),
      'utf8',
    );
    const shown = /```\n(\| dataset [\s\S]*?)\n```/.exec(readme)?.[1]?.split('\n') ?? [];
    const cut = shown.indexOf('…');
    expect(cut).toBeGreaterThan(10);
    expect(stdout.split('\n').slice(0, cut)).toEqual(shown.slice(0, cut));
    const manifest = JSON.parse(readFileSync(join(folder, 'sft.manifest.json'), 'utf8'));
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(manifest.output.lines);
    expect(manifest.report.eliteFailures).toBe(0);
    expect(manifest.window.size).toBe(1000);
    // Every line is an OpenAI chat example that ends with the agent's correct final answer.
    for (const line of lines) {
      const { messages } = JSON.parse(line);
      const task = messages[1].content.match(/\((\d+) \+ (\d+)\) \* (\d+)/);
      expect(messages.at(-1).content).toBe(
        `The answer is ${(Number(task[1]) + Number(task[2])) * Number(task[3])}.`,
      );
    }
  });

  it('writes byte-identical files for the same seed and input, and different ones for another seed', async () => {
    const input = log('same.jsonl', 'ftw');
    const run = async (name: string, seed: string) => {
      const out = join(dir, name);
      expect(
        await ftw('--input', input, ...base, '--seed', seed, '--format', 'trl', '--out', out, '--quiet'),
      ).toBe(0);
      return readFileSync(out, 'utf8');
    };
    const a = await run('a.jsonl', '7');
    expect(await run('b.jsonl', '7')).toBe(a);
    expect(await run('c.jsonl', '8')).not.toBe(a);
    expect(readFileSync(join(dir, 'a.manifest.json'), 'utf8').replaceAll('a.jsonl', 'b.jsonl')).toBe(
      readFileSync(join(dir, 'b.manifest.json'), 'utf8'),
    );
  });

  it('selects by exact expected counts, with a threshold, and prints JSON with --json', async () => {
    const input = log('art.jsonl', 'art');
    const out = join(dir, 'art-out.jsonl');
    const args = [
      '--input',
      input,
      '--from',
      'art',
      ...base,
      '--selection',
      'expected',
      '--threshold',
      '0',
      '--format',
      'art',
      '--out',
      out,
      '--json',
    ];
    expect(await ftw(...args)).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.report.eliteFailures).toBe(0);
    expect(summary.report.mode).toBe('expected');
    expect(summary.selected).toBeUndefined();
    for (const line of readFileSync(out, 'utf8').trimEnd().split('\n'))
      expect(JSON.parse(line).reward).toBe(1);
  });

  it('passes --success-above and --seed to the report, and --json prints the manifest written beside the output', async () => {
    const input = log('success-above.jsonl', 'ftw', 400, 0.4);
    const out = join(dir, 'success-above-out.jsonl');
    const args = ['--input', input, ...base, '--success-above', '0.5', '--seed', '3'];
    expect(await ftw(...args, '--format', 'trl', '--out', out, '--json')).toBe(0);
    const printed = JSON.parse(stdout);
    const manifest = JSON.parse(readFileSync(join(dir, 'success-above-out.manifest.json'), 'utf8'));
    const { selected: _selected, ...rest } = manifest;
    expect(printed).toEqual({ ...rest, manifestFile: join(dir, 'success-above-out.manifest.json') });
    expect(printed.seed).toBe(3);
    expect(printed.configuration.successAbove).toBe(0.5);
    expect(printed.report.successAbove).toBe(0.5);
    // The window is the newest 300 of the 400 runs (by sequence): the successes are its rewards above 0.5.
    const runs = readFileSync(input, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { sequence: number; reward: number });
    const window = runs.sort((x, y) => x.sequence - y.sequence).slice(-300);
    expect(printed.input).toMatchObject({ lines: 400, valid: 400, skipped: 0 });
    expect(printed.report.successes).toBe(window.filter((r) => r.reward > 0.5).length);
  });

  it('reports bad lines as file:line, skips them and still succeeds; --strict makes the first one exit 2', async () => {
    const input = join(dir, 'bad.jsonl');
    writeFileSync(input, `${scriptedLog({ shape: 'ftw', runs: 20, seed: 1 })}{"id": 1\nnot json\n`);
    const out = join(dir, 'bad-out.jsonl');
    const args = [
      '--input',
      input,
      '--capacity',
      '20',
      '--batch-size',
      '4',
      '--keep',
      '1',
      '--batches',
      '5',
      '--format',
      'openai',
      '--out',
      out,
    ];
    expect(await ftw(...args, '--quiet')).toBe(0);
    expect(stderr).toMatch(/bad\.jsonl:21: invalid JSON/);
    expect(stderr).toMatch(/bad\.jsonl:22: invalid JSON/);
    expect(await ftw(...args, '--strict', '--force')).toBe(2);
    expect(stderr).toMatch(/error: .*bad\.jsonl:21: invalid JSON/);
  });

  it('warns of a run without a final answer with its line, in the manifest and the table; --strict makes it exit 2', async () => {
    const input = join(dir, 'unanswered.jsonl');
    const lines = scriptedLog({ shape: 'ftw', runs: 20, seed: 1 }).trimEnd().split('\n');
    const cut = JSON.parse(lines[4]!);
    // Run 5 ends on its tool result: the answer was never logged.
    cut.messages = cut.messages.slice(0, -1);
    lines[4] = JSON.stringify(cut);
    writeFileSync(input, `${lines.join('\n')}\n`);
    const out = join(dir, 'unanswered-out.jsonl');
    const args = ['--input', input, '--capacity', '20', '--batch-size', '4', '--keep', '1', '--batches', '5'];
    expect(await ftw(...args, '--format', 'openai', '--out', out)).toBe(0);
    expect(stderr).toMatch(
      /warning: .*unanswered\.jsonl:5: no-final-answer: messages\[\d+\] \(the last\) is a tool message/,
    );
    expect(stdout).toMatch(/\| run warnings +\| no-final-answer: 1 \(lines 5\)/);
    const manifest = JSON.parse(readFileSync(join(dir, 'unanswered-out.manifest.json'), 'utf8'));
    expect(manifest.input.warnings['no-final-answer']).toEqual({ count: 1, lines: [5] });
    // A new output path: the strict run must fail on the warning, not on the existing file.
    const strictOut = join(dir, 'unanswered-strict.jsonl');
    expect(await ftw(...args, '--format', 'openai', '--out', strictOut, '--strict')).toBe(2);
    expect(stderr).toMatch(/error: .*unanswered\.jsonl:5: no-final-answer/);
  });

  it('prints the first 20 bad lines and counts the others, all of them skipped in the manifest', async () => {
    const input = join(dir, 'many-bad.jsonl');
    const bad = Array.from({ length: 23 }, (_, i) => `{"broken": ${i}`).join('\n');
    writeFileSync(input, `${scriptedLog({ shape: 'ftw', runs: 20, seed: 1 })}${bad}\n`);
    const out = join(dir, 'many-bad-out.jsonl');
    const args = ['--input', input, '--capacity', '20', '--batch-size', '4', '--keep', '1', '--batches', '5'];
    expect(await ftw(...args, '--format', 'openai', '--out', out, '--json')).toBe(0);
    const shown = stderr.split('\n').filter((l) => /many-bad\.jsonl:\d+: invalid JSON/.test(l));
    expect(shown.map((l) => Number(l.match(/:(\d+):/)![1]))).toEqual(
      Array.from({ length: 20 }, (_, i) => 21 + i),
    );
    expect(stderr).toMatch(/… and 3 more bad lines \(skipped\)/);
    expect(JSON.parse(stdout).input).toMatchObject({ lines: 43, valid: 20, skipped: 23 });
  });

  it('reports importance diagnostics against a current-policy log-probability file', async () => {
    const input = log('traced.jsonl', 'ftw', 300);
    // The current policy is the behaviour policy plus 0.1 nat on the first token of every turn.
    const current = join(dir, 'current.jsonl');
    const runs = readFileSync(input, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    writeFileSync(
      current,
      runs
        .map((r) => {
          const turns = r.messages.filter((m: { role: string }) => m.role === 'assistant');
          const logprobs = turns.map((m: { trace: { logprobs: number[] } }) =>
            m.trace.logprobs.map((x, k) => (k === 0 ? x + 0.1 : x)),
          );
          return JSON.stringify({ id: r.id, logprobs });
        })
        .join('\n'),
    );
    const out = join(dir, 'traced-out.jsonl');
    expect(
      await ftw(
        '--input',
        input,
        ...base,
        '--current-logprobs',
        current,
        '--format',
        'openai',
        '--out',
        out,
        '--json',
      ),
    ).toBe(0);
    const { importance } = JSON.parse(stdout);
    expect(importance.matched).toBe(importance.traced);
    expect(importance.matched).toBeGreaterThan(0);
    for (const w of importance.logWeights) {
      const turns = runs
        .find((r) => r.id === w.id)
        .messages.filter((m: { role: string }) => m.role === 'assistant').length;
      expect(w.logWeight).toBeCloseTo(0.1 * turns, 12);
    }
    expect(importance.essFraction).toBeGreaterThan(0);
    expect(importance.essFraction).toBeLessThanOrEqual(1);
  });

  it('selects within each task with --per-task: every task of the window gets J·K selections', async () => {
    const input = join(dir, 'tasks-repeated.jsonl');
    writeFileSync(input, scriptedLog({ shape: 'agents', runs: 300, successRate: 0.5, seed: 2, tasks: 6 }));
    const out = join(dir, 'per-task.jsonl');
    const args = [
      '--input',
      input,
      '--from',
      'agents',
      '--capacity',
      '300',
      '--batch-size',
      '4',
      '--keep',
      '1',
    ];
    expect(
      await ftw(...args, '--batches', '10', '--per-task', '--format', 'trl', '--out', out, '--json'),
    ).toBe(0);
    const { report } = JSON.parse(stdout);
    expect(report.groups).toBe(6);
    const byTask = new Map<string, number>();
    for (const line of readFileSync(out, 'utf8').trimEnd().split('\n')) {
      const { messages, weight } = JSON.parse(line);
      const task = messages.find((m: { role: string }) => m.role === 'user').content;
      byTask.set(task, (byTask.get(task) ?? 0) + weight);
    }
    expect([...byTask.values()]).toEqual(Array(6).fill(10));
  });

  it.each([
    [['--keep', '9'], /--keep must be an integer in \[1, 5\], got "9"/],
    [['--format', 'csv'], /--format must be one of openai, trl, art, got "csv"/],
    [['--from', 'langchain'], /--from must be one of/],
    [['--tie-break', 'shortest'], /--tie-break must be a comma-separated list/],
    [['--selection', 'greedy'], /--selection must be one of sampled, expected/],
  ])('exits 2 on a bad flag %j', async (extra, message) => {
    const input = log('flags.jsonl', 'ftw', 30);
    expect(
      await ftw('--input', input, ...base, '--format', 'openai', '--out', join(dir, 'x.jsonl'), ...extra),
    ).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 for a missing input, a missing flag and a window smaller than C', async () => {
    expect(
      await ftw(
        '--input',
        join(dir, 'nope.jsonl'),
        ...base,
        '--format',
        'openai',
        '--out',
        join(dir, 'x.jsonl'),
      ),
    ).toBe(2);
    expect(stderr).toMatch(/--input must be an existing file/);
    expect(
      await ftw('--input', join(dir, 'nope.jsonl'), '--format', 'openai', '--out', join(dir, 'x.jsonl')),
    ).toBe(2);
    expect(
      await ftw(
        '--input',
        log('ok.jsonl', 'ftw', 30),
        ...base,
        '--format',
        'openai',
        '--out',
        join(dir, 'no', 'x.jsonl'),
      ),
    ).toBe(2);
    expect(stderr).toMatch(/--out ".*x\.jsonl": folder ".*no" does not exist/);
    const input = log('tiny.jsonl', 'ftw', 3);
    expect(await ftw('--input', input, ...base, '--format', 'openai', '--out', join(dir, 'x.jsonl'))).toBe(2);
    expect(stderr).toMatch(
      /tiny\.jsonl: the window holds 3 runs, fewer than --batch-size 5; give a smaller --batch-size, a larger --capacity or a log of more runs/,
    );
  });

  describe('output paths: one line on stderr, exit code 2, nothing written', () => {
    const args = (out: string, ...extra: string[]) => [
      '--input',
      log('paths.jsonl', 'ftw', 30),
      '--capacity',
      '30',
      ...base.slice(2),
      '--format',
      'openai',
      '--out',
      out,
      ...extra,
    ];
    const refused = async (folder: string, out: string, message: string, ...extra: string[]) => {
      const before = readdirSync(folder).sort();
      stderr = '';
      expect(await ftw(...args(out, ...extra))).toBe(2);
      expect(stderr).toBe(`error: ${message}\n`);
      expect(readdirSync(folder).sort()).toEqual(before);
      expect(stdout).toBe('');
    };

    it('refuses a folder, a missing folder and a folder through a file', async () => {
      const folder = join(dir, 'paths-1');
      mkdirSync(join(folder, 'a-folder', 'inside'), { recursive: true });
      writeFileSync(join(folder, 'a-file'), '');
      await refused(
        folder,
        join(folder, 'a-folder'),
        `--out ${JSON.stringify(join(folder, 'a-folder'))} is a folder; give the path of a file instead`,
      );
      await refused(
        folder,
        join(folder, 'missing', 'dir', 'x.jsonl'),
        `--out ${JSON.stringify(join(folder, 'missing', 'dir', 'x.jsonl'))}: folder ${JSON.stringify(join(folder, 'missing', 'dir'))} does not exist; create it (mkdir -p ${join(folder, 'missing', 'dir')}) or choose another folder`,
      );
      await refused(
        folder,
        join(folder, 'a-file', 'x.jsonl'),
        `--out ${JSON.stringify(join(folder, 'a-file', 'x.jsonl'))}: ${JSON.stringify(join(folder, 'a-file'))} is a file, not a folder; choose another path`,
      );
    });

    it('refuses an existing output or manifest without --force, and replaces both with it', async () => {
      const folder = join(dir, 'paths-2');
      mkdirSync(folder);
      const out = join(folder, 'sft.jsonl');
      writeFileSync(out, 'mine\n');
      await refused(
        folder,
        out,
        `--out ${JSON.stringify(out)} already exists; add --force to replace it, or choose another path`,
      );
      rmSync(out);
      writeFileSync(join(folder, 'sft.manifest.json'), 'mine\n');
      await refused(
        folder,
        out,
        `the manifest beside --out ${JSON.stringify(join(folder, 'sft.manifest.json'))} already exists; add --force to replace it, or choose another path`,
      );
      writeFileSync(out, 'mine\n');
      expect(await ftw(...args(out, '--force', '--quiet'))).toBe(0);
      // J·K = 200 · 3 lines, none of the old file's.
      expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(600);
      expect(readFileSync(out, 'utf8')).not.toMatch(/mine/);
      expect(JSON.parse(readFileSync(join(folder, 'sft.manifest.json'), 'utf8')).output.lines).toBe(600);
      expect(readdirSync(folder).sort()).toEqual(['sft.jsonl', 'sft.manifest.json']);
    });

    // Root ignores file modes, but not sysfs: creating a file there fails for root too (EACCES).
    it('refuses a place where no file can be created', async () => {
      await refused(
        dir,
        '/sys/sft.jsonl',
        '--out "/sys/sft.jsonl": permission denied in "/sys"; choose a folder you can write to',
      );
    });
  });

  it('exits 2 when no run is selected, naming --threshold and its value, unless --allow-empty', async () => {
    const folder = join(dir, 'empty');
    mkdirSync(folder);
    const input = log('empty.jsonl', 'ftw', 30);
    const out = join(folder, 'sft.jsonl');
    const common = ['--input', input, '--capacity', '30', ...base.slice(2), '--format', 'openai'];
    expect(await ftw(...common, '--threshold', '1', '--out', out)).toBe(2);
    expect(stderr).toMatch(
      /^error: .*empty\.jsonl: no run was selected: no run of the window has a reward above --threshold 1; the highest is 1; lower --threshold, or add --allow-empty to write an empty file\n/,
    );
    expect(readdirSync(folder)).toEqual([]);
    expect(await ftw(...common, '--threshold', '1', '--allow-empty', '--out', out, '--quiet')).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(JSON.parse(readFileSync(join(folder, 'sft.manifest.json'), 'utf8')).output.lines).toBe(0);
  });

  it('reads a log whose first line opens with a UTF-8 byte-order mark', async () => {
    const input = join(dir, 'bom.jsonl');
    writeFileSync(input, `\uFEFF${scriptedLog({ shape: 'ai-sdk', runs: 30, successRate: 0.5, seed: 2 })}`);
    const out = join(dir, 'bom-sft.jsonl');
    expect(
      await ftw(
        '--input',
        input,
        '--from',
        'ai-sdk',
        '--capacity',
        '30',
        ...base.slice(2),
        '--format',
        'openai',
        '--out',
        out,
        '--json',
      ),
    ).toBe(0);
    expect(JSON.parse(stdout).input).toMatchObject({ lines: 30, valid: 30, skipped: 0 });
    expect(stderr).toBe('');
  });

  it('prints the tie rate left after the tie-break keys', async () => {
    const input = log('tasks.jsonl', 'ftw', 200, 0.5);
    const out = join(dir, 'tasks-out.jsonl');
    expect(
      await ftw('--input', input, ...base, '--tie-break', 'fewer-turns', '--format', 'openai', '--out', out),
    ).toBe(0);
    expect(stdout).toMatch(/after tie-break keys/);
  });
});
