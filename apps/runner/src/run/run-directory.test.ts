import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../cli/usage-error.js';
import { OutputPathError } from './output-path.js';
import { RunDirectory } from './run-directory.js';

const roots: string[] = [];
const root = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ftw-runs-'));
  roots.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('RunDirectory', () => {
  it('writes into a hidden folder and renames it into place on commit', () => {
    const dir = root();
    const run = RunDirectory.open(dir, 'demo');
    run.write('summary.json', '{}\n');
    run.write('charts/a.svg', '<svg/>');
    expect(existsSync(join(dir, 'demo'))).toBe(false);
    expect(readdirSync(dir).every((name) => name.startsWith('.demo.partial-'))).toBe(true);
    expect(run.commit()).toBe(join(dir, 'demo'));
    expect(readFileSync(join(dir, 'demo', 'summary.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(dir, 'demo', 'charts', 'a.svg'), 'utf8')).toBe('<svg/>');
    expect(readdirSync(dir)).toEqual(['demo']);
  });

  it('replaces an earlier run of the same name whole', () => {
    const dir = root();
    const first = RunDirectory.open(dir, 'r');
    first.write('config.json', '{}');
    first.write('old.txt', 'old');
    first.commit();
    const second = RunDirectory.open(dir, 'r');
    second.write('new.txt', 'new');
    second.commit();
    expect(readdirSync(join(dir, 'r'))).toEqual(['new.txt']);
    expect(readdirSync(dir)).toEqual(['r']);
  });

  it('refuses a file or a folder that is not a run at <root>/<name>, before writing, unless forced', () => {
    const dir = root();
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'notes.txt'), 'keep me');
    writeFileSync(join(dir, 'file'), 'keep me too');
    expect(() => RunDirectory.open(dir, 'mine')).toThrow(
      new OutputPathError(
        `--out/--name ${JSON.stringify(join(dir, 'mine'))} already exists and is not an ftw run (a folder without config.json); add --force to replace it, or choose another --name or --out`,
      ),
    );
    expect(() => RunDirectory.open(dir, 'file')).toThrow(/already exists and is not an ftw run \(a file\)/);
    expect(readdirSync(dir).sort()).toEqual(['file', 'mine']);
    expect(readFileSync(join(dir, 'mine', 'notes.txt'), 'utf8')).toBe('keep me');
    for (const name of ['mine', 'file']) {
      const run = RunDirectory.open(dir, name, true);
      run.write('summary.json', '{}');
      run.commit();
      expect(readdirSync(join(dir, name))).toEqual(['summary.json']);
    }
    expect(readdirSync(dir).sort()).toEqual(['file', 'mine']);
  });

  it('creates a missing root with its parents, and refuses a root that is a file or under one', () => {
    const dir = root();
    const run = RunDirectory.open(join(dir, 'a', 'b', 'runs'), 'r');
    expect(run.commit()).toBe(join(dir, 'a', 'b', 'runs', 'r'));
    writeFileSync(join(dir, 'plain'), '');
    expect(() => RunDirectory.open(join(dir, 'plain'), 'r')).toThrow(
      /^--out ".*plain" is a file, not a folder; give the folder that holds runs$/,
    );
    expect(() => RunDirectory.open(join(dir, 'plain', 'runs'), 'r')).toThrow(
      /^--out ".*plain\/runs": ".*plain" is a file, not a folder; choose another path$/,
    );
    expect(readdirSync(dir).sort()).toEqual(['a', 'plain']);
  });

  it('leaves nothing behind when discarded, and keeps an earlier run', () => {
    const dir = root();
    const first = RunDirectory.open(dir, 'r');
    first.write('config.json', '{}');
    first.commit();
    const failed = RunDirectory.open(dir, 'r');
    failed.write('b.txt', 'b');
    failed.discard();
    expect(readdirSync(dir)).toEqual(['r']);
    expect(readdirSync(join(dir, 'r'))).toEqual(['config.json']);
    failed.discard();
  });

  it('refuses to write after commit or discard, or outside the run', () => {
    const dir = root();
    const run = RunDirectory.open(dir, 'x');
    expect(() => run.write('../escape.txt', 'no')).toThrow(/file must stay inside the run/);
    run.commit();
    expect(() => run.write('late.txt', 'late')).toThrow(/run x is committed; cannot write late.txt/);
    expect(() => run.commit()).toThrow(/already committed/);
  });

  it('writes a file in the background, refusing it as write does after commit or outside the run', async () => {
    const dir = root();
    const run = RunDirectory.open(dir, 'bg');
    const pending = run.writeInBackground('data/metrics.ndjson', '{"seed":0}\n');
    expect(() => run.writeInBackground('../escape.txt', 'no')).toThrow(/file must stay inside the run/);
    await pending;
    run.commit();
    expect(readFileSync(join(dir, 'bg', 'data', 'metrics.ndjson'), 'utf8')).toBe('{"seed":0}\n');
    expect(() => run.writeInBackground('late.txt', 'late')).toThrow(
      /run bg is committed; cannot write late.txt/,
    );
  });

  it('rejects run names that are paths or hidden, naming --name', () => {
    const dir = root();
    for (const name of ['', '../up', 'a/b', '.hidden', 'x'.repeat(129)]) {
      expect(() => RunDirectory.open(dir, name)).toThrow(UsageError);
    }
    expect(() => RunDirectory.open(dir, 'a/b')).toThrow(/--name must be 1-128 letters, digits.*got "a\/b"/);
  });

  it('writes the chunks into one file, in order, and makes each once', async () => {
    const run = RunDirectory.open(root(), 'chunks');
    const made: string[] = [];
    function* chunks(): Generator<string> {
      for (const text of ['a\n', 'é😀\n', '', 'last']) {
        made.push(text);
        yield text;
      }
    }
    await run.writeChunksInBackground('metrics.ndjson', chunks());
    expect(made).toHaveLength(4);
    const path = run.commit();
    expect(readFileSync(join(path, 'metrics.ndjson'), 'utf8')).toBe('a\né😀\nlast');
  });

  it('rejects with the error of a failing chunk iterator, and leaves the file closed', async () => {
    const run = RunDirectory.open(root(), 'failing');
    function* chunks(): Generator<string> {
      yield 'first\n';
      throw new TypeError('a cycle');
    }
    await expect(run.writeChunksInBackground('metrics.ndjson', chunks())).rejects.toThrow('a cycle');
    // Closed: the folder can be removed and nothing is left open on it.
    run.discard();
    expect(existsSync(run.partialPath)).toBe(false);
  });

  it('has one write in flight at a time: the next chunk is asked for only once the one before is written', async () => {
    // The file is a named pipe that nobody reads yet, so the first write blocks once the pipe (64 KiB) is
    // full; meanwhile the writer may make one more chunk, and no more.
    const run = RunDirectory.open(root(), 'pipe');
    const fifo = join(run.partialPath, 'metrics.ndjson');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const texts = Array.from({ length: 8 }, (_, i) => String(i).repeat(256 * 1024));
      let made = 0;
      function* chunks(): Generator<string> {
        for (const text of texts) {
          made++;
          yield text;
        }
      }
      const written = run.writeChunksInBackground('metrics.ndjson', chunks());
      for (let i = 0; i < 500 && made < 2; i++) await sleep(10);
      await sleep(100);
      expect(made).toBe(2);
      const received: Buffer[] = [];
      const buffer = Buffer.alloc(1 << 16);
      let done = false;
      void written.finally(() => {
        done = true;
      });
      for (;;) {
        let n = 0;
        try {
          n = readSync(reader, buffer);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        }
        if (n > 0) received.push(Buffer.from(buffer.subarray(0, n)));
        else if (done) break;
        else await sleep(1);
      }
      await written;
      expect(Buffer.concat(received).toString('utf8')).toBe(texts.join(''));
    } finally {
      closeSync(reader);
    }
  });

  it.runIf(existsSync('/dev/full'))(
    'rejects when a write fails (a full disk), the last chunk included',
    async () => {
      const run = RunDirectory.open(root(), 'full');
      // The file is a link to /dev/full, where every write fails with ENOSPC.
      symlinkSync('/dev/full', join(run.partialPath, 'metrics.ndjson'));
      await expect(run.writeChunksInBackground('metrics.ndjson', ['only chunk\n'])).rejects.toThrow('ENOSPC');
      await expect(run.writeChunksInBackground('metrics.ndjson', ['a\n', 'b\n'])).rejects.toThrow('ENOSPC');
      run.discard();
    },
  );

  it('refuses chunks for a run already committed, at once', () => {
    const run = RunDirectory.open(root(), 'done');
    run.commit();
    expect(() => run.writeChunksInBackground('metrics.ndjson', ['x'])).toThrow(
      'run done is committed; cannot write metrics.ndjson',
    );
  });
});
