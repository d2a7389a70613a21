import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { describeValue } from '@ftw/internal';

/** One line of a JSONL input: its text (without the line break) and its 1-based line number. */
export interface JsonlLine {
  readonly text: string;
  readonly line: number;
}

/** What {@link readJsonlLines} has seen so far; final once the iteration ends. */
export interface JsonlProgress {
  /** Bytes read from the input. */
  bytes: number;
  /** Lines seen, blank ones included. */
  lines: number;
  /** Lines longer than `maxLineBytes`, skipped (each is also passed to `onOverlong`). */
  overlong: number;
  /** SHA-256 of every byte read, as hex; set when the input has been read to its end. */
  sha256: string | undefined;
}

/** Options of {@link readJsonlLines}. */
export interface JsonlLinesOptions {
  /**
   * A line longer than this many bytes is not held in memory: it is skipped and reported to `onOverlong`.
   * @defaultValue 67108864 (64 MiB)
   */
  readonly maxLineBytes?: number;
  /** Called with the number of each skipped over-long line. */
  readonly onOverlong?: (line: number) => void;
  /** Called after each chunk with the progress so far (for a progress bar). */
  readonly onChunk?: (progress: Readonly<JsonlProgress>) => void;
  /** Size of the read chunks of a file path input. @defaultValue 1048576 (1 MiB) */
  readonly chunkBytes?: number;
}

const NEWLINE = 10;
const BYTE_ORDER_MARK = 0xfeff;
const CARRIAGE_RETURN = 13;
const DEFAULT_MAX_LINE = 64 * 1024 * 1024;

/**
 * Reads a JSONL input line by line in memory bounded by the longest line (not by the file), hashing every
 * byte with SHA-256 on the way. Blank lines are skipped (but counted, so line numbers match an editor's);
 * a final `\r` is dropped (CRLF files), and so is a UTF-8 byte-order mark opening the input (as some
 * Windows tools write; the hash still covers its bytes). A manual splitter over the byte chunks, exact
 * about UTF-8 characters split between chunks, rather than `node:readline`, which has no line-length
 * limit, keeps the mark and is slower: `node bench/line-splitter.mjs` measured readline (with the same
 * SHA-256 of the bytes) at 4.3–5.4× this reader's time on a 38.6 MB log (two runs), and 334 MiB peak
 * RSS against this reader's 93 MiB on a log with one 128 MiB line (`maxLineBytes` 1 MiB).
 *
 * @param input - a file path, or an async iterable of byte (or string) chunks such as a `Readable`
 * @param progress - an object the reader keeps up to date (bytes, lines, SHA-256 at the end)
 * @param options - line length limit and callbacks
 * @returns an async iterable of non-blank lines with their line numbers
 * @throws TypeError when `input` is neither a path nor an async iterable; RangeError when `maxLineBytes` is
 *   not a positive integer
 * @example
 * ```ts
 * const progress = newJsonlProgress();
 * for await (const { text, line } of readJsonlLines('runs.jsonl', progress)) console.log(line, text.length);
 * progress.sha256; // 'e3b0c442…' once the loop has ended
 * ```
 */
export async function* readJsonlLines(
  input: string | AsyncIterable<Uint8Array | string>,
  progress: JsonlProgress = newJsonlProgress(),
  options: JsonlLinesOptions = {},
): AsyncGenerator<JsonlLine> {
  const source = toChunks(input, options.chunkBytes ?? 1024 * 1024);
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  if (!(Number.isSafeInteger(maxLine) && maxLine >= 1)) {
    throw new RangeError(
      `maxLineBytes must be a positive integer, got ${describeValue(options.maxLineBytes)}`,
    );
  }
  const hash = createHash('sha256');
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let skipping = false;
  // The first line is the only one that may open with a byte-order mark.
  const firstLine = progress.lines + 1;
  const line = (text: string): string => {
    if (progress.lines !== firstLine || text.charCodeAt(0) !== BYTE_ORDER_MARK) return text;
    return /^[ \t]*$/.test(text.slice(1)) ? '' : text.slice(1);
  };
  for await (const raw of source) {
    const chunk =
      typeof raw === 'string'
        ? Buffer.from(raw, 'utf8')
        : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    hash.update(chunk);
    progress.bytes += chunk.length;
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) break;
      progress.lines++;
      if (skipping) {
        skipping = false;
      } else if (carryBytes + (end - start) > maxLine) {
        // A line longer than the limit but within the bytes read so far: skipped all the same.
        carry = [];
        carryBytes = 0;
        progress.overlong++;
        options.onOverlong?.(progress.lines);
      } else {
        let text: string;
        if (carryBytes === 0) {
          text = decode(chunk, start, end);
        } else {
          carry.push(chunk.subarray(start, end));
          const joined = Buffer.concat(carry);
          text = decode(joined, 0, joined.length);
          carry = [];
          carryBytes = 0;
        }
        text = line(text);
        if (text.length > 0) yield { text, line: progress.lines };
      }
      start = end + 1;
    }
    if (start < chunk.length && !skipping) {
      // Copy: the stream may reuse its buffer for the next chunk.
      carry.push(Buffer.from(chunk.subarray(start)));
      carryBytes += chunk.length - start;
      if (carryBytes > maxLine) {
        skipping = true;
        carry = [];
        carryBytes = 0;
        progress.overlong++;
        options.onOverlong?.(progress.lines + 1);
      }
    }
    options.onChunk?.(progress);
  }
  if (carryBytes > 0 || skipping) {
    progress.lines++;
    if (!skipping) {
      const joined = Buffer.concat(carry);
      const text = line(decode(joined, 0, joined.length));
      if (text.length > 0) yield { text, line: progress.lines };
    }
  }
  progress.sha256 = hash.digest('hex');
}

/**
 * A fresh progress record for {@link readJsonlLines}.
 * @returns zero counts and no hash yet
 * @example
 * ```ts
 * newJsonlProgress(); // { bytes: 0, lines: 0, overlong: 0, sha256: undefined }
 * ```
 */
export function newJsonlProgress(): JsonlProgress {
  return { bytes: 0, lines: 0, overlong: 0, sha256: undefined };
}

function decode(buffer: Buffer, start: number, end: number): string {
  const stop = end > start && buffer[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
  // Skip whitespace-only lines cheaply: they are blank for JSONL.
  let first = start;
  while (first < stop && (buffer[first] === 32 || buffer[first] === 9)) first++;
  return first === stop ? '' : buffer.toString('utf8', start, stop);
}

function toChunks(
  input: string | AsyncIterable<Uint8Array | string>,
  chunkBytes: number,
): AsyncIterable<Uint8Array | string> {
  if (typeof input === 'string') return createReadStream(input, { highWaterMark: chunkBytes });
  if (input !== null && typeof input === 'object' && Symbol.asyncIterator in input) return input;
  throw new TypeError(
    `input must be a file path or an async iterable of chunks, got ${describeValue(input)}`,
  );
}
