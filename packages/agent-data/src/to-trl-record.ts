import type { ChatHistory, ChatMessage, Trajectory } from './trajectory-schema.js';

/** A TRL message: role, content, and `tool_calls` (arguments as objects) or a tool's `name`. */
export type TrlMessage = Record<string, unknown>;

/**
 * One line of a TRL dataset with a per-example weight: conversational language modelling (`messages`),
 * or, for a conversation with an excluded turn, conversational prompt-completion (`prompt`, `completion`).
 */
export type TrlRecord =
  | { messages: TrlMessage[]; tools?: Trajectory['tools']; weight: number }
  | { prompt: TrlMessage[]; completion: TrlMessage[]; tools?: Trajectory['tools']; weight: number };

/**
 * A conversation as TRL reads it (https://huggingface.co/docs/trl/dataset_formats, "Tool Calling"): the
 * messages, with the tools as a `tools` column, and a float `weight`, the FTW count itself (fractional in
 * expected mode; TRL's trainers do not read it: see the package's docs/formats.md for a collator that
 * does). Messages follow TRL's documented tool-calling example: an assistant turn's `tool_calls` are
 * `{ type: 'function', function: { name, arguments } }` with the arguments parsed into an object (kept as
 * a string when not valid JSON) and no `content` when it had no text; a tool message carries the `name` of
 * the tool it answers. The call `id` and the tool message's `tool_call_id` are kept as well, since some
 * chat templates (Mistral's) pair calls with results by them.
 *
 * A conversation whose assistant turns are all trained on is one `{ messages, tools?, weight }` record.
 * TRL has no per-turn weight, so a conversation with a turn logged as `weight: 0` (OpenAI's "do not train
 * on this turn") becomes one conversational prompt-completion record per trained turn, `{ prompt: every
 * message before it, completion: [the turn] }`: SFTTrainer computes the loss on the completion only, so
 * the excluded turn is context and never a target, and each trained turn is a target exactly once.
 *
 * @param trajectory - a validated trajectory (its main conversation), or one conversation of it
 * @param weight - the run's count
 * @returns the records (one, unless a turn is excluded; none when every assistant turn is excluded)
 * @example
 * ```ts
 * toTrlRecords(t, 2.5); // [{ messages: [...], weight: 2.5 }]
 * ```
 */
export function toTrlRecords(trajectory: ChatHistory, weight: number): TrlRecord[] {
  const names = new Map<string, string>();
  const messages = trajectory.messages.map((m) => trlMessage(m, names));
  const tools =
    trajectory.tools !== undefined && trajectory.tools.length > 0 ? { tools: trajectory.tools } : {};
  if (!trajectory.messages.some((m) => m.role === 'assistant' && m.weight === 0)) {
    return [{ messages, ...tools, weight }];
  }
  const records: TrlRecord[] = [];
  trajectory.messages.forEach((m, i) => {
    if (m.role === 'assistant' && m.weight !== 0) {
      records.push({ prompt: messages.slice(0, i), completion: [messages[i]!], ...tools, weight });
    }
  });
  return records;
}

function trlMessage(m: ChatMessage, names: Map<string, string>): TrlMessage {
  switch (m.role) {
    case 'assistant': {
      const out: TrlMessage = { role: 'assistant' };
      if (m.content !== undefined && m.content !== null) out['content'] = m.content;
      else if (m.tool_calls === undefined || m.tool_calls.length === 0) out['content'] = '';
      if (m.tool_calls !== undefined && m.tool_calls.length > 0) {
        out['tool_calls'] = m.tool_calls.map((call) => {
          names.set(call.id, call.function.name);
          return {
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: parseArguments(call.function.arguments) },
          };
        });
      }
      if (m.name !== undefined) out['name'] = m.name;
      return out;
    }
    case 'tool': {
      const name = names.get(m.tool_call_id);
      return name === undefined
        ? { role: 'tool', tool_call_id: m.tool_call_id, content: m.content }
        : { role: 'tool', name, tool_call_id: m.tool_call_id, content: m.content };
    }
    default:
      return m.name === undefined
        ? { role: m.role, content: m.content }
        : { role: m.role, content: m.content, name: m.name };
  }
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
