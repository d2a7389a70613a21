/** One run as the view reads it: the contents of a run folder written by `train`, `compare` or `reproduce`. */
export interface RunData {
  /** The run's name (its folder's name). */
  readonly name: string;
  /** `config.json`: the command, the resolved configuration and provenance. */
  readonly config: Readonly<Record<string, unknown>>;
  /** `metrics.ndjson`, one object per line: seed, iteration, samples and the per-iteration metrics. */
  readonly metrics: readonly Readonly<Record<string, unknown>>[];
  /** `summary.json`. */
  readonly summary: unknown;
  /** What the reader found wrong but could draw around (a cut last line), shown on the page. */
  readonly notices?: readonly string[];
}
