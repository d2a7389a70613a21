import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { encodeRows, type RowBatch } from './row-batch.js';
import { type FormattedRun, type PageInput, RunFormatter } from './run-formatter.js';

/** A message to the formatter's thread. */
export type FormatterRequest =
  | { readonly kind: 'rows'; readonly rows: readonly object[] }
  | { readonly kind: 'batch'; readonly batch: RowBatch }
  | { readonly kind: 'finish'; readonly page: PageInput | null };

/** The formatter thread's one answer, to `finish`. */
export type FormatterReply =
  | { readonly kind: 'formatted'; readonly metrics: Uint8Array; readonly page: Uint8Array | null }
  | { readonly kind: 'error'; readonly message: string; readonly stack?: string | undefined };

/** A run's formatting in progress (see {@link startRunFormatting}). */
export interface RunFormatting {
  /** Where the files are formatted: a worker thread, or the calling thread. */
  readonly thread: 'worker' | 'inline';
  /** Hands over the next metric rows (the worker receives a copy; the caller may keep the rows). */
  add(rows: readonly object[]): void;
  /**
   * Formats what is left and ends the formatting (the worker thread is stopped).
   *
   * @param page - what `report.html` shows besides the rows, or null for no page
   * @returns `metrics.ndjson` and `report.html` as bytes
   * @throws Error when a batch or the page failed (with the thread's message), or the thread died
   */
  finish(page: PageInput | null): Promise<FormattedRun>;
  /** Abandons the formatting (a failed run): stops the worker thread; resolves once it has stopped. */
  stop(): Promise<void>;
}

/** The worker's script beside this module: dist/run-formatter-worker.js, or null from the sources. */
function builtWorkerScript(): string | null {
  const script = fileURLToPath(new URL('./run-formatter-worker.js', import.meta.url));
  return existsSync(script) ? script : null;
}

/** Options of {@link startRunFormatting}. */
export interface RunFormattingOptions {
  /** The worker's script; null formats on the calling thread; by default the built one when it exists. */
  readonly script?: string | null;
  /** How many seeds of one configuration the rows will hold, when known (see {@link RunFormatter}). */
  readonly seedCurves?: number;
}

class InlineFormatting implements RunFormatting {
  readonly thread = 'inline';
  readonly #formatter: RunFormatter;

  constructor(options: { readonly seedCurves?: number }) {
    this.#formatter = new RunFormatter(options);
  }

  add(rows: readonly object[]): void {
    this.#formatter.add(rows);
  }

  async finish(page: PageInput | null): Promise<FormattedRun> {
    return this.#formatter.finish(page);
  }

  async stop(): Promise<void> {}
}

/**
 * Rows gathered before they cross to the worker: each message wakes the worker's thread, which on a
 * loaded machine costs the sender about a millisecond, so a hundred seeds of 240 rows go in a dozen.
 */
const ROWS_PER_MESSAGE = 2_000;

class WorkerFormatting implements RunFormatting {
  readonly thread = 'worker';
  readonly #worker: Worker;
  /** Rows not sent yet (fewer than {@link ROWS_PER_MESSAGE}). */
  #waiting: object[] = [];
  /** The thread's answer, or how it died; settled once. */
  readonly #reply: Promise<FormatterReply>;

  constructor(script: string, options: { readonly seedCurves?: number }) {
    this.#worker = new Worker(script, { workerData: options });
    // Idle, the thread does not keep the process alive (a command that fails before finishing exits);
    // finish holds it while waiting for the answer.
    this.#worker.unref();
    this.#reply = new Promise<FormatterReply>((resolve, reject) => {
      this.#worker.once('message', resolve);
      this.#worker.once('error', reject);
      this.#worker.once('exit', (code) =>
        reject(new Error(`the run formatter's thread exited (code ${code}) before it answered`)),
      );
    });
    // Read by finish; a run that is abandoned never reads it.
    this.#reply.catch(() => undefined);
  }

  add(rows: readonly object[]): void {
    for (const row of rows) this.#waiting.push(row);
    if (this.#waiting.length >= ROWS_PER_MESSAGE) this.#send();
  }

  #send(): void {
    const rows = this.#waiting;
    if (rows.length === 0) return;
    this.#waiting = [];
    // Flat rows cross as columns, moved rather than copied; others as a structured clone.
    const batch = encodeRows(rows);
    if (batch === null) this.#worker.postMessage({ kind: 'rows', rows } satisfies FormatterRequest);
    else {
      this.#worker.postMessage({ kind: 'batch', batch } satisfies FormatterRequest, [
        batch.types.buffer as ArrayBuffer,
        batch.values.buffer as ArrayBuffer,
      ]);
    }
  }

  async finish(page: PageInput | null): Promise<FormattedRun> {
    this.#worker.ref();
    try {
      this.#send();
      this.#worker.postMessage({ kind: 'finish', page } satisfies FormatterRequest);
      const reply = await this.#reply;
      if (reply.kind === 'error') {
        const error = new Error(`formatting the run's files failed: ${reply.message}`);
        if (reply.stack !== undefined)
          error.stack = `${error.stack}\ncaused on the formatter's thread by ${reply.stack}`;
        throw error;
      }
      return { metrics: reply.metrics, page: reply.page };
    } finally {
      await this.stop();
    }
  }

  async stop(): Promise<void> {
    await this.#worker.terminate();
  }
}

/**
 * Starts formatting a run's two large files, `metrics.ndjson` and `report.html` ({@link RunFormatter}), on
 * a worker thread: the rows are handed over as they are made (one seed's at a time) and formatted while
 * the next seeds train, so that writing a run of many seeds costs the training thread little more than a
 * copy of its rows. Where the worker's script is not built (the runner run from its TypeScript sources, as
 * by its unit tests) the formatter runs on the calling thread instead, with the same result.
 *
 * @param options - `script`: the worker's script; null formats on the calling thread; by default
 *   `run-formatter-worker.js` beside this module when it exists. `seedCurves`: see {@link RunFormatter}
 * @returns the formatting in progress; call `finish` once, or `stop` to abandon it
 * @example
 * ```ts
 * const formatting = startRunFormatting();
 * formatting.add(seedZeroRows);
 * const { metrics, page } = await formatting.finish({ name: 'r', config, summary }); // bytes of both files
 * ```
 */
export function startRunFormatting(options: RunFormattingOptions = {}): RunFormatting {
  const script = options.script === undefined ? builtWorkerScript() : options.script;
  const formatter = options.seedCurves === undefined ? {} : { seedCurves: options.seedCurves };
  return script === null ? new InlineFormatting(formatter) : new WorkerFormatting(script, formatter);
}
