import { type Board, UNREACHABLE } from './board.js';
import { MatchingBound } from './matching-bound.js';

/** Cost units: a path of m moves and p pushes costs m · MOVE + p, so moves decide and pushes break ties. */
const MOVE = 65_536;
/** One unit of the push-distance heuristic is worth at least one move and one push. */
const H_UNIT = MOVE + 1;
/** The letters of a path in LURD notation, indexed by action (Up, Down, Left, Right); pushes in capitals. */
const MOVE_LETTERS = 'udlr';
/** Index entry of a position whose boxes cannot all reach distinct targets. */
const DEAD = -1;
const PUSH_LETTERS = 'UDLR';

/** The outcome of {@link searchOptimal}. Internal; `solve` exposes it. */
export interface SearchOutcome {
  readonly status: 'solved' | 'unsolvable' | 'limit';
  /** Moves of the optimal solution; -1 unless solved. */
  readonly moves: number;
  /** Pushes of that solution (the fewest among the move-optimal ones); -1 unless solved. */
  readonly pushes: number;
  /** The solution in LURD notation (lower case moves, upper case pushes); '' unless solved. */
  readonly path: string;
  /** Search states created. */
  readonly states: number;
}

/**
 * A* over the push graph: a node is (the box cells, the player cell right after the push), an edge is
 * one push preceded by the player's shortest walk to it, costing (walk + 1) moves and one push. Costs are
 * compared as (moves, pushes) lexicographically, so the result is optimal in moves and, among those, in
 * pushes. The heuristic, the sum of each box's push distance to its nearest target, never exceeds the
 * remaining pushes (nor, as every push is a move, the remaining moves), and one push changes it by at
 * most one: it is consistent, so the first goal node taken from the queue is optimal and a node taken
 * once is never improved. Pruned: pushes onto dead cells and pushes that close a 2 × 2 block of walls and
 * boxes holding a box off target (such a block never moves again). Internal.
 *
 * @param board - the level's static analysis
 * @param startBoxes - box cells (any order)
 * @param startPlayer - player cell
 * @param maxStates - the search gives up (status `limit`) when it would create more states than this
 * @returns the outcome
 */
export function searchOptimal(
  board: Board,
  startBoxes: ArrayLike<number>,
  startPlayer: number,
  maxStates: number,
): SearchOutcome {
  const { size, wall, target, pushDistance, offsets, width } = board;
  const k = startBoxes.length;
  const sorted = Uint16Array.from(startBoxes).sort();
  const bound = new MatchingBound(board, k);
  const h0 = bound.of(sorted, 0);
  if (h0 === UNREACHABLE) return { status: 'unsolvable', moves: -1, pushes: -1, path: '', states: 1 };
  if (maxStates < 1) return { status: 'limit', moves: -1, pushes: -1, path: '', states: 0 };

  const numericKeys = size ** (k + 1) <= Number.MAX_SAFE_INTEGER;
  let capacity = 64;
  let nodeBoxes = new Uint16Array(capacity * k);
  let nodePlayer = new Uint16Array(capacity);
  let nodeParent = new Int32Array(capacity);
  let nodeG = new Float64Array(capacity);
  let nodeH = new Int32Array(capacity);
  let nodeFrom = new Uint16Array(capacity);
  let nodeDir = new Uint8Array(capacity);
  let nodeClosed = new Uint8Array(capacity);
  let count = 0;
  const index = new Map<number | string, number>();

  let heapCapacity = 64;
  let heapNode = new Int32Array(heapCapacity);
  let heapF = new Float64Array(heapCapacity);
  let heapH = new Int32Array(heapCapacity);
  let heapSize = 0;

  const boxAt = new Uint8Array(size);
  const seen = new Int32Array(size);
  const dist = new Int32Array(size);
  const queue = new Int32Array(size);
  const child = new Uint16Array(k);
  const keyCodes: number[] = new Array<number>(k + 1);
  let stamp = 0;

  const keyOf = (boxes: Uint16Array, at: number, player: number): number | string => {
    if (numericKeys) {
      let key = 0;
      for (let j = 0; j < k; j++) key = key * size + boxes[at + j]!;
      return key * size + player;
    }
    for (let j = 0; j < k; j++) keyCodes[j] = boxes[at + j]!;
    keyCodes[k] = player;
    return String.fromCharCode.apply(null, keyCodes);
  };

  const grow = (): void => {
    capacity *= 2;
    const b = new Uint16Array(capacity * k);
    b.set(nodeBoxes);
    nodeBoxes = b;
    nodePlayer = grown16(nodePlayer, capacity);
    const parent = new Int32Array(capacity);
    parent.set(nodeParent);
    nodeParent = parent;
    const g = new Float64Array(capacity);
    g.set(nodeG);
    nodeG = g;
    const h = new Int32Array(capacity);
    h.set(nodeH);
    nodeH = h;
    nodeFrom = grown16(nodeFrom, capacity);
    const dir = new Uint8Array(capacity);
    dir.set(nodeDir);
    nodeDir = dir;
    const closed = new Uint8Array(capacity);
    closed.set(nodeClosed);
    nodeClosed = closed;
  };

  const heapPush = (node: number, f: number, h: number): void => {
    if (heapSize === heapCapacity) {
      heapCapacity *= 2;
      const n = new Int32Array(heapCapacity);
      n.set(heapNode);
      heapNode = n;
      const fs = new Float64Array(heapCapacity);
      fs.set(heapF);
      heapF = fs;
      const hs = new Int32Array(heapCapacity);
      hs.set(heapH);
      heapH = hs;
    }
    let i = heapSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pf = heapF[p]!;
      if (pf < f || (pf === f && heapH[p]! <= h)) break;
      heapNode[i] = heapNode[p]!;
      heapF[i] = pf;
      heapH[i] = heapH[p]!;
      i = p;
    }
    heapNode[i] = node;
    heapF[i] = f;
    heapH[i] = h;
  };

  const heapPop = (): number => {
    const top = heapNode[0]!;
    const last = --heapSize;
    const node = heapNode[last]!;
    const f = heapF[last]!;
    const h = heapH[last]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      if (
        c + 1 < last &&
        (heapF[c + 1]! < heapF[c]! || (heapF[c + 1] === heapF[c] && heapH[c + 1]! < heapH[c]!))
      )
        c++;
      const cf = heapF[c]!;
      if (f < cf || (f === cf && h <= heapH[c]!)) break;
      heapNode[i] = heapNode[c]!;
      heapF[i] = cf;
      heapH[i] = heapH[c]!;
      i = c;
    }
    heapNode[i] = node;
    heapF[i] = f;
    heapH[i] = h;
    return top;
  };

  nodeBoxes.set(sorted, 0);
  nodePlayer[0] = startPlayer;
  nodeParent[0] = -1;
  nodeG[0] = 0;
  nodeH[0] = h0;
  index.set(keyOf(nodeBoxes, 0, startPlayer), 0);
  count = 1;
  heapPush(0, h0 * H_UNIT, h0);

  let goal = -1;
  let limited = false;
  search: while (heapSize > 0) {
    const node = heapPop();
    if (nodeClosed[node] === 1) continue;
    nodeClosed[node] = 1;
    const h = nodeH[node]!;
    if (h === 0) {
      goal = node;
      break;
    }
    const g = nodeG[node]!;
    const base = node * k;
    for (let j = 0; j < k; j++) boxAt[nodeBoxes[base + j]!] = 1;
    // Breadth-first walk of the player around the boxes.
    stamp++;
    const start = nodePlayer[node]!;
    seen[start] = stamp;
    dist[start] = 0;
    queue[0] = start;
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      const c = queue[head]!;
      const dc = dist[c]! + 1;
      for (let d = 0; d < 4; d++) {
        const n = c + offsets[d]!;
        if (wall[n] === 0 && boxAt[n] === 0 && seen[n] !== stamp) {
          seen[n] = stamp;
          dist[n] = dc;
          queue[tail++] = n;
        }
      }
    }
    for (let j = 0; j < k; j++) {
      const b = nodeBoxes[base + j]!;
      for (let d = 0; d < 4; d++) {
        const o = offsets[d]!;
        const from = b - o;
        const to = b + o;
        if (seen[from] !== stamp || wall[to] === 1 || boxAt[to] === 1) continue;
        if (pushDistance[to] === UNREACHABLE) continue;
        boxAt[b] = 0;
        boxAt[to] = 1;
        const frozen = closesFrozenBlock(to, wall, boxAt, target, width);
        boxAt[to] = 0;
        boxAt[b] = 1;
        if (frozen) continue;
        // The child's boxes: b replaced by `to`, kept ascending.
        let m = 0;
        for (let i = 0; i < k; i++) {
          const c = nodeBoxes[base + i]!;
          if (i !== j) child[m++] = c;
        }
        let pos = k - 1;
        while (pos > 0 && child[pos - 1]! > to) {
          child[pos] = child[pos - 1]!;
          pos--;
        }
        child[pos] = to;
        const key = keyOf(child, 0, b);
        const childG = g + (dist[from]! + 1) * MOVE + 1;
        const known = index.get(key);
        let id: number;
        if (known === undefined) {
          const childH = bound.of(child, 0);
          if (childH === UNREACHABLE) {
            index.set(key, DEAD);
            continue;
          }
          if (count >= maxStates) {
            limited = true;
            break search;
          }
          if (count === capacity) grow();
          id = count++;
          index.set(key, id);
          nodeBoxes.set(child, id * k);
          nodePlayer[id] = b;
          nodeH[id] = childH;
        } else {
          if (known === DEAD || nodeClosed[known] === 1 || nodeG[known]! <= childG) continue;
          id = known;
        }
        const childH = nodeH[id]!;
        nodeG[id] = childG;
        nodeParent[id] = node;
        nodeFrom[id] = from;
        nodeDir[id] = d;
        heapPush(id, childG + childH * H_UNIT, childH);
      }
    }
    for (let j = 0; j < k; j++) boxAt[nodeBoxes[base + j]!] = 0;
  }
  if (goal < 0) {
    return { status: limited ? 'limit' : 'unsolvable', moves: -1, pushes: -1, path: '', states: count };
  }
  const g = nodeG[goal]!;
  const moves = Math.floor(g / MOVE);
  const pushes = g - moves * MOVE;
  const path = reconstruct(board, goal, k, nodeBoxes, nodePlayer, nodeParent, nodeFrom, nodeDir);
  return { status: 'solved', moves, pushes, path, states: count };
}

function grown16(array: Uint16Array, capacity: number): Uint16Array<ArrayBuffer> {
  const out = new Uint16Array(capacity);
  out.set(array);
  return out;
}

/**
 * @returns whether the box just placed at `cell` completes a 2 × 2 square of walls and boxes that holds a
 *   box off target: such boxes can never move again.
 */
function closesFrozenBlock(
  cell: number,
  wall: Uint8Array,
  boxAt: Uint8Array,
  target: Uint8Array,
  width: number,
): boolean {
  for (let dy = -width; dy <= width; dy += 2 * width) {
    for (let dx = -1; dx <= 1; dx += 2) {
      const a = cell + dx;
      const b = cell + dy;
      const c = cell + dx + dy;
      if (
        (wall[a] === 1 || boxAt[a] === 1) &&
        (wall[b] === 1 || boxAt[b] === 1) &&
        (wall[c] === 1 || boxAt[c] === 1) &&
        (target[cell] === 0 ||
          (boxAt[a] === 1 && target[a] === 0) ||
          (boxAt[b] === 1 && target[b] === 0) ||
          (boxAt[c] === 1 && target[c] === 0))
      ) {
        return true;
      }
    }
  }
  return false;
}

/** Rebuilds the LURD path of the goal node: each push is the player's shortest walk to it, then the push. */
function reconstruct(
  board: Board,
  goal: number,
  k: number,
  nodeBoxes: Uint16Array,
  nodePlayer: Uint16Array,
  nodeParent: Int32Array,
  nodeFrom: Uint16Array,
  nodeDir: Uint8Array,
): string {
  const { size, wall, offsets } = board;
  const chain: number[] = [];
  for (let n = goal; nodeParent[n]! >= 0; n = nodeParent[n]!) chain.push(n);
  chain.reverse();
  const boxAt = new Uint8Array(size);
  const via = new Int32Array(size);
  const queue = new Int32Array(size);
  let path = '';
  for (const n of chain) {
    const parent = nodeParent[n]!;
    boxAt.fill(0);
    for (let j = 0; j < k; j++) boxAt[nodeBoxes[parent * k + j]!] = 1;
    const start = nodePlayer[parent]!;
    const goalCell = nodeFrom[n]!;
    via.fill(-1);
    via[start] = 4;
    queue[0] = start;
    let tail = 1;
    for (let head = 0; head < tail && via[goalCell] === -1; head++) {
      const c = queue[head]!;
      for (let d = 0; d < 4; d++) {
        const next = c + offsets[d]!;
        if (wall[next] === 0 && boxAt[next] === 0 && via[next] === -1) {
          via[next] = d;
          queue[tail++] = next;
        }
      }
    }
    let walk = '';
    for (let c = goalCell; c !== start; c -= offsets[via[c]!]!) walk = MOVE_LETTERS[via[c]!]! + walk;
    path += walk + PUSH_LETTERS[nodeDir[n]!]!;
  }
  return path;
}
