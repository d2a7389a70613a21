import { type Board, UNREACHABLE } from './board.js';
import { MatchingBound } from './matching-bound.js';
import { stateKey } from './state-key.js';

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
  const sorted = Array.from(startBoxes).sort((a, b) => a - b);
  const bound = new MatchingBound(board, k);
  const h0 = bound.of(sorted, 0);
  if (h0 === UNREACHABLE) return { status: 'unsolvable', moves: -1, pushes: -1, path: '', states: 1 };
  if (maxStates < 1) return { status: 'limit', moves: -1, pushes: -1, path: '', states: 0 };

  const numericKeys = size ** (k + 1) <= Number.MAX_SAFE_INTEGER;
  const ws = WORKSPACE;
  ws.prepare(size, k);
  let capacity = ws.capacity;
  let nodeBoxes = ws.nodeBoxes;
  let nodePlayer = ws.nodePlayer;
  let nodeParent = ws.nodeParent;
  let nodeG = ws.nodeG;
  let nodeH = ws.nodeH;
  let nodeFrom = ws.nodeFrom;
  let nodeDir = ws.nodeDir;
  let nodeClosed = ws.nodeClosed;
  let count = 0;
  const index = ws.index;

  ws.heapSize = 0;

  const { boxAt, seen, need, dist, queue } = ws;
  const child = ws.child;
  const keyCodes: number[] = new Array<number>(k + 1);
  let stamp = ws.stamp;

  nodeBoxes.set(sorted, 0);
  nodePlayer[0] = startPlayer;
  nodeParent[0] = -1;
  nodeG[0] = 0;
  nodeH[0] = h0;
  nodeClosed[0] = 0;
  index.set(stateKey(nodeBoxes, 0, k, size, startPlayer, numericKeys, keyCodes), 0);
  count = 1;
  ws.heapPush(0, h0 * H_UNIT, h0);

  let goal = -1;
  let limited = false;
  search: while (ws.heapSize > 0) {
    const node = ws.heapPop();
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
    // Breadth-first walk of the player around the boxes, stopped once every cell a push could start
    // from has been reached: breadth-first order makes their distances final.
    stamp++;
    let needed = 0;
    for (let j = 0; j < k; j++) {
      const b = nodeBoxes[base + j]!;
      for (let d = 0; d < 4; d++) {
        const o = offsets[d]!;
        const from = b - o;
        const to = b + o;
        if (wall[from] === 1 || boxAt[from] === 1 || wall[to] === 1 || boxAt[to] === 1) continue;
        if (pushDistance[to] === UNREACHABLE || need[from] === stamp) continue;
        need[from] = stamp;
        needed++;
      }
    }
    const start = nodePlayer[node]!;
    seen[start] = stamp;
    dist[start] = 0;
    queue[0] = start;
    if (need[start] === stamp) needed--;
    let tail = 1;
    walk: for (let head = 0; head < tail && needed > 0; head++) {
      const c = queue[head]!;
      const dc = dist[c]! + 1;
      for (let d = 0; d < 4; d++) {
        const n = c + offsets[d]!;
        if (wall[n] === 0 && boxAt[n] === 0 && seen[n] !== stamp) {
          seen[n] = stamp;
          dist[n] = dc;
          queue[tail++] = n;
          if (need[n] === stamp && --needed === 0) break walk;
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
        const key = stateKey(child, 0, k, size, b, numericKeys, keyCodes);
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
          if (count === capacity) {
            ws.growNodes(k);
            capacity = ws.capacity;
            nodeBoxes = ws.nodeBoxes;
            nodePlayer = ws.nodePlayer;
            nodeParent = ws.nodeParent;
            nodeG = ws.nodeG;
            nodeH = ws.nodeH;
            nodeFrom = ws.nodeFrom;
            nodeDir = ws.nodeDir;
            nodeClosed = ws.nodeClosed;
          }
          id = count++;
          index.set(key, id);
          nodeBoxes.set(child, id * k);
          nodePlayer[id] = b;
          nodeH[id] = childH;
          nodeClosed[id] = 0;
        } else {
          if (known === DEAD || nodeClosed[known] === 1 || nodeG[known]! <= childG) continue;
          id = known;
        }
        const childH = nodeH[id]!;
        nodeG[id] = childG;
        nodeParent[id] = node;
        nodeFrom[id] = from;
        nodeDir[id] = d;
        ws.heapPush(id, childG + childH * H_UNIT, childH);
      }
    }
    for (let j = 0; j < k; j++) boxAt[nodeBoxes[base + j]!] = 0;
  }
  for (let c = 0; c < size; c++) boxAt[c] = 0;
  ws.stamp = stamp;
  index.clear();
  if (goal < 0) {
    return { status: limited ? 'limit' : 'unsolvable', moves: -1, pushes: -1, path: '', states: count };
  }
  const g = nodeG[goal]!;
  const moves = Math.floor(g / MOVE);
  const pushes = g - moves * MOVE;
  const path = reconstruct(board, goal, k, ws);
  return { status: 'solved', moves, pushes, path, states: count };
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
function reconstruct(board: Board, goal: number, k: number, ws: Workspace): string {
  const { wall, offsets } = board;
  const { nodeBoxes, nodePlayer, nodeParent, nodeFrom, nodeDir, boxAt, seen, dist: via, queue } = ws;
  const chain: number[] = [];
  for (let n = goal; nodeParent[n]! >= 0; n = nodeParent[n]!) chain.push(n);
  chain.reverse();
  let path = '';
  for (const n of chain) {
    const parent = nodeParent[n]!;
    for (let j = 0; j < k; j++) boxAt[nodeBoxes[parent * k + j]!] = 1;
    const start = nodePlayer[parent]!;
    const goalCell = nodeFrom[n]!;
    const stamp = ++ws.stamp;
    seen[start] = stamp;
    queue[0] = start;
    let tail = 1;
    for (let head = 0; head < tail && seen[goalCell] !== stamp; head++) {
      const c = queue[head]!;
      for (let d = 0; d < 4; d++) {
        const next = c + offsets[d]!;
        if (wall[next] === 0 && boxAt[next] === 0 && seen[next] !== stamp) {
          seen[next] = stamp;
          via[next] = d;
          queue[tail++] = next;
        }
      }
    }
    for (let j = 0; j < k; j++) boxAt[nodeBoxes[parent * k + j]!] = 0;
    let walk = '';
    for (let c = goalCell; c !== start; c -= offsets[via[c]!]!) walk = MOVE_LETTERS[via[c]!]! + walk;
    path += walk + PUSH_LETTERS[nodeDir[n]!]!;
  }
  return path;
}

/**
 * The search's buffers, kept between calls so that a search of a few states allocates almost nothing
 * (small typed arrays cost more to allocate than such a search costs to run). Searches do not nest.
 */
class Workspace {
  capacity = 0;
  nodeBoxes = new Uint16Array(0);
  nodePlayer = new Uint16Array(0);
  nodeParent = new Int32Array(0);
  nodeG = new Float64Array(0);
  nodeH = new Int32Array(0);
  nodeFrom = new Uint16Array(0);
  nodeDir = new Uint8Array(0);
  nodeClosed = new Uint8Array(0);
  heapNode = new Int32Array(64);
  heapF = new Float64Array(64);
  heapH = new Int32Array(64);
  boxAt = new Uint8Array(0);
  seen = new Int32Array(0);
  need = new Int32Array(0);
  dist = new Int32Array(0);
  queue = new Int32Array(0);
  child = new Uint16Array(0);
  index = new Map<number | string, number>();
  stamp = 0;
  private k = -1;

  prepare(size: number, k: number): void {
    if (this.boxAt.length < size) {
      this.boxAt = new Uint8Array(size);
      this.seen = new Int32Array(size);
      this.need = new Int32Array(size);
      this.dist = new Int32Array(size);
      this.queue = new Int32Array(size);
      this.stamp = 0;
    }
    if (this.stamp > 0x3fff_ffff) {
      this.seen.fill(0);
      this.need.fill(0);
      this.stamp = 0;
    }
    if (this.k !== k) {
      this.k = k;
      this.child = new Uint16Array(k);
      this.nodeBoxes = new Uint16Array(this.capacity * k);
    }
    if (this.capacity === 0) this.growNodes(k);
  }

  growNodes(k: number): void {
    const capacity = Math.max(64, 2 * this.capacity);
    const grow = <T extends Uint8Array | Uint16Array | Int32Array | Float64Array>(
      old: T,
      make: (n: number) => T,
      n: number,
    ): T => {
      const out = make(n);
      out.set(old as never);
      return out;
    };
    this.nodeBoxes = grow(this.nodeBoxes, (n) => new Uint16Array(n), capacity * k);
    this.nodePlayer = grow(this.nodePlayer, (n) => new Uint16Array(n), capacity);
    this.nodeParent = grow(this.nodeParent, (n) => new Int32Array(n), capacity);
    this.nodeG = grow(this.nodeG, (n) => new Float64Array(n), capacity);
    this.nodeH = grow(this.nodeH, (n) => new Int32Array(n), capacity);
    this.nodeFrom = grow(this.nodeFrom, (n) => new Uint16Array(n), capacity);
    this.nodeDir = grow(this.nodeDir, (n) => new Uint8Array(n), capacity);
    this.nodeClosed = grow(this.nodeClosed, (n) => new Uint8Array(n), capacity);
    this.capacity = capacity;
  }

  heapSize = 0;

  // The open list is a heap on typed arrays (node, f, h side by side), not an npm heap (tinyqueue, heap-js
  // hold one JS value per entry, so an object allocated per push in the search's inner loop); and
  // @ftw/sokoban, a core package, takes no runtime dependency beyond pure-rand.
  /** Queues a node, ordered by f, then by smaller h (deeper nodes first among equal f). */
  heapPush(node: number, f: number, h: number): void {
    if (this.heapSize === this.heapNode.length) this.growHeap();
    const { heapNode, heapF, heapH } = this;
    let i = this.heapSize++;
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
  }

  /** Removes and returns the first node. */
  heapPop(): number {
    const { heapNode, heapF, heapH } = this;
    const top = heapNode[0]!;
    const last = --this.heapSize;
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
      ) {
        c++;
      }
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
  }

  growHeap(): void {
    const n = 2 * this.heapNode.length;
    const node = new Int32Array(n);
    node.set(this.heapNode);
    this.heapNode = node;
    const f = new Float64Array(n);
    f.set(this.heapF);
    this.heapF = f;
    const h = new Int32Array(n);
    h.set(this.heapH);
    this.heapH = h;
  }
}

const WORKSPACE = new Workspace();
