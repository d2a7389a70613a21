import { type Board, UNREACHABLE } from './board.js';

/** Above this many boxes the exact assignment (2^k · k work per state) gives way to the sum of minima. */
const MAX_MATCHED_BOXES = 6;

/**
 * A lower bound on the pushes that solve a position: the cheapest assignment of boxes to distinct
 * targets, each box costing its push distance to its target with the other boxes ignored. Computed by
 * dynamic programming over subsets of targets (f(S) = the cheapest assignment of the first |S| boxes to
 * the targets in S), O(2^k · k); beyond {@link MAX_MATCHED_BOXES} boxes, the weaker sum over boxes of the
 * distance to the nearest target. One push moves one box one cell, which changes every distance by at
 * most one, so either bound changes by at most one per push: a consistent heuristic. Internal.
 */
export class MatchingBound {
  private readonly board: Board;
  private readonly k: number;
  private readonly cost: Int32Array;
  private readonly popcount: Uint8Array;

  /**
   * @param board - the level's static analysis
   * @param boxes - number of boxes (= targets)
   */
  constructor(board: Board, boxes: number) {
    this.board = board;
    this.k = boxes;
    const tables = boxes <= MAX_MATCHED_BOXES ? subsetTables(boxes) : EMPTY;
    this.cost = tables.cost;
    this.popcount = tables.popcount;
  }

  /**
   * @param boxes - box cells
   * @param at - offset of the first box in `boxes`
   * @returns the bound, or {@link UNREACHABLE} when no assignment exists (the position is dead)
   */
  of(boxes: ArrayLike<number>, at: number): number {
    const { k, cost, popcount } = this;
    const { size, targetDistance, pushDistance } = this.board;
    if (cost.length === 0) {
      let sum = 0;
      for (let j = 0; j < k; j++) {
        const d = pushDistance[boxes[at + j]!]!;
        if (d === UNREACHABLE) return UNREACHABLE;
        sum += d;
      }
      return sum;
    }
    const full = cost.length - 1;
    cost.fill(UNREACHABLE);
    cost[0] = 0;
    for (let mask = 0; mask < full; mask++) {
      const base = cost[mask]!;
      if (base === UNREACHABLE) continue;
      const box = boxes[at + popcount[mask]!]!;
      for (let t = 0; t < k; t++) {
        const bit = 1 << t;
        if ((mask & bit) !== 0) continue;
        const d = targetDistance[t * size + box]!;
        if (d === UNREACHABLE) continue;
        const next = mask | bit;
        if (base + d < cost[next]!) cost[next] = base + d;
      }
    }
    return cost[full]!;
  }
}

interface SubsetTables {
  readonly cost: Int32Array;
  readonly popcount: Uint8Array;
}

const EMPTY: SubsetTables = { cost: new Int32Array(0), popcount: new Uint8Array(0) };
/** One scratch cost table and one popcount table per box count, shared by every bound (no nesting). */
const TABLES = new Map<number, SubsetTables>();

function subsetTables(boxes: number): SubsetTables {
  let tables = TABLES.get(boxes);
  if (tables === undefined) {
    const popcount = new Uint8Array(1 << boxes);
    for (let m = 1; m < popcount.length; m++) popcount[m] = popcount[m >> 1]! + (m & 1);
    tables = { cost: new Int32Array(1 << boxes), popcount };
    TABLES.set(boxes, tables);
  }
  return tables;
}
