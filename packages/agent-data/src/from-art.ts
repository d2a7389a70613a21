import { choiceTrace, normalizeMessage } from './from-openai-chat.js';
import {
  asArray,
  asObject,
  assemble,
  isObject,
  type JsonObject,
  readEnvelope,
  readTools,
} from './record-fields.js';

/**
 * Imports one line of an OpenPipe ART trajectory log: a serialised `art.Trajectory`
 * (`src/art/trajectories.py`: `messages_and_choices`, `tools`, `reward`, `metrics`, `metadata`,
 * `initial_policy_version`, `final_policy_version`, `logs`, `additional_histories`).
 *
 * `messages_and_choices` mixes chat message dicts with Chat Completions `Choice` objects
 * (`{ finish_reason, index, logprobs, message }`), which ART treats as the trainable turns: each choice
 * becomes an assistant message whose trace holds `logprobs.content[].logprob` (and `.token`), with the
 * policy version when the run did not span versions (`initial_policy_version` equal to
 * `final_policy_version`, or only one given); an assistant message logged as a plain dict gets `weight: 0`
 * (context, never a target, as in ART). Id and task are read from the line or its `metadata`; `metrics` are kept in
 * `metadata.metrics`. `additional_histories` (sub-agents' conversations, each `{ messages_and_choices,
 * tools }`) become `additionalHistories`, read the same way; empty ones are left out.
 *
 * @param record - the parsed JSON line
 * @param line - its 1-based line number
 * @returns the candidate trajectory, to be validated by `trajectorySchema`
 * @throws RecordError naming the field that is missing or malformed
 * @example
 * ```ts
 * fromArt({ messages_and_choices: [{ role: 'user', content: '2+2?' },
 *   { finish_reason: 'stop', index: 0, logprobs: null, message: { role: 'assistant', content: '4' } }], reward: 1 }, 1);
 * // messages: [{ role: 'user', content: '2+2?' }, { role: 'assistant', content: '4' }]
 * ```
 */
export function fromArt(record: unknown, line: number): JsonObject {
  const r = asObject(record, 'the line');
  const envelope = readEnvelope(r, line);
  const initial = r['initial_policy_version'];
  const final = r['final_policy_version'];
  const version =
    initial === undefined || initial === null
      ? final
      : final === undefined || final === null || final === initial
        ? initial
        : undefined;
  const messages = messagesAndChoices(r['messages_and_choices'], 'messages_and_choices', version);
  if (isObject(r['metrics']) && Object.keys(r['metrics']).length > 0) {
    envelope.metadata = { ...envelope.metadata, metrics: r['metrics'] };
  }
  const trajectory = assemble(envelope, messages, readTools(r['tools']));
  const extra = r['additional_histories'];
  if (extra !== undefined && extra !== null) {
    const histories = asArray(extra, 'additional_histories').flatMap((entry, i) => {
      const h = asObject(entry, `additional_histories[${i}]`);
      const where = `additional_histories[${i}].messages_and_choices`;
      const history: JsonObject = { messages: messagesAndChoices(h['messages_and_choices'], where, version) };
      const tools = readTools(h['tools']);
      if (tools !== undefined && tools.length > 0) history['tools'] = tools;
      return (history['messages'] as unknown[]).length === 0 ? [] : [history];
    });
    if (histories.length > 0) trajectory['additionalHistories'] = histories;
  }
  return trajectory;
}

/** ART's `messages_and_choices`: chat message dicts, and `Choice` objects that become traced assistant turns. */
function messagesAndChoices(value: unknown, where: string, version: unknown): JsonObject[] {
  return asArray(value, where).map((entry, i) => {
    const e = asObject(entry, `${where}[${i}]`);
    if (isObject(e['message']) && 'finish_reason' in e) {
      const message = normalizeMessage(e['message'], `${where}[${i}].message`);
      const trace = choiceTrace(e, version);
      if (trace !== undefined) message['trace'] = trace;
      return message;
    }
    const message = normalizeMessage(e, `${where}[${i}]`);
    // ART trains on Choices only: an assistant message logged as a plain dict is context, never a target.
    if (message['role'] === 'assistant' && message['weight'] === undefined) message['weight'] = 0;
    return message;
  });
}
