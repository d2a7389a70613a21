import { describeValue } from '@ftw/internal';
import { AgentDataError } from './agent-data-error.js';
import type { LoggedTrajectory } from './open-trajectories.js';
import type { Trajectory } from './trajectory-schema.js';

/** The newest N trajectories of a log, oldest first: FTW's FIFO pool over logged runs. */
export interface TrajectoryWindow {
  /** The kept trajectories, oldest first (by order key, then line). */
  readonly items: readonly LoggedTrajectory[];
  /** Trajectories seen in the stream. */
  readonly seen: number;
  /** Trajectories older than the newest `capacity`, dropped. */
  readonly evicted: number;
}

/**
 * The FIFO order key of a run: its `sequence`, else its `createdAt` in milliseconds, else its line number.
 * A log uses one of them throughout ({@link collectWindow} refuses a mix); ties are broken by line.
 *
 * @param logged - a trajectory with its line
 * @returns the key (larger is newer)
 * @example
 * ```ts
 * orderKey({ trajectory: { ...t, sequence: 42 }, line: 7 }); // 42
 * ```
 */
export function orderKey(logged: LoggedTrajectory): number {
  // Keep in step with orderField.
  const t = logged.trajectory;
  if (t.sequence !== undefined) return t.sequence;
  if (t.createdAt !== undefined) return Date.parse(t.createdAt);
  return logged.line;
}

type OrderField = 'sequence' | 'createdAt' | 'line';

/** Which field {@link orderKey} reads for a run. */
function orderField(t: Trajectory): OrderField {
  return t.sequence !== undefined ? 'sequence' : t.createdAt !== undefined ? 'createdAt' : 'line';
}

const ORDER_FIELD_TEXT: Record<OrderField, string> = {
  sequence: 'by sequence',
  createdAt: 'by createdAt (no sequence)',
  line: 'by file order (neither sequence nor createdAt)',
};

/**
 * A kept run: the flat JSON text when the reader had it (cheap for the garbage collector to hold and drop:
 * one string instead of hundreds of objects that would be promoted and later evicted), else the object.
 */
interface Entry {
  readonly line: number;
  readonly text: string | undefined;
  readonly item: LoggedTrajectory | undefined;
}

function newer(a: Entry, ka: number, b: Entry, kb: number): boolean {
  return ka > kb || (ka === kb && a.line > b.line);
}

function toEntry(item: LoggedTrajectory): Entry {
  return item.text === undefined
    ? { line: item.line, text: undefined, item }
    : { line: item.line, text: item.text, item: undefined };
}

function toItem(entry: Entry): LoggedTrajectory {
  // The text is the JSON of a trajectory the reader validated: parsing it gives that trajectory back.
  return entry.item ?? { trajectory: JSON.parse(entry.text!) as Trajectory, line: entry.line };
}

/**
 * Keeps the newest `capacity` trajectories of a stream, in memory bounded by `capacity` whatever the
 * length of the log: a binary min-heap on the order key ({@link orderKey}) holds the window, and a run
 * older than the oldest kept one is dropped at once. O(log N) per run.
 *
 * "Newest" is defined by one field for the whole log: every run's `sequence` (a run with both fields is
 * ordered by `sequence`), or every run's `createdAt`, or, when no run has either, the file order. A log
 * that mixes them (some runs with a `sequence` and others without, or some with only a `createdAt` and
 * others with neither) has no single order, since a sequence number, a time and a line number are not
 * comparable: it is refused with `MIXED_ORDER`, naming the first line of each kind. Runs whose line text is their JSON
 * (native lines) are held as that text and parsed back once at the end.
 *
 * @param stream - trajectories with their lines (from `openTrajectories`)
 * @param options - `capacity` N, a positive integer
 * @returns the window, oldest first
 * @throws RangeError for a bad capacity; AgentDataError `EMPTY_WINDOW` when the stream held no trajectory,
 * `DUPLICATE_ID` when two kept trajectories share an id, `MIXED_ORDER` when runs are ordered by different
 * fields
 * @example
 * ```ts
 * const window = await collectWindow(openTrajectories('runs.jsonl'), { capacity: 1000 });
 * window.items.length; // min(1000, valid runs)
 * ```
 */
export async function collectWindow(
  stream: AsyncIterable<LoggedTrajectory>,
  options: { readonly capacity: number },
): Promise<TrajectoryWindow> {
  const capacity = options?.capacity;
  if (!Number.isSafeInteger(capacity) || capacity < 1) {
    throw new RangeError(`capacity must be a positive integer, got ${describeValue(capacity)}`);
  }
  const heap: Entry[] = [];
  const keys: number[] = [];
  let seen = 0;
  let field: { name: OrderField; line: number } | undefined;
  for await (const item of stream) {
    seen++;
    const name = orderField(item.trajectory);
    if (field === undefined) field = { name, line: item.line };
    else if (name !== field.name) {
      throw new AgentDataError(
        'MIXED_ORDER',
        `the runs are ordered in two ways: line ${field.line} ${ORDER_FIELD_TEXT[field.name]}, line ${item.line} ${ORDER_FIELD_TEXT[name]}; give every run a sequence, or every run a createdAt, or none of them either (file order)`,
      );
    }
    const key = orderKey(item);
    if (heap.length < capacity) {
      heap.push(toEntry(item));
      keys.push(key);
      siftUp(heap, keys, heap.length - 1);
    } else if (key > keys[0]! || (key === keys[0]! && item.line > heap[0]!.line)) {
      heap[0] = toEntry(item);
      keys[0] = key;
      siftDown(heap, keys, 0);
    }
  }
  if (heap.length === 0) throw new AgentDataError('EMPTY_WINDOW', 'the input holds no valid trajectory');
  const order = heap.map((_, i) => i);
  order.sort((a, b) => keys[a]! - keys[b]! || heap[a]!.line - heap[b]!.line);
  const items = order.map((i) => toItem(heap[i]!));
  const ids = new Map<string, number>();
  for (const { trajectory, line } of items) {
    const previous = ids.get(trajectory.id);
    if (previous !== undefined) {
      throw new AgentDataError(
        'DUPLICATE_ID',
        `trajectory id ${JSON.stringify(trajectory.id)} appears on lines ${previous} and ${line}; ids must be unique`,
      );
    }
    ids.set(trajectory.id, line);
  }
  return { items, seen, evicted: seen - items.length };
}

// A hand-written heap, not an npm one: on the window's pattern (bench/heap-choice.mjs, 10^6 runs, N = 10^4)
// tinyqueue 3.0.0 took 1.45–1.51× and heap-js 2.7.2 1.3–2.7× this one's time over three runs, and either
// would be a third runtime dependency of a package that names only @ftw/selection and zod.
function siftUp(heap: Entry[], keys: number[], i: number): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!newer(heap[parent]!, keys[parent]!, heap[i]!, keys[i]!)) break;
    swap(heap, keys, i, parent);
    i = parent;
  }
}

function siftDown(heap: Entry[], keys: number[], i: number): void {
  const n = heap.length;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) return;
    let oldest = left;
    const right = left + 1;
    if (right < n && newer(heap[left]!, keys[left]!, heap[right]!, keys[right]!)) oldest = right;
    if (!newer(heap[i]!, keys[i]!, heap[oldest]!, keys[oldest]!)) return;
    swap(heap, keys, i, oldest);
    i = oldest;
  }
}

function swap(heap: Entry[], keys: number[], a: number, b: number): void {
  const t = heap[a]!;
  heap[a] = heap[b]!;
  heap[b] = t;
  const k = keys[a]!;
  keys[a] = keys[b]!;
  keys[b] = k;
}
