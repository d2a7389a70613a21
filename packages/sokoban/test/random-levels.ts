import { fc } from '@fast-check/vitest';

/** Mulberry32: a tiny seeded generator for building test levels from one fast-check integer. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random small level as XSB text: a wall border around a `width × height` interior with random inner
 * walls, `boxes` boxes and as many targets on random cells (a box may start on a target, the player may
 * stand on one). Such levels are often unsolvable, which is the point.
 */
export function randomLevelText(
  seed: number,
  width: number,
  height: number,
  boxes: number,
  wallProbability: number,
): string {
  const random = mulberry32(seed);
  const w = width + 2;
  const h = height + 2;
  const wall: boolean[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const border = x === 0 || y === 0 || x === w - 1 || y === h - 1;
      wall.push(border || random() < wallProbability);
    }
  }
  const open = (): number[] => wall.flatMap((isWall, i) => (isWall ? [] : [i]));
  while (open().length < boxes + 1) {
    const inner = wall.flatMap((isWall, i) => {
      const x = i % w;
      const y = Math.floor(i / w);
      return isWall && x > 0 && y > 0 && x < w - 1 && y < h - 1 ? [i] : [];
    });
    wall[inner[Math.floor(random() * inner.length)]!] = false;
  }
  const take = (cells: number[]): number => cells.splice(Math.floor(random() * cells.length), 1)[0]!;
  const free = open();
  const player = take(free);
  const boxCells = new Set<number>();
  for (let j = 0; j < boxes; j++) boxCells.add(take(free));
  const candidates = open();
  const targets = new Set<number>();
  for (let j = 0; j < boxes; j++) targets.add(take(candidates));
  let text = '';
  for (let i = 0; i < w * h; i++) {
    if (i > 0 && i % w === 0) text += '\n';
    const t = targets.has(i);
    if (wall[i]) text += '#';
    else if (i === player) text += t ? '+' : '@';
    else if (boxCells.has(i)) text += t ? '*' : '$';
    else text += t ? '.' : ' ';
  }
  return text;
}

/** Small random levels: interior up to 5 × 4, up to `maxBoxes` boxes. */
export function smallLevelArb(maxBoxes: number): fc.Arbitrary<string> {
  return fc
    .record({
      seed: fc.integer(),
      width: fc.integer({ min: 2, max: 5 }),
      height: fc.integer({ min: 2, max: 4 }),
      boxes: fc.integer({ min: 1, max: maxBoxes }),
      walls: fc.constantFrom(0, 0.1, 0.2, 0.3),
    })
    .map(({ seed, width, height, boxes, walls }) => randomLevelText(seed, width, height, boxes, walls));
}
