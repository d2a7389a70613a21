import type { Policy } from './policy.js';

/** A snapshot's buffer and the version of θ it holds. */
interface Held {
  readonly version: number;
  readonly buffer: Float64Array;
}

/** Buffers of released versions kept for reuse, at most. */
const SPARE_BUFFERS = 2;

/**
 * θ at each version the simulated actors of an asynchronous run may still act with, at a cost that
 * follows the rows the updates move rather than the size of θ.
 *
 * Each snapshot is a buffer at least as long as θ was at its version, holding that θ and zeros beyond
 * (what `Policy.logits` reads past a snapshot's end). A new version reuses the buffer of a released one,
 * of version u, and brings it from θ_u to θ by copying only the rows that the updates after u moved (their
 * `UpdateStats.moved` lists): O(rows moved since u · actions). The rows created since u need no copy:
 * growth appends parameters at 0 (see `Policy`), as the buffer holds beyond θ_u, and a row moved since is
 * in a list. This relies on θ changing only in updates that made a version (an update that returns null
 * moves nothing). A whole copy, O(|θ|), happens when an update may have moved any parameter (`moved` is
 * null: Adam, a linear policy), when no released buffer is at hand (the first versions), or when θ has
 * outgrown it (its capacity then doubles, so growth costs O(1) amortised per row). The snapshots equal
 * whole copies of θ taken at each version, bit for bit.
 *
 * @example
 * ```ts
 * const snapshots = new ParameterSnapshots(policy); // version 0: θ now
 * // after the update that made version 1, which moved the rows stats.moved:
 * snapshots.record(1, stats.moved);
 * policy.logits(observations, rows, out, snapshots.at(0)); // π_0's logits of the batch
 * snapshots.release(1); // no actor will act with version 0 again
 * ```
 */
export class ParameterSnapshots {
  readonly #policy: Policy;
  /** The retained snapshots by version. */
  readonly #byVersion = new Map<number, Held>();
  /** Released buffers, oldest version first. */
  #spare: Held[] = [];
  /**
   * What the update that made version `#firstMove + i` moved (null: any parameter) at `[i]`, for the
   * versions after the oldest buffer's.
   */
  #moves: (Int32Array | null)[] = [];
  #firstMove = 1;
  #version = 0;

  /** @param policy - the policy; its θ now is version 0 */
  constructor(policy: Policy) {
    this.#policy = policy;
    const parameters = policy.parameters;
    this.#byVersion.set(0, { version: 0, buffer: Float64Array.from(parameters) });
  }

  /** The newest version recorded. */
  get version(): number {
    return this.#version;
  }

  /**
   * @param version - a retained version
   * @returns θ at that version (entries beyond its length read as 0); valid until it is released
   * @throws RangeError when the version is not retained
   */
  at(version: number): Float64Array {
    const held = this.#byVersion.get(version);
    if (held === undefined) {
      throw new RangeError(
        `version must be a retained version (${[...this.#byVersion.keys()].join(', ')}), got ${version}`,
      );
    }
    return held.buffer;
  }

  /**
   * Records θ as it is now as the next version.
   *
   * @param version - the new version: the last one recorded + 1
   * @param moved - the observations whose logits the update that made it may have moved, in the policy's
   *   blocks of `numActions` parameters (`UpdateStats.moved`), or null when it may have moved any parameter
   * @throws RangeError when `version` is not the next one
   */
  record(version: number, moved: Int32Array | null): void {
    if (version !== this.#version + 1) {
      throw new RangeError(`version must be the next version, ${this.#version + 1}, got ${version}`);
    }
    const parameters = this.#policy.parameters;
    const length = parameters.length;
    this.#moves.push(moved === null ? null : moved.slice());
    const spare = this.#spare.pop();
    let buffer: Float64Array;
    if (spare === undefined || spare.buffer.length < length) {
      buffer = new Float64Array(Math.max(length, 2 * (spare?.buffer.length ?? 0)));
      buffer.set(parameters);
    } else {
      buffer = spare.buffer;
      this.#bringUpToDate(spare, version, parameters);
    }
    this.#byVersion.set(version, { version, buffer });
    this.#version = version;
    this.#forgetMoves();
  }

  /**
   * Releases the versions older than `oldest` (their buffers are reused by the next versions).
   * @param oldest - the oldest version an actor may still act with (≤ the newest version)
   * @throws RangeError when `oldest` is not an integer or is above the newest version; nothing is released then
   */
  release(oldest: number): void {
    if (!(Number.isInteger(oldest) && oldest <= this.#version)) {
      throw new RangeError(
        `oldest must be an integer <= the newest version, ${this.#version}, got ${oldest}`,
      );
    }
    for (const [v, held] of this.#byVersion) {
      if (v >= oldest) continue;
      this.#byVersion.delete(v);
      this.#spare.push(held);
    }
    // The newest released versions need the fewest rows copied: keep those.
    this.#spare.sort((a, b) => a.version - b.version);
    if (this.#spare.length > SPARE_BUFFERS) this.#spare = this.#spare.slice(-SPARE_BUFFERS);
    this.#forgetMoves();
  }

  /** Brings a released buffer from θ at its version to θ now (version `to`). */
  #bringUpToDate(spare: Held, to: number, parameters: Float64Array): void {
    const { buffer, version: from } = spare;
    const A = this.#policy.numActions;
    for (let k = from + 1; k <= to; k++) {
      const moved = this.#moves[k - this.#firstMove]!;
      if (moved === null) {
        buffer.set(parameters);
        return;
      }
      for (let i = 0; i < moved.length; i++) {
        const start = moved[i]! * A;
        for (let j = start; j < start + A; j++) buffer[j] = parameters[j]!;
      }
    }
  }

  /** Drops the moves no buffer will need: those up to the oldest version held. */
  #forgetMoves(): void {
    let oldest = this.#version;
    for (const v of this.#byVersion.keys()) if (v < oldest) oldest = v;
    for (const held of this.#spare) if (held.version < oldest) oldest = held.version;
    const drop = oldest + 1 - this.#firstMove;
    if (drop > 0) {
      this.#moves.splice(0, drop);
      this.#firstMove += drop;
    }
  }
}
