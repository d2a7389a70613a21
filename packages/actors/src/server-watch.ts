import type { ServerOutage } from './run-faults.js';

/** Options of {@link ServerWatch}. */
export interface ServerWatchOptions {
  /** Pause between heartbeats, in ms. @defaultValue 250 */
  readonly intervalMs?: number;
  /** A heartbeat unanswered for longer than this, in ms, is an outage. @defaultValue 1000 */
  readonly thresholdMs?: number;
}

/** Period of the timer that measures how long this process's event loop was blocked, in ms. */
const TICK_MS = 50;

/**
 * Watches whether a server answers: sends a cheap command (the heartbeat) every `intervalMs`, one at a
 * time, and records an outage when one stays unanswered for more than `thresholdMs`, from when it was
 * sent to when its answer came. The time this process's own event loop was blocked meanwhile (a long
 * update) is measured with a timer and not counted, so a busy learner does not report a server outage.
 * A heartbeat that fails (the connection gave up) counts up to its failure.
 *
 * @example
 * ```ts
 * const watch = new ServerWatch(() => pool.counters());
 * watch.start();
 * // … the run …
 * watch.stop();
 * console.log(watch.outages); // [{ kind: 'server-unreachable', at: 1764912345678, durationMs: 5012 }]
 * ```
 */
export class ServerWatch {
  readonly #ping: () => Promise<unknown>;
  readonly #intervalMs: number;
  readonly #thresholdMs: number;
  readonly #outages: ServerOutage[] = [];
  #running = false;
  #blocked = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * @param ping - the heartbeat: a command that the server answers at once
   * @param options - see {@link ServerWatchOptions}
   * @throws RangeError naming the option when `intervalMs` or `thresholdMs` is not > 0
   */
  constructor(ping: () => Promise<unknown>, options: ServerWatchOptions = {}) {
    const { intervalMs = 250, thresholdMs = 1000 } = options;
    for (const [key, value] of [
      ['intervalMs', intervalMs],
      ['thresholdMs', thresholdMs],
    ] as const) {
      if (!(value > 0)) throw new RangeError(`options.${key} must be > 0, got ${String(value)}`);
    }
    this.#ping = ping;
    this.#intervalMs = intervalMs;
    this.#thresholdMs = thresholdMs;
  }

  /** The outages seen so far, oldest first. */
  get outages(): readonly ServerOutage[] {
    return this.#outages;
  }

  /** Starts the heartbeats (a second call does nothing). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    let last = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      if (now - last > 2 * TICK_MS) this.#blocked += now - last - TICK_MS;
      last = now;
    }, TICK_MS);
    this.#timer.unref?.();
    void this.#beat();
  }

  /** Stops the heartbeats; one in flight is not recorded. */
  stop(): void {
    this.#running = false;
    clearInterval(this.#timer);
  }

  async #beat(): Promise<void> {
    while (this.#running) {
      const at = Date.now();
      const blocked = this.#blocked;
      let failed = false;
      try {
        await this.#ping();
      } catch {
        failed = true;
      }
      if (!this.#running) return;
      const durationMs = Math.round(Date.now() - at - (this.#blocked - blocked));
      if (durationMs > this.#thresholdMs) this.#outages.push({ kind: 'server-unreachable', at, durationMs });
      await new Promise((resolve) => setTimeout(resolve, failed ? this.#thresholdMs : this.#intervalMs));
    }
  }
}
