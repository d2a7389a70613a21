/**
 * Version of the snapshot format this release writes and reads. A reader refuses any other version
 * with `SNAPSHOT_VERSION` rather than guess.
 *
 * @example
 * ```ts
 * console.log(SNAPSHOT_FORMAT_VERSION); // 1
 * ```
 */
export const SNAPSHOT_FORMAT_VERSION = 1;

/** The 8 magic bytes `\x89FTWPOOL`; the high first byte catches 7-bit and text-mode transfers (as PNG). */
export const MAGIC: readonly number[] = [0x89, 0x46, 0x54, 0x57, 0x50, 0x4f, 0x4f, 0x4c];

/**
 * Header layout (32 bytes, little-endian): magic (8), format version u32 at 8, flags u32 at 12 (0),
 * body length u64 at 16, body CRC-32 at 24, header CRC-32 of bytes 0–27 at 28.
 */
export const HEADER_BYTES = 32;
export const VERSION_OFFSET = 8;
export const FLAGS_OFFSET = 12;
export const BODY_LENGTH_OFFSET = 16;
export const BODY_CRC_OFFSET = 24;
export const HEADER_CRC_OFFSET = 28;

/** Body prefix: capacity, lag flags, lag, size (u32 each), pushed and evicted counts (u64 each). */
export const BODY_PREFIX_BYTES = 32;
/** Record prefix before metadata: sequence u64, steps u32, observation size u32, return f64, metadata length u32. */
export const RECORD_PREFIX_BYTES = 28;
/** Metadata length that marks absent metadata. */
export const NO_METADATA = 0xffff_ffff;
/** Bytes per step of the fixed columns: action i32 + log-probability f64 + version u32. */
export const STEP_BYTES = 16;
