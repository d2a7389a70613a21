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
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../cli/usage-error.js';
import {
  checkOutputFile,
  checkRunTarget,
  createOutputFolder,
  OutputPathError,
  outputPathError,
  writeOutputFile,
} from './output-path.js';

const roots: string[] = [];
const root = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ftw-output-path-'));
  roots.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const out = (path: string) => ({ label: '--out', path });

/** The message of what `f` throws, checking it is one line of an OutputPathError (exit code 2). */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(OutputPathError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as UsageError).helpHint).toBe(false);
    expect((error as Error).message).not.toMatch(/\n/);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('checkOutputFile', () => {
  it('accepts a new file in an existing folder, leaving nothing there, and returns its absolute path', () => {
    const dir = root();
    expect(checkOutputFile(out(join(dir, 'x.html')), false)).toBe(join(dir, 'x.html'));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a folder, a missing folder and a path through a file, naming the path and what to do', () => {
    const dir = root();
    mkdirSync(join(dir, 'folder.html'));
    writeFileSync(join(dir, 'file'), '');
    expect(refusal(() => checkOutputFile(out(join(dir, 'folder.html')), true))).toBe(
      `--out ${JSON.stringify(join(dir, 'folder.html'))} is a folder; give the path of a file instead`,
    );
    const missing = join(dir, 'no', 'such', 'x.jsonl');
    expect(refusal(() => checkOutputFile(out(missing), false))).toBe(
      `--out ${JSON.stringify(missing)}: folder ${JSON.stringify(join(dir, 'no', 'such'))} does not exist; create it (mkdir -p ${join(dir, 'no', 'such')}) or choose another folder`,
    );
    expect(refusal(() => checkOutputFile(out(join(dir, 'file', 'x.html')), false))).toBe(
      `--out ${JSON.stringify(join(dir, 'file', 'x.html'))}: ${JSON.stringify(join(dir, 'file'))} is a file, not a folder; choose another path`,
    );
    expect(refusal(() => checkOutputFile(out('/dev/null'), true))).toMatch(/is not a regular file/);
    expect(readdirSync(dir).sort()).toEqual(['file', 'folder.html']);
  });

  it('refuses an existing file unless forced', () => {
    const dir = root();
    const file = join(dir, 'x.html');
    writeFileSync(file, 'old');
    expect(refusal(() => checkOutputFile(out(file), false))).toBe(
      `--out ${JSON.stringify(file)} already exists; add --force to replace it, or choose another path`,
    );
    expect(checkOutputFile(out(file), true)).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('old');
  });

  // The tests run as root, whom file modes do not stop: these places refuse root too. sysfs refuses new
  // files (EACCES), procfs has no name for them (ENOENT though the folder exists).
  it('refuses a folder where no file can be created, found by trying', () => {
    expect(refusal(() => checkOutputFile(out('/sys/x.html'), false))).toBe(
      '--out "/sys/x.html": permission denied in "/sys"; choose a folder you can write to',
    );
    expect(refusal(() => checkOutputFile(out('/proc/x.html'), false))).toBe(
      '--out "/proc/x.html": "/proc" does not accept new files; choose another folder',
    );
  });

  it('names a relative path as the user gave it', () => {
    const dir = root();
    writeFileSync(join(dir, 'file'), '');
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect(refusal(() => checkOutputFile(out('file/x.html'), false))).toBe(
        '--out "file/x.html": "file" is a file, not a folder; choose another path',
      );
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('writeOutputFile', () => {
  it('writes text or chunks, replacing a file only when forced, with nothing else left in the folder', async () => {
    const dir = root();
    const file = join(dir, 'x.jsonl');
    await writeOutputFile(out(file), 'one\n', false);
    await expect(writeOutputFile(out(file), 'two\n', false)).rejects.toThrow(/already exists; add --force/);
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    await writeOutputFile(out(file), ['a\n', 'b\n'], true);
    expect(readFileSync(file, 'utf8')).toBe('a\nb\n');
    expect(readdirSync(dir)).toEqual(['x.jsonl']);
  });

  it('leaves nothing behind, and the old file whole, when the content fails halfway', async () => {
    const dir = root();
    const file = join(dir, 'x.html');
    writeFileSync(file, 'old');
    function* failing(): Generator<string> {
      yield 'half a page';
      throw new Error('the page could not be made');
    }
    await expect(writeOutputFile(out(file), failing(), true)).rejects.toThrow('the page could not be made');
    expect(readdirSync(dir)).toEqual(['x.html']);
    expect(readFileSync(file, 'utf8')).toBe('old');
  });

  it('leaves nothing behind when the rename fails (a folder appeared at the path), with one line', async () => {
    const dir = root();
    const file = join(dir, 'x.html');
    mkdirSync(join(file, 'inside'), { recursive: true });
    const error = await writeOutputFile(out(file), 'page', true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputPathError);
    expect((error as Error).message).toBe(
      `--out ${JSON.stringify(file)} is a folder; give the path of a file instead`,
    );
    expect(readdirSync(dir)).toEqual(['x.html']);
  });

  it('refuses a read-only place without leaving a file', async () => {
    await expect(writeOutputFile(out('/sys/x.html'), 'page', false)).rejects.toThrow(
      new OutputPathError(
        '--out "/sys/x.html": permission denied in "/sys"; choose a folder you can write to',
      ),
    );
    expect(existsSync('/sys/x.html')).toBe(false);
  });
});

describe('createOutputFolder', () => {
  it('creates the folder and its missing parents', () => {
    const dir = root();
    expect(createOutputFolder(out(join(dir, 'a', 'b')))).toBe(join(dir, 'a', 'b'));
    expect(readdirSync(join(dir, 'a'))).toEqual(['b']);
    expect(createOutputFolder(out(join(dir, 'a', 'b')))).toBe(join(dir, 'a', 'b'));
  });

  it('refuses read-only places at once (Node’s recursive mkdir never returns under /proc)', () => {
    expect(refusal(() => createOutputFolder(out('/proc/runs/x')))).toBe(
      '--out "/proc/runs/x": "/proc" does not accept new files; choose another folder',
    );
    expect(refusal(() => createOutputFolder(out('/sys/runs')))).toBe(
      '--out "/sys/runs": permission denied in "/sys"; choose a folder you can write to',
    );
  });
});

describe('checkRunTarget', () => {
  it('accepts nothing there or an earlier run, and refuses anything else unless forced', () => {
    const dir = root();
    checkRunTarget(out(join(dir, 'new')), false);
    mkdirSync(join(dir, 'run'));
    writeFileSync(join(dir, 'run', 'config.json'), '{}');
    checkRunTarget(out(join(dir, 'run')), false);
    mkdirSync(join(dir, 'empty'));
    expect(refusal(() => checkRunTarget(out(join(dir, 'empty')), false))).toMatch(
      /empty" already exists and is not an ftw run \(a folder without config\.json\); add --force/,
    );
    checkRunTarget(out(join(dir, 'empty')), true);
  });
});

describe('outputPathError', () => {
  it('passes an error that is not about the path through unchanged', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    expect(outputPathError(full, out('x'))).toBe(full);
    const bug = new TypeError('x is undefined');
    expect(outputPathError(bug, out('x'))).toBe(bug);
  });

  it('says a read-only file system is one', () => {
    const error = Object.assign(new Error('EROFS'), { code: 'EROFS' });
    expect((outputPathError(error, out('/mnt/ro/x.html')) as Error).message).toBe(
      '--out "/mnt/ro/x.html": "/mnt/ro" is on a read-only file system; choose a writable folder',
    );
  });
});
