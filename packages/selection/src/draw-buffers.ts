import type { EliteDraw } from './elite-draw.js';

/** Longest permutation kept for the next one-shot draw: 2^22 entries (16 MiB, a pool of 4M items). */
const KEEP_LIMIT = 2 ** 22;

/**
 * The working memory of an {@link EliteDraw} (internal). One-shot callers ({@link selectElites},
 * {@link monteCarloOccupancy}) borrow one set with {@link borrowDrawBuffers} and hand it back with
 * {@link releaseDrawBuffers}, so a call allocates none of it: allocating a 512-byte typed array alone
 * costs V8 about 1 µs, five times the draws of the reproduction's setting (J = 4, C = 5, n = 128).
 *
 * Invariant while the buffers are not in use: `permutation[i] === i` for every i, so a borrower never
 * writes n entries to start a draw; the draw puts the permutation back when it ends (writing p back at
 * each position p its logged swaps touched, or rewriting the identity when that is cheaper). The other
 * buffers hold no state between uses.
 */
export class DrawBuffers {
  /** The identity 0..length−1 between uses; during a draw, a permutation of it. */
  permutation: Uint32Array;
  /** Swap targets of the draws, the positions to put back; at least C entries. */
  log: Uint32Array = new Uint32Array(0);
  /** The heap's scores: K entries and one +Infinity past them. */
  heap: Float64Array = new Float64Array(0);
  /** The kept items of a minibatch (doubles as the heap's items). */
  kept: Uint32Array = new Uint32Array(0);
  /** A minibatch's candidates. */
  candidates: Uint32Array = new Uint32Array(0);
  /** Items tied at the cut. */
  ties: Uint32Array = new Uint32Array(0);
  /** selectElites: every kept item, minibatch after minibatch (J·K). */
  selected: Uint32Array = new Uint32Array(0);
  /** selectElites: where each minibatch's kept items end in `selected` (J + 1). */
  ends: Uint32Array = new Uint32Array(0);
  /** The draw object of the one-shot calls that use these buffers, reset by each (no object per call). */
  draw: EliteDraw | null = null;

  /** @param n - length of the identity permutation. */
  constructor(n: number) {
    const permutation = new Uint32Array(n);
    for (let i = 0; i < n; i++) permutation[i] = i;
    this.permutation = permutation;
  }

  /**
   * Grows every buffer that is shorter than a draw needs (the permutation to a fresh identity of n).
   * @returns this.
   */
  fit(n: number, batchSize: number, keep: number, logLength: number, selected = 0, ends = 0): this {
    if (this.permutation.length < n) this.permutation = new DrawBuffers(n).permutation;
    if (this.log.length < logLength) this.log = new Uint32Array(logLength);
    if (this.heap.length < keep + 1) this.heap = new Float64Array(keep + 1);
    if (this.kept.length < keep) this.kept = new Uint32Array(keep);
    if (this.candidates.length < batchSize) this.candidates = new Uint32Array(batchSize);
    if (this.ties.length < batchSize) this.ties = new Uint32Array(batchSize);
    if (this.selected.length < selected) this.selected = new Uint32Array(selected);
    if (this.ends.length < ends) this.ends = new Uint32Array(ends);
    return this;
  }
}

/**
 * The set handed back by the last one-shot draw. Taking it empties the slot, so a selection started from
 * inside a `random` callback gets a fresh set instead of the one in use; a draw that throws never hands
 * its set back (its permutation may be left shuffled).
 */
let spare: DrawBuffers | null = null;

/** The spare set when there is one (grown as needed by {@link DrawBuffers.fit}), else a new one. */
export function borrowDrawBuffers(n: number): DrawBuffers {
  const buffers = spare ?? new DrawBuffers(n);
  spare = null;
  return buffers;
}

/**
 * Keeps `buffers` for the next one-shot draw, unless they are too large to hold on to or the slot holds
 * a longer permutation. Their permutation must be the identity again.
 */
export function releaseDrawBuffers(buffers: DrawBuffers): void {
  if (
    buffers.permutation.length <= KEEP_LIMIT &&
    buffers.selected.length <= KEEP_LIMIT &&
    buffers.ends.length <= KEEP_LIMIT &&
    (spare === null || spare.permutation.length <= buffers.permutation.length)
  ) {
    spare = buffers;
  }
}
