import type { Board } from './board.js';

/** The positions found by {@link reverseSearch}, in breadth-first order. Internal. */
export interface ReverseStates {
  /** Boxes per position (k cells each, ascending), position-major. */
  readonly boxes: Uint16Array;
  /** The smallest cell of the player's region, per position. */
  readonly region: Uint16Array;
  /** 1 for the first position found of each (boxes, region) state; 0 for later positions of a known state. */
  readonly first: Uint8Array;
  /** `layerStart[p]` is the first position found after p pulls; one extra entry closes the last layer. */
  readonly layerStart: readonly number[];
}

/**
 * Breadth-first search backwards from the solved position: the player walks freely and pulls boxes (a
 * player at b + o stepping to b + 2o drags the box at b to b + o), the exact reverse of pushing. A state
 * is the set of box cells with the player's region (named by its smallest cell), so positions that
 * differ only by a walk are one state: each position found (boxes, cell where the last pull left the
 * player) is flooded once to name its region, and only the first position of each state is expanded.
 * Positions are found in layers of equal pull count p, and the first position of a state lies in the
 * layer of its fewest pulls from the start. Every position found can be solved by undoing its pulls.
 * The search stops finding positions once it holds `maxPositions` or has reached `maxDepth` pulls (it
 * still names the regions of those found). Internal.
 *
 * @param board - the level's static analysis
 * @param startBoxes - box cells on their targets, ascending
 * @param startPlayer - player cell
 * @param maxPositions - cap on positions found
 * @param maxDepth - deepest layer
 * @returns the positions by layer
 */
export function reverseSearch(
  board: Board,
  startBoxes: Uint16Array,
  startPlayer: number,
  maxPositions: number,
  maxDepth: number,
): ReverseStates {
  const { size, wall, offsets } = board;
  const k = startBoxes.length;
  const numericKeys = size ** (k + 1) <= Number.MAX_SAFE_INTEGER;
  let capacity = Math.min(maxPositions, 256);
  let boxes = new Uint16Array(capacity * k);
  let cells = new Uint16Array(capacity);
  let region = new Uint16Array(capacity);
  let first = new Uint8Array(capacity);
  const layerStart = [0];
  const found = new Set<number | string>();
  const states = new Set<number | string>();
  const boxAt = new Uint8Array(size);
  const marks = new Int32Array(size);
  const queue = new Int32Array(size);
  const child = new Uint16Array(k);
  const keyCodes: number[] = new Array<number>(k + 1);
  let stamp = 0;

  const keyOf = (list: Uint16Array, at: number, cell: number): number | string => {
    if (numericKeys) {
      let key = 0;
      for (let j = 0; j < k; j++) key = key * size + list[at + j]!;
      return key * size + cell;
    }
    for (let j = 0; j < k; j++) keyCodes[j] = list[at + j]!;
    keyCodes[k] = cell;
    return String.fromCharCode.apply(null, keyCodes);
  };
  const grow = (): void => {
    capacity = Math.min(2 * capacity, maxPositions);
    const b = new Uint16Array(capacity * k);
    b.set(boxes);
    boxes = b;
    const c = new Uint16Array(capacity);
    c.set(cells);
    cells = c;
    const r = new Uint16Array(capacity);
    r.set(region);
    region = r;
    const f = new Uint8Array(capacity);
    f.set(first);
    first = f;
  };

  boxes.set(startBoxes, 0);
  cells[0] = startPlayer;
  found.add(keyOf(boxes, 0, startPlayer));
  let count = 1;
  let depth = 0;
  let layerEnd = 1;
  for (let s = 0; s < count; s++) {
    if (s === layerEnd) {
      layerStart.push(layerEnd);
      layerEnd = count;
      depth++;
    }
    const base = s * k;
    for (let j = 0; j < k; j++) boxAt[boxes[base + j]!] = 1;
    // Flood the player's region and name it by its smallest cell.
    stamp++;
    const from = cells[s]!;
    marks[from] = stamp;
    queue[0] = from;
    let smallest = from;
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      const c = queue[head]!;
      for (let d = 0; d < 4; d++) {
        const n = c + offsets[d]!;
        if (wall[n] === 0 && boxAt[n] === 0 && marks[n] !== stamp) {
          marks[n] = stamp;
          queue[tail++] = n;
          if (n < smallest) smallest = n;
        }
      }
    }
    region[s] = smallest;
    const state = keyOf(boxes, base, smallest);
    if (!states.has(state)) {
      states.add(state);
      first[s] = 1;
      for (let j = 0; j < k && count < maxPositions && depth < maxDepth; j++) {
        const b = boxes[base + j]!;
        for (let d = 0; d < 4; d++) {
          const o = offsets[d]!;
          const stand = b + o;
          const step = stand + o;
          if (marks[stand] !== stamp || wall[step] === 1 || boxAt[step] === 1) continue;
          let m = 0;
          for (let i = 0; i < k; i++) if (i !== j) child[m++] = boxes[base + i]!;
          let pos = k - 1;
          while (pos > 0 && child[pos - 1]! > stand) {
            child[pos] = child[pos - 1]!;
            pos--;
          }
          child[pos] = stand;
          const key = keyOf(child, 0, step);
          if (found.has(key)) continue;
          found.add(key);
          if (count === capacity) grow();
          boxes.set(child, count * k);
          cells[count] = step;
          count++;
          if (count === maxPositions) break;
        }
      }
    }
    for (let j = 0; j < k; j++) boxAt[boxes[base + j]!] = 0;
  }
  layerStart.push(count);
  return {
    boxes: boxes.subarray(0, count * k),
    region: region.subarray(0, count),
    first: first.subarray(0, count),
    layerStart,
  };
}
