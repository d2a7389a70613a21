import { chatFields } from './to-openai-record.js';
import type { ChatHistory, Trajectory, TurnTrace } from './trajectory-schema.js';

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

/**
 * A conversation in ART's shape: each trained assistant turn a `Choice`, which ART trains on, with its
 * log-probabilities; a turn logged with `weight: 0` stays a plain message, which ART only conditions on.
 */
function artHistory(history: ChatHistory): ArtHistory {
  const messagesAndChoices = history.messages.map((m) => {
    const { weight: _weight, ...message } = chatFields(m);
    if (m.role !== 'assistant' || m.weight === 0) return message;
    const calls = m.tool_calls !== undefined && m.tool_calls.length > 0;
    return {
      finish_reason: calls ? 'tool_calls' : 'stop',
      index: 0,
      logprobs: choiceLogprobs(m.trace),
      message,
    };
  });
  const out: ArtHistory = { messages_and_choices: messagesAndChoices };
  if (history.tools !== undefined && history.tools.length > 0) out.tools = history.tools;
  return out;
}

/**
 * A turn's trace as a Chat Completions `logprobs` object (`{ content: [{ token, logprob, bytes,
 * top_logprobs }] }`), or null without a trace. The token is the logged text, else `token_id:<id>` (vLLM's
 * form when tokens are returned as ids) when only ids were logged, else empty; `bytes` and `top_logprobs`
 * are not kept by the trace, so they are written as null and [].
 */
function choiceLogprobs(trace: TurnTrace | undefined): Record<string, unknown> | null {
  if (trace === undefined) return null;
  return {
    content: trace.logprobs.map((logprob, k) => ({
      token: trace.tokens?.[k] ?? (trace.tokenIds?.[k] === undefined ? '' : `token_id:${trace.tokenIds[k]}`),
      logprob,
      bytes: null,
      top_logprobs: [],
    })),
  };
}

/**
 * A trajectory as a serialised OpenPipe ART `Trajectory` (`src/art/trajectories.py`): `messages_and_choices`
 * with each trained assistant turn as a Chat Completions `Choice` (`{ finish_reason, index: 0, logprobs,
 * message }`, which ART treats as trainable; `logprobs` from the turn's trace, else null) and the other
 * messages (and turns logged with `weight: 0`) as dicts, `tools`, `reward`, `metrics`
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
