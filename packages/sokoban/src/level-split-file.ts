import { createHash } from 'node:crypto';
import { checkSolution } from './check-solution.js';
import { levelKey } from './level-key.js';
import type { LevelSplit } from './level-split.js';
import type { ResolvedLevelSetting, StreamLevel } from './level-stream.js';

/** First line of a level-split file; a new layout gets a new version. */
const MAGIC = 'ftw-sokoban-level-split 1';

/** What a level-split file must hold: the setting, seed and sizes it was written for. */
export interface LevelSplitHeader {
  readonly setting: ResolvedLevelSetting;
  readonly seed: number;
  readonly heldOut: number;
  readonly training: number;
}

/**
 * Writes a split as text: the magic line, the header as JSON, one line per level
 * (`h|t <index> <moves> <pushes> <path> <width> <height> <tile codes>`), then `sha256 <hex>` of all that
 * precedes it. Internal: the format of {@link cachedLevelSplit}'s files (docs/level-sets.md).
 *
 * @param split - the split
 * @returns the file's text
 */
export function formatLevelSplit(split: LevelSplit): string {
  const header: LevelSplitHeader = {
    setting: split.setting,
    seed: split.seed,
    heldOut: split.heldOut.length,
    training: split.training.length,
  };
  const lines = [MAGIC, JSON.stringify({ ...header, drawn: split.drawn })];
  const line = (tag: string, l: StreamLevel): string =>
    `${tag} ${l.index} ${l.moves} ${l.pushes} ${l.path} ${l.level.width} ${l.level.height} ${l.level.grid.join('')}`;
  for (const l of split.heldOut) lines.push(line('h', l));
  for (const l of split.training) lines.push(line('t', l));
  const body = `${lines.join('\n')}\n`;
  return `${body}sha256 ${sha256(body)}\n`;
}

/**
 * Reads a file of {@link formatLevelSplit} back and checks everything it can without solving again: the
 * checksum (a truncated or edited file fails it), the header against `expected`, every level well formed,
 * its solution replayed to solved with the recorded moves and pushes, every key distinct (so the held-out
 * and training sets stay disjoint). Internal.
 *
 * @param text - the file's text
 * @param expected - the setting, seed and sizes the caller asked for
 * @returns the split
 * @throws Error naming the first check that fails (the caller regenerates)
 */
export function parseLevelSplit(text: string, expected: LevelSplitHeader): LevelSplit {
  const end = text.lastIndexOf('sha256 ');
  if (end < 0) throw new Error('no checksum line (truncated?)');
  const body = text.slice(0, end);
  if (text.slice(end) !== `sha256 ${sha256(body)}\n`)
    throw new Error('checksum mismatch (edited or truncated)');
  const lines = body.split('\n');
  lines.pop();
  if (lines[0] !== MAGIC) throw new Error(`first line is not ${JSON.stringify(MAGIC)}`);
  const { drawn, ...header } = JSON.parse(lines[1]!) as LevelSplitHeader & { drawn: number };
  if (JSON.stringify(header) !== JSON.stringify(expected)) {
    throw new Error(`written for ${JSON.stringify(header)}, not ${JSON.stringify(expected)}`);
  }
  if (lines.length !== 2 + expected.heldOut + expected.training) {
    throw new Error(`${lines.length - 2} levels, expected ${expected.heldOut + expected.training}`);
  }
  const keys = new Set<string>();
  const heldOut: StreamLevel[] = [];
  const training: StreamLevel[] = [];
  for (let i = 2; i < lines.length; i++) {
    const [tag, index, moves, pushes, path, width, height, tiles] = lines[i]!.split(' ');
    const level = {
      width: Number(width),
      height: Number(height),
      grid: Uint8Array.from(tiles ?? '', (c) => c.charCodeAt(0) - 48),
    };
    // The key validates the level (a malformed grid throws) before its solution is replayed on it.
    const key = levelKey(level);
    const check = checkSolution(level, path ?? '');
    if (
      !check.valid ||
      check.path !== path ||
      check.pushes !== Number(pushes) ||
      check.moves !== Number(moves)
    ) {
      throw new Error(`the solution on line ${i + 1} does not replay to ${moves} moves and ${pushes} pushes`);
    }
    if (keys.has(key)) throw new Error(`the level on line ${i + 1} repeats an earlier one`);
    keys.add(key);
    const entry = {
      index: Number(index),
      level,
      moves: check.moves,
      pushes: check.pushes,
      path: check.path,
      key,
    };
    if ((tag === 'h') !== i - 2 < expected.heldOut) throw new Error(`line ${i + 1} is in the wrong set`);
    (tag === 'h' ? heldOut : training).push(entry);
  }
  return { setting: expected.setting, seed: expected.seed, heldOut, training, drawn };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
