import { fc } from '@fast-check/vitest';

/**
 * A level of many boxes whose search space stays small enough for exhaustive search: a corridor under a
 * row of one-cell-wide niches, niche j holding its target at the top and (unless it is already home) a
 * box `depths[j]` cells below it, at the corridor's edge. A box can only be pushed up its own niche, so
 * it needs exactly `depths[j]` pushes, and the player must walk back down after each.
 *
 * @param depths - per niche, the pushes its box needs (≥ 1)
 * @param home - per niche, whether its box already stands on its target
 * @param player - the player's column in the corridor (1 … 2 · niches − 1)
 * @returns the level as XSB text
 */
export function nicheLevel(depths: readonly number[], home: readonly boolean[], player: number): string {
  const width = 2 * depths.length + 1;
  const corridor = Math.max(...depths) + 2;
  const rows = Array.from({ length: corridor + 2 }, () => Array.from({ length: width }, () => '#'));
  for (let x = 1; x < width - 1; x++) rows[corridor]![x] = ' ';
  depths.forEach((depth, j) => {
    const x = 2 * j + 1;
    for (let y = corridor - depth; y < corridor; y++) rows[y]![x] = ' ';
    rows[corridor - depth - 1]![x] = home[j] ? '*' : '.';
    if (!home[j]) rows[corridor - 1]![x] = '$';
  });
  rows[corridor]![player] = '@';
  return rows.map((row) => row.join('')).join('\n');
}

/** Niche levels with `min` to `max` boxes, depths 1 or 2, about one box in five already home. */
export function nicheLevelArb(min: number, max: number): fc.Arbitrary<{ text: string; pushes: number }> {
  return fc
    .integer({ min, max })
    .chain((n) =>
      fc.record({
        depths: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: n, maxLength: n }),
        home: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
        player: fc.integer({ min: 1, max: 2 * n - 1 }),
      }),
    )
    .map(({ depths, home, player }) => {
      const isHome = home.map((h) => h === 0);
      const pushes = depths.reduce((sum, d, j) => sum + (isHome[j] ? 0 : d), 0);
      return { text: nicheLevel(depths, isHome, player), pushes };
    });
}
