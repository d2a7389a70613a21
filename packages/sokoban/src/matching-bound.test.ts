import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { exhaustiveMinPushes } from '../test/model.js';
import { nicheLevelArb } from '../test/niche-levels.js';
import { smallLevelArb } from '../test/random-levels.js';
import { boardFromLevel, UNREACHABLE } from './board.js';
import { MatchingBound } from './matching-bound.js';
import { parseLevel } from './parse-level.js';

describe('MatchingBound', () => {
  test.prop([smallLevelArb(3)], { numRuns: 150 })(
    'never exceeds the fewest pushes of any solution (admissible), and is finite on solvable levels',
    (text) => {
      const board = boardFromLevel(parseLevel(text), 'level');
      const bound = new MatchingBound(board, board.boxes.length).of(board.boxes, 0);
      const fewest = exhaustiveMinPushes(text);
      if (fewest === null) return;
      expect(bound).not.toBe(UNREACHABLE);
      expect(bound).toBeLessThanOrEqual(fewest);
    },
  );

  test.prop([nicheLevelArb(7, 10)], { numRuns: 40 })(
    'beyond six boxes, is the sum of push distances to the nearest target: the fewest pushes on niche levels',
    ({ text, pushes }) => {
      const board = boardFromLevel(parseLevel(text), 'level');
      expect(board.boxes.length).toBeGreaterThan(6);
      const bound = new MatchingBound(board, board.boxes.length).of(board.boxes, 0);
      // Each box needs exactly its niche's depth in pushes (the test's construction), so the bound is tight.
      expect(bound).toBe(pushes);
    },
  );

  test.prop([nicheLevelArb(7, 8).filter(({ pushes }) => pushes <= 9)], { numRuns: 10 })(
    'beyond six boxes, never exceeds the fewest pushes found by exhaustive search',
    ({ text }) => {
      const board = boardFromLevel(parseLevel(text), 'level');
      const bound = new MatchingBound(board, board.boxes.length).of(board.boxes, 0);
      expect(bound).toBeLessThanOrEqual(exhaustiveMinPushes(text)!);
    },
  );

  test.prop([smallLevelArb(3), fc.nat(), fc.nat(3)], { numRuns: 200 })(
    'drops by at most one when one box is pushed one cell (consistent)',
    (text, pick, direction) => {
      const board = boardFromLevel(parseLevel(text), 'level');
      const k = board.boxes.length;
      const bound = new MatchingBound(board, k);
      const before = bound.of(board.boxes, 0);
      const moved = Array.from(board.boxes);
      const j = pick % k;
      const o = board.offsets[direction]!;
      const to = moved[j]! + o;
      const from = moved[j]! - o;
      if (board.wall[to] === 1 || moved.includes(to) || board.wall[from] === 1 || moved.includes(from))
        return;
      moved[j] = to;
      const after = bound.of(moved, 0);
      if (before === UNREACHABLE) return;
      expect(before - after).toBeLessThanOrEqual(1);
    },
  );
});
