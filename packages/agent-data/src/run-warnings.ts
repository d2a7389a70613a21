import { type Trajectory, trajectoryHistories } from './trajectory-schema.js';

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
  const found = new Map<RunWarningKind, string>();
  const note = (kind: RunWarningKind, detail: string): void => {
    if (!found.has(kind)) found.set(kind, detail);
  };
  trajectoryHistories(trajectory).forEach((history, h) => {
    const where = h === 0 ? 'messages' : `additionalHistories[${h - 1}].messages`;
    const last = history.messages[history.messages.length - 1]!;
    const index = history.messages.length - 1;
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
    const tools = history.tools ?? (h === 0 ? undefined : trajectory.tools);
    const declared = new Set((tools ?? []).map((t) => t.function.name));
    const ids = new Map<string, string>();
    history.messages.forEach((m, i) => {
      if (m.role !== 'assistant' || m.tool_calls === undefined) return;
      m.tool_calls.forEach((call, c) => {
        const path = `${where}[${i}].tool_calls[${c}]`;
        if (!declared.has(call.function.name)) {
          const list = declared.size === 0 ? 'declares no tools' : `declares ${[...declared].join(', ')}`;
          note('undeclared-tool', `${path} calls ${JSON.stringify(call.function.name)}, but the run ${list}`);
        }
        const previous = ids.get(call.id);
        if (previous !== undefined) {
          note('duplicate-tool-call-id', `${path}.id ${JSON.stringify(call.id)} is also ${previous}.id`);
        }
        ids.set(call.id, path);
      });
    });
  });
  return RUN_WARNINGS.flatMap((kind) => {
    const detail = found.get(kind);
    return detail === undefined ? [] : [{ kind, detail }];
  });
}
