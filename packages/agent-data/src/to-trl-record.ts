import { chatFields } from './to-openai-record.js';
import type { ChatHistory, Trajectory } from './trajectory-schema.js';

/** One line of a TRL conversational dataset with a per-example weight. */
export interface TrlRecord {
  messages: Record<string, unknown>[];
  tools?: Trajectory['tools'];
  weight: number;
}

/**
 * A conversation as one line of a TRL conversational (language-modelling) dataset
 * (https://huggingface.co/docs/trl/dataset_formats: `messages`, and `tools` for tool calling) with a float
 * `weight`, the FTW count itself (fractional in expected mode): one line per conversation of a run (its
 * main one, then each additional history, all with the run's count), no copies. Tool-call
 * arguments are parsed into objects, as chat templates render them; arguments that are not valid JSON stay
 * a string.
 *
 * @param trajectory - a validated trajectory (its main conversation), or one conversation of it
 * @param weight - the run's count
 * @returns the record
 * @example
 * ```ts
 * toTrlRecord(t, 2.5); // { messages: [...], weight: 2.5 }
 * ```
 */
export function toTrlRecord(trajectory: ChatHistory, weight: number): TrlRecord {
  const messages = trajectory.messages.map((m) => {
    const out = chatFields(m);
    if (m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls.length > 0) {
      out['tool_calls'] = m.tool_calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: parseArguments(call.function.arguments) },
      }));
    }
    return out;
  });
  const record: TrlRecord = { messages, weight };
  if (trajectory.tools !== undefined && trajectory.tools.length > 0) record.tools = trajectory.tools;
  return record;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
