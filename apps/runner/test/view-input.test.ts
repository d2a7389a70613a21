import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/main.js';

// `ftw view` on folders it cannot show: exit code 2, a message naming the folder and what is wrong, and no
// page written. Run in-process through the CLI's entry point (no page is built, so no build is needed).

const root = mkdtempSync(join(tmpdir(), 'ftw-view-input-'));
let stderr: string;

beforeEach(() => {
  stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const line = (seed: number, iteration: number, extra: object = {}): string =>
  JSON.stringify({ seed, iteration, samples: iteration, reward: 0.5, optimalProbability: 0.5, ...extra });

/** A run folder in the runner's format (or a damaged one), with the files given. */
function runFolder(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  return dir;
}

const goodFiles = {
  'config.json': JSON.stringify({
    command: 'train',
    method: 'ftw',
    environment: { kind: 'bernoulli', probs: [0.2, 0.8] },
  }),
  'summary.json': '{}',
  'metrics.ndjson': `${line(0, 1)}\n${line(0, 2)}\n`,
};

async function view(...args: string[]): Promise<number> {
  return main(['node', 'ftw', 'view', ...args]);
}

describe('ftw view on bad input', () => {
  const out = join(root, 'out.html');

  it('refuses a folder that does not exist', async () => {
    expect(await view(join(root, 'missing'), '--out', out)).toBe(2);
    expect(stderr).toMatch(/error: run folder ".*missing" does not exist/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a folder that is not a run', async () => {
    const dir = runFolder('notes', { 'notes.txt': 'hello' });
    expect(await view(dir, '--out', out)).toBe(2);
    expect(stderr).toMatch(
      /notes is not an ftw run: it has no config\.json \(a run folder holds config\.json, metrics\.ndjson and summary\.json/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a file given as a run folder', async () => {
    const dir = runFolder('file-parent', { 'x.txt': '' });
    expect(await view(join(dir, 'x.txt'), '--out', out)).toBe(2);
    expect(stderr).toMatch(/x\.txt" is not a folder/);
  });

  it('refuses a run of an older format: no command in config.json', async () => {
    const dir = runFolder('old-config', { ...goodFiles, 'config.json': JSON.stringify({ method: 'ftw' }) });
    expect(await view(dir, '--out', out)).toBe(2);
    expect(stderr).toMatch(/old-config was written by an older ftw: its config\.json has no "command" field/);
  });

  it('refuses a run of an older format: metric lines without environment steps', async () => {
    const dir = runFolder('old-metrics', {
      ...goodFiles,
      'metrics.ndjson': `${JSON.stringify({ seed: 0, iteration: 1, reward: 1 })}\n`,
    });
    expect(await view(dir, '--out', out)).toBe(2);
    expect(stderr).toMatch(
      /metrics\.ndjson line 1 has no numeric "samples" field \(got nothing\): the run was written by an older ftw/,
    );
  });

  it('refuses a run of a command without learning curves (occupancy)', async () => {
    const dir = runFolder('occupancy', {
      ...goodFiles,
      'config.json': JSON.stringify({ command: 'occupancy', n: 128 }),
    });
    expect(await view(dir, '--out', out)).toBe(2);
    expect(stderr).toMatch(
      /occupancy is a run of "ftw occupancy", which has no learning curves; ftw view shows runs of train, compare, reproduce/,
    );
  });

  it('names the line of a metrics file that is not JSON, and an empty one', async () => {
    const bad = runFolder('bad-line', {
      ...goodFiles,
      'metrics.ndjson': `${line(0, 1)}\n${line(0, 2)}\n{"seed": 0,\n`,
    });
    expect(await view(bad, '--out', out)).toBe(2);
    expect(stderr).toMatch(/bad-line[/\\]metrics\.ndjson line 3 is not valid JSON/);
    const empty = runFolder('empty', { ...goodFiles, 'metrics.ndjson': '' });
    expect(await view(empty, '--out', out)).toBe(2);
    expect(stderr).toMatch(/empty[/\\]metrics\.ndjson is empty: the run recorded no iteration/);
  });

  it('refuses a config.json that is not JSON, and a missing summary', async () => {
    const dir = runFolder('bad-config', { ...goodFiles, 'config.json': '{ command: train' });
    expect(await view(dir, '--out', out)).toBe(2);
    expect(stderr).toMatch(/bad-config[/\\]config\.json is not valid JSON/);
    const noSummary = runFolder('no-summary', {
      'config.json': goodFiles['config.json'],
      'metrics.ndjson': line(0, 1),
    });
    expect(await view(noSummary, '--out', out)).toBe(2);
    expect(stderr).toMatch(/no-summary is not an ftw run: it has no summary\.json/);
  });

  it('refuses two runs of the same name, an --out that is not .html, and no run at all', async () => {
    const a = runFolder(join('a', 'same'), goodFiles);
    const b = runFolder(join('b', 'same'), goodFiles);
    expect(await view(a, b, '--out', out)).toBe(2);
    expect(stderr).toMatch(/runs must have distinct folder names .*got "same" twice/);
    expect(await view(a, '--out', join(root, 'page.txt'))).toBe(2);
    expect(stderr).toMatch(
      /error: --out ".*page\.txt" is not an \.html file; name the page, e\.g\. --out ".*page\.html"\n/,
    );
    expect(await view()).toBe(2);
    expect(stderr).toMatch(/missing required argument 'run'/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('ftw view on an --out it cannot write', () => {
  // Checked before any run is read: one line on stderr, exit code 2, and nothing written.
  it.each([
    ['a folder', (dir: string) => join(dir, 'folder.html'), 'is a folder; give the path of a file instead'],
    [
      'a missing folder',
      (dir: string) => join(dir, 'missing', 'x.html'),
      `does not exist; create it (mkdir -p `,
    ],
    ['a path through a file', (dir: string) => join(dir, 'file', 'x.html'), 'is a file, not a folder'],
    [
      'an existing file',
      (dir: string) => join(dir, 'old.html'),
      'already exists; add --force to replace it, or choose another path',
    ],
    ['a place where root cannot create files', () => '/sys/x.html', 'permission denied in "/sys"'],
  ])('refuses %s', async (_, path, message) => {
    const dir = mkdtempSync(join(root, 'out-'));
    mkdirSync(join(dir, 'folder.html'));
    writeFileSync(join(dir, 'file'), '');
    writeFileSync(join(dir, 'old.html'), 'mine');
    const run = runFolder(join(dir, 'runs', 'ok'), goodFiles);
    const before = readdirSync(dir).sort();
    const out = path(dir);
    expect(await view(run, '--out', out)).toBe(2);
    expect(stderr).toMatch(/^error: --out "[^"]+"[^\n]*\n$/);
    expect(stderr).toContain(message);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readdirSync(join(dir, 'folder.html'))).toEqual([]);
  });
});
