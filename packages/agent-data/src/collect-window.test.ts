import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { collectWindow } from './collect-window.js';
import type { LoggedTrajectory } from './open-trajectories.js';

async function* stream(items: LoggedTrajectory[]): AsyncGenerator<LoggedTrajectory> {
  yield* items;
}

const run = (
  id: string,
  line: number,
  order: { sequence?: number; createdAt?: string },
): LoggedTrajectory => ({
  trajectory: { id, task: 't', messages: [{ role: 'user', content: 'x' }], reward: 0, ...order },
  line,
});

describe('collectWindow', () => {
  test.prop([
    fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 60 }),
    fc.integer({ min: 1, max: 30 }),
  ])(
    'keeps the newest N by sequence (ties by line), oldest first, as sorting the whole log would',
    async (sequences, capacity) => {
      const items = sequences.map((sequence, i) => run(`r${i}`, i + 1, { sequence }));
      const window = await collectWindow(stream(items), { capacity });
      const expected = [...items]
        .sort((a, b) => a.trajectory.sequence! - b.trajectory.sequence! || a.line - b.line)
        .slice(-capacity);
      expect(window.items.map((w) => w.trajectory.id)).toEqual(expected.map((w) => w.trajectory.id));
      expect(window.seen).toBe(items.length);
      expect(window.evicted).toBe(Math.max(0, items.length - capacity));
    },
  );

  it('orders by createdAt when there is no sequence, and by line when there is neither', async () => {
    const byTime = [
      run('late', 1, { createdAt: '2026-11-30T12:00:00Z' }),
      run('early', 2, { createdAt: '2026-11-30T11:00:00+00:00' }),
      run('middle', 3, { createdAt: '2026-11-30T12:30:00+01:00' }),
    ];
    expect((await collectWindow(stream(byTime), { capacity: 2 })).items.map((w) => w.trajectory.id)).toEqual([
      'middle',
      'late',
    ]);
    const byLine = [run('x', 1, {}), run('y', 2, {}), run('z', 3, {})];
    expect((await collectWindow(stream(byLine), { capacity: 2 })).items.map((w) => w.trajectory.id)).toEqual([
      'y',
      'z',
    ]);
  });

  it('orders a run with both fields by its sequence', async () => {
    const both = [
      run('second', 1, { sequence: 2, createdAt: '2026-11-30T10:00:00Z' }),
      run('first', 2, { sequence: 1, createdAt: '2026-11-30T12:00:00Z' }),
    ];
    expect((await collectWindow(stream(both), { capacity: 1 })).items.map((w) => w.trajectory.id)).toEqual([
      'second',
    ]);
  });

  it('refuses a log that mixes order fields, naming a line of each', async () => {
    // Without the refusal, sequence 900 (line 2) would count as older than the createdAt of line 1 in
    // milliseconds, and line numbers would compete with both.
    const mixes: [LoggedTrajectory[], RegExp][] = [
      [
        [run('a', 1, { createdAt: '2026-11-30T12:00:00Z' }), run('b', 2, { sequence: 900 })],
        /line 1 by createdAt \(no sequence\), line 2 by sequence/,
      ],
      [
        [run('a', 1, { sequence: 1 }), run('b', 2, { sequence: 2 }), run('c', 3, {})],
        /line 1 by sequence, line 3 by file order \(neither sequence nor createdAt\)/,
      ],
      [
        [run('a', 4, {}), run('b', 7, { createdAt: '2026-11-30T12:00:00Z' })],
        /line 4 by file order .*, line 7 by createdAt/,
      ],
    ];
    for (const [items, message] of mixes) {
      await expect(collectWindow(stream(items), { capacity: 5 })).rejects.toMatchObject({
        code: 'MIXED_ORDER',
        message: expect.stringMatching(message),
      });
    }
  });

  it('fails on an empty log, a duplicate id in the window, and a bad capacity', async () => {
    await expect(collectWindow(stream([]), { capacity: 3 })).rejects.toMatchObject({ code: 'EMPTY_WINDOW' });
    await expect(
      collectWindow(stream([run('a', 1, {}), run('a', 2, {})]), { capacity: 3 }),
    ).rejects.toMatchObject({
      code: 'DUPLICATE_ID',
      message: expect.stringContaining('lines 1 and 2'),
    });
    await expect(collectWindow(stream([]), { capacity: 0 })).rejects.toThrow(
      /capacity must be a positive integer, got 0/,
    );
  });
});
