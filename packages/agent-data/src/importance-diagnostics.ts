import { AgentDataError } from './agent-data-error.js';
import { readJsonlLines } from './jsonl-lines.js';
import { kind } from './record-fields.js';
import { assistantTurns, type Trajectory } from './trajectory-schema.js';

/** Importance-weight diagnostics of a selection (runs with traces and current log-probabilities). */
export interface ImportanceDiagnostics {
  /** Selected runs whose every assistant turn has a behaviour trace. */
  readonly traced: number;
  /** Of those, runs found in the current log-probability file with matching token counts. */
  readonly matched: number;
  /** Runs in the file whose turn or token counts did not match the trace (skipped). */
  readonly mismatched: number;
  /** Per matched run: log w(τ) = Σ_t (log π_θ(a_t | h_t) − log q_{v_t}(a_t | h_t)). */
  readonly logWeights: readonly { readonly id: string; readonly logWeight: number }[];
  /** Effective sample size of the selection, (Σ c_i w_i)² / Σ c_i w_i², with counts c_i as multiplicities. */
  readonly ess: number;
  /** ESS over Σ c_i of the matched runs: 1 on-policy, near 0 far off-policy. */
  readonly essFraction: number;
  /** Smallest and largest behaviour policy version among the selected turns, when recorded. */
  readonly versions: { readonly min: number; readonly max: number } | undefined;
}

/**
 * Importance diagnostics for selected runs that carry behaviour log-probabilities (`trace.logprobs` per
 * assistant turn) against the current policy's log-probabilities of the same tokens, supplied as JSONL:
 * `{ "id": "...", "logprobs": [[...turn 1 tokens...], [...turn 2...], ...] }`, one array per traced
 * assistant turn, in the order of `assistantTurns` (the main conversation's turns, then each additional
 * history's). Per run
 *
 *   log w(τ) = Σ_t Σ_tokens (log π_θ − log q_{v_t})
 *
 * (the trajectory importance weight of the research note, in log space), and the effective sample size of
 * the selection with multiplicities, ESS = (Σ c_i w_i)² / Σ c_i w_i², computed with the largest log w
 * factored out so it neither overflows nor underflows. FTW imitates winners without importance weights:
 * these say how off-policy the selected data is, nothing more.
 *
 * @param items - the window's trajectories
 * @param counts - their selection counts
 * @param current - path (or chunks) of the current-policy log-probability JSONL
 * @returns the diagnostics (file lines for unselected or untraced runs are ignored)
 * @throws AgentDataError `BAD_LINE` for a line that is not `{ id, logprobs: number[][] }`
 * @example
 * ```ts
 * const d = await importanceDiagnostics(items, counts, 'current-logprobs.jsonl');
 * d.essFraction; // 0.93
 * ```
 */
export async function importanceDiagnostics(
  items: readonly Trajectory[],
  counts: ArrayLike<number>,
  current: string | AsyncIterable<Uint8Array | string>,
): Promise<ImportanceDiagnostics> {
  const traced = new Map<string, { trajectory: Trajectory; count: number }>();
  let vMin = Number.POSITIVE_INFINITY;
  let vMax = Number.NEGATIVE_INFINITY;
  items.forEach((t, i) => {
    const count = counts[i]!;
    if (!(count > 0)) return;
    const turns = assistantTurns(t);
    if (turns.length === 0 || turns.some((m) => m.trace === undefined)) return;
    traced.set(t.id, { trajectory: t, count });
    for (const m of turns) {
      const v = m.trace!.policyVersion;
      if (v !== undefined) {
        vMin = Math.min(vMin, v);
        vMax = Math.max(vMax, v);
      }
    }
  });
  const name = typeof current === 'string' ? current : '<stream>';
  const logWeights: { id: string; logWeight: number; count: number }[] = [];
  let mismatched = 0;
  for await (const { text, line } of readJsonlLines(current)) {
    let record: { id?: unknown; logprobs?: unknown };
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new AgentDataError('BAD_LINE', `${name}:${line}: invalid JSON: ${(error as Error).message}`);
    }
    if (typeof record?.id !== 'string' || !Array.isArray(record.logprobs)) {
      const field = typeof record?.id !== 'string' ? 'id' : 'logprobs';
      const value = (record as Record<string, unknown> | null)?.[field];
      throw new AgentDataError(
        'BAD_LINE',
        `${name}:${line}: ${field} must be ${field === 'id' ? 'a string' : 'an array of arrays of numbers'}, got ${kind(value)} (a line is { "id": string, "logprobs": number[][] })`,
      );
    }
    const entry = traced.get(record.id);
    if (entry === undefined) continue;
    traced.delete(record.id);
    const turns = assistantTurns(entry.trajectory);
    const lw = logWeight(
      turns.map((m) => m.trace!.logprobs),
      record.logprobs,
    );
    if (lw === undefined) mismatched++;
    else logWeights.push({ id: record.id, logWeight: lw, count: entry.count });
  }
  let top = Number.NEGATIVE_INFINITY;
  for (const w of logWeights) top = Math.max(top, w.logWeight);
  let sum = 0;
  let sumSquares = 0;
  let totalCount = 0;
  for (const w of logWeights) {
    const x = Math.exp(w.logWeight - top);
    sum += w.count * x;
    sumSquares += w.count * x * x;
    totalCount += w.count;
  }
  const ess = sumSquares > 0 ? (sum * sum) / sumSquares : 0;
  const tracedCount = logWeights.length + mismatched + traced.size;
  return {
    traced: tracedCount,
    matched: logWeights.length,
    mismatched,
    logWeights: logWeights.map(({ id, logWeight }) => ({ id, logWeight })),
    ess,
    essFraction: totalCount > 0 ? ess / totalCount : 0,
    versions: Number.isFinite(vMin) ? { min: vMin, max: vMax } : undefined,
  };
}

/** Σ (current − behaviour) over every token, or undefined when the shapes differ or a value is not finite. */
function logWeight(behaviour: readonly (readonly number[])[], current: unknown[]): number | undefined {
  if (current.length !== behaviour.length) return undefined;
  let total = 0;
  for (let t = 0; t < behaviour.length; t++) {
    const q = behaviour[t]!;
    const p = current[t];
    if (!Array.isArray(p) || p.length !== q.length) return undefined;
    for (let k = 0; k < q.length; k++) {
      const x = p[k];
      if (typeof x !== 'number' || !Number.isFinite(x)) return undefined;
      total += x - q[k]!;
    }
  }
  return total;
}
