import { chatFields } from './to-openai-record.js';
import type { ChatHistory, Trajectory } from './trajectory-schema.js';

/** One conversation of an ART trajectory (`art.History`; the trajectory's own are its top-level fields). */
export interface ArtHistory {
  messages_and_choices: Record<string, unknown>[];
  tools?: Trajectory['tools'];
}

/** One line of an ART trajectory file. */
export interface ArtRecord extends ArtHistory {
  reward: number;
  metrics: Record<string, number>;
  metadata: Record<string, string | number | boolean | null>;
  additional_histories?: ArtHistory[];
}

/** A conversation in ART's shape: each assistant turn a `Choice`, which ART trains on. */
function artHistory(history: ChatHistory): ArtHistory {
  const messagesAndChoices = history.messages.map((m) => {
    const message = chatFields(m);
    if (m.role !== 'assistant') return message;
    const calls = m.tool_calls !== undefined && m.tool_calls.length > 0;
    return { finish_reason: calls ? 'tool_calls' : 'stop', index: 0, logprobs: null, message };
  });
  const out: ArtHistory = { messages_and_choices: messagesAndChoices };
  if (history.tools !== undefined && history.tools.length > 0) out.tools = history.tools;
  return out;
}

/**
 * A trajectory as a serialised OpenPipe ART `Trajectory` (`src/art/trajectories.py`): `messages_and_choices`
 * with each assistant turn as a Chat Completions `Choice` (`{ finish_reason, index: 0, logprobs: null,
 * message }`, which ART treats as trainable) and the other messages as dicts, `tools`, `reward`, `metrics`
 * (the reward components), scalar `metadata` (`ftw_id`, `task`) and the run's further conversations as
 * `additional_histories` (each `{ messages_and_choices, tools }`, which ART trains on like the main one). ART
 * has no example weight, so a count of m is written as m copies.
 *
 * @param trajectory - a validated trajectory
 * @returns the record
 * @example
 * ```ts
 * toArtRecord(t).messages_and_choices[1];
 * // { finish_reason: 'stop', index: 0, logprobs: null, message: { role: 'assistant', content: '4' } }
 * ```
 */
export function toArtRecord(trajectory: Trajectory): ArtRecord {
  const { messages_and_choices, tools } = artHistory(trajectory);
  const record: ArtRecord = {
    messages_and_choices,
    reward: trajectory.reward,
    metrics: { ...(trajectory.rewardComponents ?? {}) },
    metadata: { ftw_id: trajectory.id, task: trajectory.task },
  };
  if (tools !== undefined) record.tools = tools;
  if (trajectory.additionalHistories !== undefined && trajectory.additionalHistories.length > 0) {
    record.additional_histories = trajectory.additionalHistories.map(artHistory);
  }
  return record;
}
