import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { describeValue } from '@ftw/internal';
import { systematicRound } from './systematic-round.js';
import { toArtRecord } from './to-art-record.js';
import { toOpenAIRecord } from './to-openai-record.js';
import { toTrlRecords } from './to-trl-record.js';
import { type ChatHistory, type Trajectory, trajectoryHistories } from './trajectory-schema.js';

function allExcluded(history: ChatHistory): boolean {
  let turns = 0;
  for (const m of history.messages) {
    if (m.role !== 'assistant') continue;
    if (m.weight !== 0) return false;
    turns++;
  }
  return turns > 0;
}

/** The fine-tuning formats `@ftw/agent-data` writes. */
export const OUTPUT_FORMATS = ['openai', 'trl', 'art'] as const;

/** `openai` (chat fine-tuning JSONL, counts as copies), `trl` (conversational with a float `weight`), `art`. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What {@link writeDataset} wrote. */
export interface WrittenDataset {
  /** Lines written. */
  readonly lines: number;
  /** Bytes written. */
  readonly bytes: number;
  /** SHA-256 of the file, hex. */
  readonly sha256: string;
  /** Per item, what was written: copies (openai, art) or the weight (trl). */
  readonly written: Float64Array;
}

/** Options of {@link writeDataset}. */
export interface WriteOptions {
  /** The output format. */
  readonly format: OutputFormat;
  /**
   * The uniform on [0, 1) for the systematic rounding of fractional counts (expected mode, `openai` and
   * `art`); required when a count is not a whole number.
   */
  readonly u?: number;
  /** The exact total of the counts when known (J·K per group without a threshold), kept exactly. */
  readonly total?: number;
}

/**
 * What {@link writeDataset} writes per item for `counts`: the counts themselves for `trl` (a weight) and for
 * whole counts, else their systematic rounding with `options.u` (copies).
 *
 * @param counts - the selection counts, one per item
 * @param options - the format, the rounding uniform and the exact total
 * @returns copies (or the weight, `trl`) per item
 * @throws RangeError for fractional counts without `u`, or a bad `u` or `total`
 * @example
 * ```ts
 * writtenCounts([0.5, 1.5], { format: 'openai', u: 0.7, total: 2 }); // Float64Array [1, 1]
 * ```
 */
export function writtenCounts(counts: ArrayLike<number>, options: WriteOptions): Float64Array {
  if (options.format === 'trl' || Array.from(counts).every(Number.isInteger))
    return Float64Array.from(counts);
  if (options.u === undefined) {
    throw new RangeError('u (a uniform on [0, 1)) is required to round fractional counts for this format');
  }
  return Float64Array.from(systematicRound(counts, options.u, options.total));
}

/**
 * Writes the selected runs as a fine-tuning file, streaming (one line in memory at a time), to a temporary
 * file renamed into place, so a failed write never leaves a half file at `path`. Runs appear in window
 * order (oldest first), copies of one run next to each other; a run with count 0 is not written.
 *
 * Counts: `trl` writes each run once with `weight` = its count. `openai` and `art` have no fractional
 * weight, so a count of m is m copies; fractional counts are first rounded by {@link systematicRound}
 * with `u` (each within 1 of its count; the total exactly `total` when given).
 *
 * A run with additional histories (sub-agents' conversations) is, in `openai` and `trl`, one line per
 * conversation (its main one, then each history, in the order of `trajectoryHistories`), each with the
 * run's copies or weight: the run's count applies to every conversation it holds. In `art` the histories
 * stay in the run's line, as `additional_histories`. A conversation whose assistant turns are all logged
 * with OpenAI's `weight: 0` is not written in `openai` and `trl` (it would train on nothing).
 *
 * @param path - the output file
 * @param items - the window's trajectories
 * @param counts - their counts (from `selectDataset`)
 * @param options - format and rounding uniform
 * @returns lines, bytes, SHA-256 and what was written per item
 * @throws RangeError for an unknown format, a length mismatch, or fractional counts without `u`
 * @example
 * ```ts
 * await writeDataset('sft.jsonl', items, counts, { format: 'openai' }); // { lines: 128, bytes: …, sha256: '…' }
 * ```
 */
export async function writeDataset(
  path: string,
  items: readonly Trajectory[],
  counts: ArrayLike<number>,
  options: WriteOptions,
): Promise<WrittenDataset> {
  const format = options?.format;
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new RangeError(`format must be one of ${OUTPUT_FORMATS.join(', ')}, got ${describeValue(format)}`);
  }
  if (counts.length !== items.length) {
    throw new RangeError(`counts must have one entry per item (${items.length}), got ${counts.length}`);
  }
  const written = writtenCounts(counts, options);
  const temporary = `${path}.tmp-${process.pid}`;
  const stream = createWriteStream(temporary, { encoding: 'utf8' });
  const hash = createHash('sha256');
  let lines = 0;
  let bytes = 0;
  const write = async (text: string): Promise<void> => {
    hash.update(text);
    bytes += Buffer.byteLength(text);
    if (!stream.write(text)) await once(stream, 'drain');
  };
  try {
    for (let i = 0; i < items.length; i++) {
      const c = written[i]!;
      if (!(c > 0)) continue;
      const t = items[i]!;
      if (format === 'art') {
        const line = `${JSON.stringify(toArtRecord(t))}\n`;
        for (let k = 0; k < c; k++) await write(line);
        lines += c;
        continue;
      }
      // One line per conversation of the run (its main one, then its additional histories); a
      // conversation whose assistant turns are all excluded (weight 0) would train on nothing: left out.
      for (const history of trajectoryHistories(t)) {
        if (allExcluded(history)) continue;
        if (format === 'trl') {
          for (const record of toTrlRecords(history, c)) {
            await write(`${JSON.stringify(record)}\n`);
            lines++;
          }
          continue;
        }
        const line = `${JSON.stringify(toOpenAIRecord(history))}\n`;
        for (let k = 0; k < c; k++) await write(line);
        lines += c;
      }
    }
    stream.end();
    await once(stream, 'finish');
    await rename(temporary, path);
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
  return { lines, bytes, sha256: hash.digest('hex'), written };
}
