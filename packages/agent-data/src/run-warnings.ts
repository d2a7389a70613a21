import type { ChatMessage, Trajectory } from './trajectory-schema.js';

/**
 * What a valid run may still get wrong for training, checked on every conversation of the run:
 *
 * - `no-final-answer`: the conversation does not end with an assistant answer (it ends on a tool call, a
 *   tool result or a user message), so a fine-tuning set would teach a half-finished turn;
 * - `undeclared-tool`: an assistant turn calls a tool that the conversation's `tools` (else the run's) do
 *   not declare, so the model would learn to call a tool it is never shown;
 * - `duplicate-tool-call-id`: two tool calls share an id, so their results cannot be told apart.
 */
export const RUN_WARNINGS = ['no-final-answer', 'undeclared-tool', 'duplicate-tool-call-id'] as const;

/** One of {@link RUN_WARNINGS}. */
export type RunWarningKind = (typeof RUN_WARNINGS)[number];

/** A warning about one run: its kind, and where and what, for people. */
export interface RunWarning {
  readonly kind: RunWarningKind;
  /** The field path and the value, e.g. `messages[3] is a tool message`. */
  readonly detail: string;
}

/**
 * The warnings of a validated run, at most one of each kind (the first place it occurs).
 *
 * @param trajectory - a validated trajectory
 * @returns its warnings, in the order of {@link RUN_WARNINGS}
 * @example
 * ```ts
 * runWarnings({ id: 'a', task: 't', reward: 1, messages: [{ role: 'user', content: 'hi' }] });
 * // [{ kind: 'no-final-answer', detail: 'messages[0] (the last) is a user message, not an assistant answer' }]
 * ```
 */
export function runWarnings(trajectory: Trajectory): RunWarning[] {
  // On the reader's hot path: no allocation for a run without tool calls that ends with an answer.
  let found: Map<RunWarningKind, string> | undefined;
  const note = (kind: RunWarningKind, detail: string): void => {
    found ??= new Map();
    if (!found.has(kind)) found.set(kind, detail);
  };
  checkConversation(trajectory.messages, trajectory.tools, 'messages', note);
  const histories = trajectory.additionalHistories;
  if (histories !== undefined) {
    for (let h = 0; h < histories.length; h++) {
      const history = histories[h]!;
      const where = `additionalHistories[${h}].messages`;
      checkConversation(history.messages, history.tools ?? trajectory.tools, where, note);
    }
  }
  if (found === undefined) return [];
  const warnings: RunWarning[] = [];
  for (const kind of RUN_WARNINGS) {
    const detail = found.get(kind);
    if (detail !== undefined) warnings.push({ kind, detail });
  }
  return warnings;
}

/** More tool calls than any one message holds (2^20), and small enough that i × it + c stays exact. */
const CALL_SLOTS = 2 ** 20;

function checkConversation(
  messages: readonly ChatMessage[],
  tools: Trajectory['tools'],
  where: string,
  note: (kind: RunWarningKind, detail: string) => void,
): void {
  const index = messages.length - 1;
  const last = messages[index]!;
  if (last.role !== 'assistant') {
    note(
      'no-final-answer',
      `${where}[${index}] (the last) is a ${last.role} message, not an assistant answer`,
    );
  } else if (last.tool_calls !== undefined && last.tool_calls.length > 0) {
    note(
      'no-final-answer',
      `${where}[${index}] (the last) calls ${last.tool_calls[0]!.function.name} and no answer follows`,
    );
  }
  // A call's place as one number, message index × CALL_SLOTS + call index: paths are built only for a warning.
  const path = (at: number): string =>
    `${where}[${Math.floor(at / CALL_SLOTS)}].tool_calls[${at % CALL_SLOTS}]`;
  let ids: Map<string, number> | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || m.tool_calls === undefined) continue;
    for (let c = 0; c < m.tool_calls.length; c++) {
      const call = m.tool_calls[c]!;
      const at = i * CALL_SLOTS + c;
      if (tools === undefined || !tools.some((t) => t.function.name === call.function.name)) {
        const list =
          tools === undefined || tools.length === 0
            ? 'declares no tools'
            : `declares ${tools.map((t) => t.function.name).join(', ')}`;
        note(
          'undeclared-tool',
          `${path(at)} calls ${JSON.stringify(call.function.name)}, but the run ${list}`,
        );
      }
      ids ??= new Map();
      const previous = ids.get(call.id);
      if (previous !== undefined) {
        note(
          'duplicate-tool-call-id',
          `${path(at)}.id ${JSON.stringify(call.id)} is also ${path(previous)}.id`,
        );
      }
      ids.set(call.id, at);
    }
  }
}
