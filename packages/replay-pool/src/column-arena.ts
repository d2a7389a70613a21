/** Bytes of the largest shared slab: room for about 2,000 trajectories of 8 steps. */
const SLAB_BYTES = 1 << 18;
/** Bytes of an arena's first slab; each next one is twice the last, up to {@link SLAB_BYTES}. */
const FIRST_SLAB_BYTES = 1 << 12;
/** Blocks above this size get an ArrayBuffer of their own, so one long trajectory never strands a slab. */
const LARGE_BLOCK_BYTES = SLAB_BYTES >>> 3;

/**
 * Where `storeTrajectory` writes a trajectory's block: `reserve(bytes)` says where it would go (and
 * `views` are views of that buffer), `commit()` keeps it; a block reserved and not committed (the input
 * failed validation) leaves no trace. Internal.
 */
export interface BlockTarget {
  reserve(bytes: number): { buffer: ArrayBuffer; offset: number };
  readonly views: SlabViews;
  commit(): void;
}

/**
 * Bump allocator of the byte blocks that hold trajectories' columns. Allocating an ArrayBuffer costs
 * microseconds in V8 (an off-heap allocation tracked by the garbage collector), far more than copying a
 * short trajectory, so small blocks are carved out of shared slabs instead: 4 KiB first, each next twice the last, up to
 * 256 KiB (a small pool, such as one per seed of a short run, never zeroes a large slab it won't fill). A FIFO pool frees
 * trajectories in allocation order, so slabs die whole and memory stays bounded: held bytes plus at
 * most two partly used slabs (a caller that keeps an evicted trajectory keeps its slab alive).
 *
 * Use: `reserve(bytes)` returns where a block would go without committing it; `commit()` keeps it.
 * A block that is reserved but not committed (the input failed validation) is simply reused. Internal.
 */
export class ColumnArena implements BlockTarget {
  #slab = new ArrayBuffer(0);
  #slabViews = new SlabViews(this.#slab);
  #used = 0;
  #reserved = 0;
  /**
   * Views of the whole buffer of the block the last `reserve` returned, so that a caller writes its
   * columns at element offsets instead of creating views of its own (a typed-array view costs about as
   * much as copying a short trajectory). Valid until the next `reserve`.
   */
  views: SlabViews = this.#slabViews;

  /**
   * @param bytes - block size, a multiple of 8
   * @returns the buffer and 8-aligned byte offset of the block (see also `views`)
   */
  reserve(bytes: number): { buffer: ArrayBuffer; offset: number } {
    if (bytes > LARGE_BLOCK_BYTES) {
      this.#reserved = 0;
      const buffer = new ArrayBuffer(bytes);
      this.views = new SlabViews(buffer);
      return { buffer, offset: 0 };
    }
    if (this.#used + bytes > this.#slab.byteLength) {
      let size = Math.min(SLAB_BYTES, Math.max(FIRST_SLAB_BYTES, 2 * this.#slab.byteLength));
      while (size < bytes) size *= 2;
      this.#slab = new ArrayBuffer(size);
      this.#slabViews = new SlabViews(this.#slab);
      this.#used = 0;
    }
    this.#reserved = bytes;
    this.views = this.#slabViews;
    return { buffer: this.#slab, offset: this.#used };
  }

  /** Keeps the block returned by the last `reserve`. */
  commit(): void {
    this.#used += this.#reserved;
    this.#reserved = 0;
  }
}

/** Float64, Int32 and Uint32 views of one buffer (the whole of it, or one 8-aligned region). */
export class SlabViews {
  readonly buffer: ArrayBuffer;
  readonly float64: Float64Array;
  readonly int32: Int32Array;
  readonly uint32: Uint32Array;

  /**
   * @param buffer - the buffer
   * @param byteOffset - where the region starts, a multiple of 8 (element 0 of each view)
   * @param byteLength - its length, a multiple of 8 (the rest of the buffer by default)
   */
  constructor(buffer: ArrayBuffer, byteOffset = 0, byteLength = buffer.byteLength - byteOffset) {
    this.buffer = buffer;
    this.float64 = new Float64Array(buffer, byteOffset, byteLength / 8);
    this.int32 = new Int32Array(buffer, byteOffset, byteLength / 4);
    this.uint32 = new Uint32Array(buffer, byteOffset, byteLength / 4);
  }
}
