import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedLevelSplit } from './cached-level-split.js';
import { levelSplit } from './level-split.js';

const OPTIONS = { width: 5, height: 5, boxes: 1, seed: 3, training: 40, heldOut: 10 };

/** The text with its checksum line recomputed, as a careless editor's tool might leave it. */
function resealed(text: string): string {
  const body = text.slice(0, text.lastIndexOf('sha256 '));
  return `${body}sha256 ${createHash('sha256').update(body).digest('hex')}\n`;
}

describe('cachedLevelSplit', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ftw-level-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the split once, then reads back the same split', () => {
    const cacheDir = join(dir, 'nested', 'levels');
    const first = cachedLevelSplit(OPTIONS, cacheDir);
    expect(first.cache.status).toBe('written');
    expect(first.cache.path).toBe(join(cacheDir, 'sokoban-5x5x1-moves-1-any-seed-3-held-10-train-40.levels'));
    const second = cachedLevelSplit(OPTIONS, cacheDir);
    expect(second.cache).toEqual({ path: first.cache.path, status: 'read' });
    expect(second.split).toEqual(levelSplit(OPTIONS));
    expect(readdirSync(cacheDir)).toEqual(['sokoban-5x5x1-moves-1-any-seed-3-held-10-train-40.levels']);
  });

  it('keys the file by setting, seed and sizes', () => {
    const a = cachedLevelSplit(OPTIONS, dir).cache.path;
    const b = cachedLevelSplit({ ...OPTIONS, seed: 4 }, dir).cache.path;
    const c = cachedLevelSplit({ ...OPTIONS, maxMoves: 12, training: 41 }, dir).cache.path;
    expect(new Set([a, b, c]).size).toBe(3);
    expect(c).toMatch(/sokoban-5x5x1-moves-1-12-seed-3-held-10-train-41\.levels$/);
  });

  const corruptions: [string, (text: string) => string, RegExp][] = [
    ['truncated', (t) => t.slice(0, Math.floor(t.length / 2)), /checksum/],
    ['cut after a level line', (t) => t.split('\n').slice(0, 8).join('\n'), /no checksum line/],
    [
      'edited, checksum stale',
      (t) => t.replace(/ (\d+) (\d+) ([udlrUDLR]+) /, ' $1 $2 $3l '),
      /checksum mismatch/,
    ],
    [
      'edited, checksum recomputed',
      (t) => resealed(t.replace(/^(h \d+ )(\d+)/m, (_, a, m) => `${a}${Number(m) + 1}`)),
      /does not replay/,
    ],
    [
      'a level repeated',
      (t) => {
        const lines = t.split('\n');
        lines[3] = lines[2]!.replace(/^h \d+/, 'h 1');
        return resealed(lines.join('\n'));
      },
      /repeats an earlier one/,
    ],
    ['another seed', (t) => resealed(t.replace('"seed":3', '"seed":4')), /written for/],
    ['not a level file', () => 'hello\n', /no checksum line/],
    ['empty', () => '', /no checksum line/],
  ];
  for (const [what, corrupt, reason] of corruptions) {
    it(`regenerates a cache file that is ${what}, and says why`, () => {
      const { path } = cachedLevelSplit(OPTIONS, dir).cache;
      const good = readFileSync(path, 'utf8');
      writeFileSync(path, corrupt(good));
      const again = cachedLevelSplit(OPTIONS, dir);
      expect(again.cache.status).toBe('rewritten');
      expect(again.cache.reason).toMatch(reason);
      expect(again.split).toEqual(levelSplit(OPTIONS));
      expect(readFileSync(path, 'utf8')).toBe(good);
    });
  }

  it('refuses a bad directory or bad options before touching the disk', () => {
    expect(() => cachedLevelSplit(OPTIONS, '')).toThrow(/cacheDir must be a non-empty string, got ""/);
    expect(() => cachedLevelSplit({ ...OPTIONS, boxes: 11 }, dir)).toThrow(
      /setting.boxes must be an integer in \[1, 10\], got 11/,
    );
    expect(() => cachedLevelSplit({ ...OPTIONS, training: -1 }, dir)).toThrow(/options.training/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
