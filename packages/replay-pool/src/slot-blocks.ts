import type { BlockTarget, ColumnArena, SlabViews } from './column-arena.js';
import type { StoredBlock } from './create-trajectory.js';

/**
 * 32-bit words per entry of the pool's slot table: 48 bytes. Words 0–4 hold the block's byte offset (for
 * a block in the arena), the length T, the observation size d and the min and max version; word 5 is
 * {@link INLINE_FLAG}; words 6–11 hold the block itself when it is small enough. (At the largest capacity,
 * 2^26, the entries take 3 GiB, under the 4 GiB a typed array can view; 64-byte entries would not fit.)
 */
export const SLOT_STRIDE = 12;

/** Word of an entry that is 1 when the block is inline (in the entry), 0 when it is in the arena. */
export const INLINE_FLAG = 5;

/** First word of an entry's inline block (byte 24: 8-aligned in an 8-aligned entry). */
export const INLINE_WORD = 6;

/**
 * Largest block kept inline: 24 bytes, a block of 8·T·(2 + d) bytes with T·(2 + d) ≤ 3: one step with an
 * observation of at most one value (a bandit's trajectory, for one).
 */
export const INLINE_BYTES = 4 * (SLOT_STRIDE - INLINE_WORD);

/** Bytes of the spare entry at the start of the slot table's buffer, where a small block is validated. */
export const SPARE_BYTES = 4 * SLOT_STRIDE;

/**
 * Where a pushed trajectory's block goes: a block of at most {@link INLINE_BYTES} into the spare entry
 * (then copied into its slot's entry by {@link SlotBlocks.place}, once the whole input has passed validation, so
 * that a refused push never touches a held trajectory), a larger one into the arena. A trajectory read in
 * a learner's loop then costs its entry (one cache line, or two adjacent ones) instead of three lines at
 * unrelated addresses, the block's after the entry's (the entry, the slot's slab views and the block in the
 * slab): in a pool of 10^5 one-step trajectories those misses were most of what an FTW update's cost grew
 * by. Internal.
 */
export class SlotBlocks implements BlockTarget {
  readonly #arena: ColumnArena;
  readonly #spare: SlabViews;
  readonly #spareBlock: { buffer: ArrayBuffer; offset: number };
  /** Whether the last `reserve` chose the spare entry. */
  inline = false;
  views: SlabViews;

  /**
   * @param arena - where larger blocks go
   * @param spare - views of the spare entry ({@link SPARE_BYTES} bytes from byte 0 of their buffer)
   */
  constructor(arena: ColumnArena, spare: SlabViews) {
    this.#arena = arena;
    this.#spare = spare;
    this.#spareBlock = { buffer: spare.buffer, offset: 4 * INLINE_WORD };
    this.views = spare;
  }

  reserve(bytes: number): { buffer: ArrayBuffer; offset: number } {
    if (bytes <= INLINE_BYTES) {
      this.inline = true;
      this.views = this.#spare;
      return this.#spareBlock;
    }
    this.inline = false;
    const block = this.#arena.reserve(bytes);
    this.views = this.#arena.views;
    return block;
  }

  commit(): void {
    if (!this.inline) this.#arena.commit();
  }

  /**
   * Writes the place and numbers of the block the last `storeTrajectory` into this target stored into the
   * entry of `slot`: an inline block is copied word by word from the spare entry (as 32-bit integers:
   * copying doubles could change a NaN's bits, and the words of actions and versions may read as one), a
   * block in the arena is recorded by its views and offset.
   *
   * @param entries - views of the slot table (entry s from word s · {@link SLOT_STRIDE})
   * @param views - the slab views of each slot (undefined for an inline block)
   * @param slot - the ring slot
   * @param stored - what `storeTrajectory` returned
   */
  place(entries: SlabViews, views: (SlabViews | undefined)[], slot: number, stored: StoredBlock): void {
    const info = entries.uint32;
    const at = slot * SLOT_STRIDE;
    if (this.inline) {
      const source = this.#spare.uint32;
      const end = INLINE_WORD + 2 * stored.length * (2 + stored.observationSize);
      for (let w = INLINE_WORD; w < end; w++) info[at + w] = source[w]!;
      info[at] = 0;
      info[at + INLINE_FLAG] = 1;
      views[slot] = undefined;
    } else {
      info[at] = stored.offset;
      info[at + INLINE_FLAG] = 0;
      views[slot] = stored.views;
    }
    info[at + 1] = stored.length;
    info[at + 2] = stored.observationSize;
    info[at + 3] = stored.minVersion;
    info[at + 4] = stored.maxVersion;
  }
}
