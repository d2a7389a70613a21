import { createRequire } from 'node:module';

/** Reports how far a long computation has come. */
export interface Progress {
  /**
   * Advances by `steps` units.
   * @param steps - units done since the last call
   * @param detail - short text shown with the bar (e.g. the current seed)
   */
  tick(steps: number, detail?: string): void;
  /** Ends the display (the bar stays on screen at its final state). */
  stop(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** What is being done, printed before the bar or at the start of each line. */
  readonly label: string;
  /** Total units. */
  readonly total: number;
  /** Print nothing. @defaultValue false */
  readonly quiet?: boolean;
  /** Where to print. @defaultValue process.stderr */
  readonly stream?: NodeJS.WriteStream;
  /** Plain lines are printed each time another `1 / lines` of the total is done. @defaultValue 10 */
  readonly lines?: number;
}

const SILENT: Progress = { tick() {}, stop() {} };

/**
 * A progress bar on a terminal, plain periodic lines otherwise (logs, CI), nothing with `quiet`.
 *
 * Progress goes to stderr so that stdout carries only results (`--json` output stays parseable).
 *
 * @param options - label, total and where to print
 * @returns the progress reporter
 * @example
 * ```ts
 * const p = createProgress({ label: 'reproduce', total: 720 });
 * p.tick(240, 'seed 0'); // non-TTY stderr: "reproduce: 33% (240/720) seed 0"
 * p.stop();
 * ```
 */
export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet === true || options.total <= 0) return SILENT;
  const stream = options.stream ?? process.stderr;
  const total = options.total;
  if (stream.isTTY === true) {
    // Loaded only when a bar is drawn: the package and its dependencies take some 20 ms to load, a
    // noticeable share of a short run that prints plain lines or nothing.
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${options.label} [{bar}] {percentage}% | {value}/{total} | {detail}`,
        hideCursor: true,
        clearOnComplete: false,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { detail: '' });
    let done = 0;
    return {
      tick(steps, detail = '') {
        done += steps;
        bar.update(done, { detail });
      },
      stop() {
        bar.stop();
      },
    };
  }
  const lines = options.lines ?? 10;
  let done = 0;
  let printed = 0;
  return {
    tick(steps, detail = '') {
      done += steps;
      const due = Math.floor((done / total) * lines + 1e-9);
      if (due > printed) {
        printed = due;
        const pct = Math.round((100 * done) / total);
        stream.write(`${options.label}: ${pct}% (${done}/${total})${detail === '' ? '' : ` ${detail}`}\n`);
      }
    },
    stop() {},
  };
}
