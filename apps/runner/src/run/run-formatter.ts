import { reportPage } from '../view/report-page.js';
import type { RunData } from '../view/run-data.js';
import { RunRowCollector } from '../view/view-model.js';
import { ndjson } from './ndjson.js';

/** What `report.html` shows besides the metric rows. */
export interface PageInput {
  /** The run's name (its folder's name). */
  readonly name: string;
  /** `config.json`'s object: the command, the resolved configuration and provenance. */
  readonly config: Readonly<Record<string, unknown>>;
  /** `summary.json`'s value. */
  readonly summary: unknown;
}

/** The two large files of a run, as UTF-8 bytes that own their buffers (so they can be transferred). */
export interface FormattedRun {
  /** `metrics.ndjson`. */
  readonly metrics: Uint8Array;
  /** `report.html`, or null when no page was asked for. */
  readonly page: Uint8Array | null;
}

/** UTF-8 bytes of a text in a buffer of their own (Buffer.from may hand out a slice of a shared pool). */
function ownBytes(text: string): Uint8Array {
  const bytes = Buffer.from(text);
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  return new Uint8Array(bytes);
}

/**
 * Formats the two large files of a run from its metric rows, taken batch by batch as they are made (one
 * seed's rows at a time): `metrics.ndjson` (each batch's lines are made when the batch arrives) and
 * `report.html` (the `ftw view` page of the run: its rows are grouped by seed as they arrive, the rest is
 * made at the end, when every row is known).
 *
 * `ftw train --seeds 0..99` formats 24,000 rows of some fifteen fields: 9 MB of text, most of it the
 * shortest round-trip digits of doubles, and a page whose model reads every row. A run formats them on a
 * worker thread (see {@link startRunFormatting}) while the seeds train; this class is what that thread runs,
 * and what runs in place where the worker's script is not built.
 *
 * @example
 * ```ts
 * const formatter = new RunFormatter();
 * formatter.add([{ seed: 0, iteration: 1, samples: 1, reward: 0.5 }]);
 * new TextDecoder().decode(formatter.finish(null).metrics); // '{"seed":0,"iteration":1,"samples":1,"reward":0.5}\n'
 * ```
 */
export class RunFormatter {
  readonly #rows: Readonly<Record<string, unknown>>[] = [];
  /** The page's grouping of the rows, made batch by batch so that little is left for the end. */
  readonly #collector: RunRowCollector;
  readonly #chunks: Uint8Array[] = [];
  #bytes = 0;
  #finished = false;

  /**
   * @param options - `seedCurves`: how many seeds of one configuration the rows will hold, when known (a
   *   `train` run's seeds): each seed's curves on the page are then thinned as soon as its rows are in
   * @throws RangeError when `seedCurves` is not an integer ≥ 1
   */
  constructor(options: { readonly seedCurves?: number } = {}) {
    this.#collector = new RunRowCollector(
      options.seedCurves === undefined ? {} : { seedCurves: options.seedCurves },
    );
  }

  /**
   * Formats a batch of rows into `metrics.ndjson`'s lines and keeps them for the page.
   *
   * @param rows - the next rows, in file order (plain objects, as JSON.stringify writes them)
   * @throws Error after {@link RunFormatter.finish}
   * @throws TypeError from JSON.stringify on a cycle or a BigInt
   */
  add(rows: readonly object[]): void {
    if (this.#finished) throw new Error('RunFormatter.add: the run is already formatted');
    if (rows.length === 0) return;
    const chunk = Buffer.from(ndjson(rows));
    this.#chunks.push(chunk);
    this.#bytes += chunk.byteLength;
    const records = rows as readonly Readonly<Record<string, unknown>>[];
    for (const row of records) this.#rows.push(row);
    this.#collector.add(records);
  }

  /**
   * The formatted files. Ends the formatter: later calls of either method throw.
   *
   * @param page - what the page shows besides the rows, or null for no page
   * @returns `metrics.ndjson` (every row added, in order) and `report.html` (or null)
   * @throws Error when called twice, or from {@link reportPage} (the page script is not built)
   */
  finish(page: PageInput | null): FormattedRun {
    if (this.#finished) throw new Error('RunFormatter.finish: the run is already formatted');
    this.#finished = true;
    const metrics = new Uint8Array(this.#bytes);
    let at = 0;
    for (const chunk of this.#chunks) {
      metrics.set(chunk, at);
      at += chunk.byteLength;
    }
    this.#chunks.length = 0;
    const run: RunData | null = page === null ? null : { ...page, metrics: this.#rows };
    return { metrics, page: run === null ? null : ownBytes(reportPage([run], [this.#collector])) };
  }
}
