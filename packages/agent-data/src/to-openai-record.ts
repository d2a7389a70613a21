import type { ChatHistory, ChatMessage, Trajectory } from './trajectory-schema.js';

/** One line of an OpenAI chat fine-tuning file. */
export interface OpenAIRecord {
  messages: Record<string, unknown>[];
  tools?: Trajectory['tools'];
}

/**
 * A conversation as one line of an OpenAI supervised fine-tuning file (chat format: `messages`, and `tools`
 * when the run had any; https://platform.openai.com/docs/guides/supervised-fine-tuning): a trajectory's
 * main conversation when given a trajectory, or one of its additional histories (`writeDataset` writes a
 * line for each conversation of a run, see `trajectoryHistories`). Only chat fields
 * are written (the behaviour trace is dropped); an assistant turn with tool calls and no text gets
 * `content: null`, one with neither gets `""`.
 *
 * The format's only weight is an assistant message's `weight` of 0 or 1 (train on the turn or not), so an
 * FTW count of m is written as m copies of the line, never as a weight; a turn logged with `weight: 0`
 * keeps it in every copy, so it is never trained on.
 *
 * @param trajectory - a validated trajectory, or one conversation of it
 * @returns the record (serialise with `JSON.stringify`)
 * @example
 * ```ts
 * toOpenAIRecord(t); // { messages: [{ role: 'user', content: '2+2?' }, { role: 'assistant', content: '4' }] }
 * ```
 */
export function toOpenAIRecord(trajectory: ChatHistory): OpenAIRecord {
  const record: OpenAIRecord = { messages: trajectory.messages.map(chatFields) };
  if (trajectory.tools !== undefined && trajectory.tools.length > 0) record.tools = trajectory.tools;
  return record;
}

/** The Chat Completions fields of a message (no trace), with an assistant turn's OpenAI `weight`. */
export function chatFields(m: ChatMessage): Record<string, unknown> {
  switch (m.role) {
    case 'assistant': {
      const out: Record<string, unknown> = { role: 'assistant' };
      const hasCalls = m.tool_calls !== undefined && m.tool_calls.length > 0;
      out['content'] = m.content ?? (hasCalls ? null : '');
      if (hasCalls) out['tool_calls'] = m.tool_calls;
      if (m.name !== undefined) out['name'] = m.name;
      if (m.weight !== undefined) out['weight'] = m.weight;
      return out;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    default:
      return m.name === undefined
        ? { role: m.role, content: m.content }
        : { role: m.role, content: m.content, name: m.name };
  }
}
