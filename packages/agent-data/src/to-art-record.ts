import { chatFields } from './to-openai-record.js';
import type { Trajectory } from './trajectory-schema.js';

/** One line of an ART trajectory file. */
export interface ArtRecord {
  messages_and_choices: Record<string, unknown>[];
  tools?: Trajectory['tools'];
  reward: number;
  metrics: Record<string, number>;
  metadata: Record<string, string | number | boolean | null>;
}

/**
 * A trajectory as a serialised OpenPipe ART `Trajectory` (`src/art/trajectories.py`): `messages_and_choices`
 * with each assistant turn as a Chat Completions `Choice` (`{ finish_reason, index: 0, logprobs: null,
 * message }`, which ART treats as trainable) and the other messages as dicts, `tools`, `reward`, `metrics`
 * (the reward components) and scalar `metadata` (`ftw_id`, `task`). ART has no example weight, so a count
 * of m is written as m copies.
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
  const messagesAndChoices = trajectory.messages.map((m) => {
    const message = chatFields(m);
    if (m.role !== 'assistant') return message;
    const calls = m.tool_calls !== undefined && m.tool_calls.length > 0;
    return { finish_reason: calls ? 'tool_calls' : 'stop', index: 0, logprobs: null, message };
  });
  const record: ArtRecord = {
    messages_and_choices: messagesAndChoices,
    reward: trajectory.reward,
    metrics: { ...(trajectory.rewardComponents ?? {}) },
    metadata: { ftw_id: trajectory.id, task: trajectory.task },
  };
  if (trajectory.tools !== undefined && trajectory.tools.length > 0) record.tools = trajectory.tools;
  return record;
}
