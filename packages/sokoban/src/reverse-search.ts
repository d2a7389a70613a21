import type { Board } from './board.js';
import { stateKey } from './state-key.js';

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
 * differ only by a walk are one state: the regions of each box placement are labelled once (a flood of
 * the free cells), each position found (boxes, cell where the last pull left the player) reads its
 * region's name there, and only the first position of each state is expanded.
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
 * @returns the positions by layer, in buffers that the next call overwrites
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
  const ws = WORKSPACE;
  ws.prepare(size, k);
  let capacity = ws.capacity;
  let boxes = ws.boxes;
  let cells = ws.cells;
  let region = ws.region;
  let first = ws.first;
  const layerStart = [0];
  const found = ws.found;
  const states = ws.states;
  const { boxAt, marks, queue, child, placements } = ws;
  let labels: Int32Array = ws.labels;
  const areaCells: number[] = [];
  for (let c = 0; c < size; c++) if (board.area[c] === 1 && wall[c] === 0) areaCells.push(c);
  const keyCodes: number[] = new Array<number>(k + 1);
  let stamp = ws.stamp;

  boxes.set(startBoxes, 0);
  cells[0] = startPlayer;
  found.add(stateKey(boxes, 0, k, size, startPlayer, numericKeys, keyCodes));
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
    // The regions of this box placement, labelled once per placement: every free cell of the area gets
    // the smallest cell of its region (cells are visited in ascending order, so a region's first cell is
    // its smallest).
    const placement = stateKey(boxes, base, k, size, 0, numericKeys, keyCodes);
    let at = placements.get(placement);
    if (at === undefined) {
      at = placements.size * size;
      placements.set(placement, at);
      if (at + size > labels.length) labels = ws.growLabels(at + size);
      stamp++;
      for (let i = 0; i < areaCells.length; i++) {
        const start = areaCells[i]!;
        if (boxAt[start] === 1 || marks[start] === stamp) continue;
        marks[start] = stamp;
        labels[at + start] = start;
        queue[0] = start;
        let tail = 1;
        for (let head = 0; head < tail; head++) {
          const c = queue[head]!;
          for (let d = 0; d < 4; d++) {
            const n = c + offsets[d]!;
            if (wall[n] === 0 && boxAt[n] === 0 && marks[n] !== stamp) {
              marks[n] = stamp;
              labels[at + n] = start;
              queue[tail++] = n;
            }
          }
        }
      }
    }
    const smallest = labels[at + cells[s]!]!;
    region[s] = smallest;
    first[s] = 0;
    const state = stateKey(boxes, base, k, size, smallest, numericKeys, keyCodes);
    if (!states.has(state)) {
      states.add(state);
      first[s] = 1;
      for (let j = 0; j < k && count < maxPositions && depth < maxDepth; j++) {
        const b = boxes[base + j]!;
        for (let d = 0; d < 4; d++) {
          const o = offsets[d]!;
          const stand = b + o;
          const step = stand + o;
          if (boxAt[stand] === 1 || wall[stand] === 1 || labels[at + stand] !== smallest) continue;
          if (wall[step] === 1 || boxAt[step] === 1) continue;
          let m = 0;
          for (let i = 0; i < k; i++) if (i !== j) child[m++] = boxes[base + i]!;
          let pos = k - 1;
          while (pos > 0 && child[pos - 1]! > stand) {
            child[pos] = child[pos - 1]!;
            pos--;
          }
          child[pos] = stand;
          const key = stateKey(child, 0, k, size, step, numericKeys, keyCodes);
          if (found.has(key)) continue;
          found.add(key);
          if (count === capacity) {
            ws.grow(k);
            capacity = ws.capacity;
            boxes = ws.boxes;
            cells = ws.cells;
            region = ws.region;
            first = ws.first;
          }
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
  ws.stamp = stamp;
  found.clear();
  states.clear();
  placements.clear();
  return {
    boxes: boxes.subarray(0, count * k),
    region: region.subarray(0, count),
    first: first.subarray(0, count),
    layerStart,
  };
}

/** The search's buffers, kept between calls (small typed arrays cost more to allocate than to fill). */
class Workspace {
  capacity = 0;
  boxes = new Uint16Array(0);
  cells = new Uint16Array(0);
  region = new Uint16Array(0);
  first = new Uint8Array(0);
  boxAt = new Uint8Array(0);
  marks = new Int32Array(0);
  queue = new Int32Array(0);
  child = new Uint16Array(0);
  found = new Set<number | string>();
  /** Offset in `labels` of each box placement's region labels. */
  placements = new Map<number | string, number>();
  labels: Int32Array = new Int32Array(0);
  states = new Set<number | string>();
  stamp = 0;
  private k = -1;

  prepare(size: number, k: number): void {
    if (this.boxAt.length < size) {
      this.boxAt = new Uint8Array(size);
      this.marks = new Int32Array(size);
      this.queue = new Int32Array(size);
      this.stamp = 0;
    }
    if (this.stamp > 0x3fff_ffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    if (this.k !== k) {
      this.k = k;
      this.child = new Uint16Array(k);
      this.boxes = new Uint16Array(this.capacity * k);
    }
    if (this.capacity === 0) this.grow(k);
  }

  growLabels(needed: number): Int32Array {
    const labels = new Int32Array(Math.max(needed, 2 * this.labels.length));
    labels.set(this.labels);
    this.labels = labels;
    return labels;
  }

  grow(k: number): void {
    const capacity = Math.max(256, 2 * this.capacity);
    const boxes = new Uint16Array(capacity * k);
    boxes.set(this.boxes);
    this.boxes = boxes;
    const cells = new Uint16Array(capacity);
    cells.set(this.cells);
    this.cells = cells;
    const region = new Uint16Array(capacity);
    region.set(this.region);
    this.region = region;
    const first = new Uint8Array(capacity);
    first.set(this.first);
    this.first = first;
    this.capacity = capacity;
  }
}

const WORKSPACE = new Workspace();
