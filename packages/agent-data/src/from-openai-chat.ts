import {
  argumentsText,
  asArray,
  asObject,
  assemble,
  isObject,
  type JsonObject,
  kind,
  RecordError,
  readEnvelope,
  readTools,
} from './record-fields.js';

/**
 * Imports one line of an OpenAI chat log with a reward: the fine-tuning chat shape
 * (`{ messages, tools?, … }`, https://platform.openai.com/docs/guides/supervised-fine-tuning) with a
 * `reward` number, or a logged request/response pair (`{ request: { messages, tools }, response: { choices:
 * [{ message, logprobs }] }, reward }`, the Chat Completions object) whose first choice is appended as the
 * last assistant turn, its token log-probabilities (`logprobs.content[].logprob`) kept as the turn's trace.
 *
 * Optional fields: `id`, `task`, `sequence` or `createdAt`, `rewardComponents`, `metadata`, `policyVersion`
 * (recorded on the appended choice's trace); each may also sit in `metadata`. Tool-call arguments given as
 * objects are serialised to the JSON string the API uses.
 *
 * @param record - the parsed JSON line
 * @param line - its 1-based line number (for a missing id: `line-<n>`)
 * @returns the candidate trajectory, to be validated by `trajectorySchema`
 * @throws RecordError (an `Error`) naming the field that is missing or malformed
 * @example
 * ```ts
 * fromOpenAIChat({ messages: [{ role: 'user', content: '2+2?' }, { role: 'assistant', content: '4' }], reward: 1 }, 7);
 * // { id: 'line-7', task: '2+2?', messages: [...], reward: 1 }
 * ```
 */
export function fromOpenAIChat(record: unknown, line: number): JsonObject {
  const r = asObject(record, 'the line');
  const request = isObject(r['request']) ? r['request'] : undefined;
  const envelope = readEnvelope(r, line);
  const where = r['messages'] === undefined && request !== undefined ? 'request.messages' : 'messages';
  const messages = asArray(r['messages'] ?? request?.['messages'], where).map((m, i) =>
    normalizeMessage(asObject(m, `${where}[${i}]`), `${where}[${i}]`),
  );
  const response = isObject(r['response']) ? r['response'] : undefined;
  const choices = response?.['choices'] ?? r['choices'];
  if (Array.isArray(choices) && choices.length > 0) {
    const choice = asObject(choices[0], 'choices[0]');
    const message = normalizeMessage(asObject(choice['message'], 'choices[0].message'), 'choices[0].message');
    const trace = choiceTrace(choice, r['policyVersion']);
    if (trace !== undefined) message['trace'] = trace;
    messages.push(message);
  }
  return assemble(envelope, messages, readTools(r['tools'] ?? request?.['tools']));
}

/**
 * Keeps the chat fields of a message (and an assistant turn's `weight` of 0 or 1); tool-call arguments
 * become JSON strings.
 */
export function normalizeMessage(m: JsonObject, path: string): JsonObject {
  const out: JsonObject = { role: m['role'] };
  if (m['content'] !== undefined) out['content'] = m['content'];
  if (typeof m['name'] === 'string') out['name'] = m['name'];
  if (m['role'] === 'tool') out['tool_call_id'] = m['tool_call_id'];
  if (m['role'] === 'assistant') {
    if (Array.isArray(m['tool_calls']) && m['tool_calls'].length > 0) {
      out['tool_calls'] = m['tool_calls'].map((call, i) => {
        const c = asObject(call, `${path}.tool_calls[${i}]`);
        const fn = asObject(c['function'], `${path}.tool_calls[${i}].function`);
        return {
          id: c['id'],
          type: 'function',
          function: { name: fn['name'], arguments: argumentsText(fn['arguments']) },
        };
      });
    }
    const weight = m['weight'];
    if (weight !== undefined && weight !== null) {
      if (weight !== 0 && weight !== 1) {
        throw new RecordError(`${path}.weight must be 0 or 1, got ${kind(weight)}`);
      }
      out['weight'] = weight;
    }
    if (m['trace'] !== undefined) out['trace'] = m['trace'];
  }
  return out;
}

/** The per-token log-probabilities of a Chat Completions choice (`logprobs.content[].logprob`). */
export function choiceTrace(choice: JsonObject, policyVersion: unknown): JsonObject | undefined {
  const logprobs = isObject(choice['logprobs']) ? choice['logprobs']['content'] : undefined;
  if (!Array.isArray(logprobs)) return undefined;
  const trace: JsonObject = { logprobs: logprobs.map((t) => (isObject(t) ? t['logprob'] : t)) };
  const tokens = logprobs.map((t) => (isObject(t) ? t['token'] : undefined));
  if (tokens.length > 0 && tokens.every((t) => typeof t === 'string')) trace['tokens'] = tokens;
  if (typeof policyVersion === 'number') trace['policyVersion'] = policyVersion;
  return trace;
}
