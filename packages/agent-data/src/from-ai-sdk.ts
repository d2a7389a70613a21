import {
  argumentsText,
  asArray,
  asObject,
  assemble,
  contentText,
  isObject,
  type JsonObject,
  kind,
  RecordError,
  readEnvelope,
  readTools,
} from './record-fields.js';

/**
 * Imports one line of a Vercel AI SDK log: the result of `generateText` (or `streamText` once finished)
 * serialised with the call's input and a reward,
 * `{ system?, prompt? | messages?, response: { messages }, steps?, reward, … }`.
 *
 * The input is the call's `system` string and its `prompt` string or `messages` (`ModelMessage`s); the
 * generated turns are `response.messages` — the assistant and tool messages of every step
 * (https://ai-sdk.dev/docs/reference/ai-sdk-core/generate-text) — or, when the log has only `steps`,
 * the last step's `response.messages`, or else each step's `text`, `toolCalls` and `toolResults`.
 * `ModelMessage` parts are mapped to chat messages
 * (https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message): `text` parts to content, `tool-call`
 * parts (`toolCallId`, `toolName`, `input`, or `args` before AI SDK 5) to `tool_calls`, and every
 * `tool-result` part (`output: { type: 'text' | 'json' | 'error-text' | 'error-json' | 'content', value }`,
 * or `result` before AI SDK 5) to one `tool` message. Reasoning parts are dropped.
 *
 * @param record - the parsed JSON line
 * @param line - its 1-based line number
 * @returns the candidate trajectory, to be validated by `trajectorySchema`
 * @throws RecordError naming the field that is missing or malformed
 * @example
 * ```ts
 * fromAiSdk({ prompt: '2+2?', response: { messages: [{ role: 'assistant', content: [{ type: 'text', text: '4' }] }] }, reward: 1 }, 1);
 * // { id: 'line-1', task: '2+2?', messages: [{ role: 'user', content: '2+2?' }, { role: 'assistant', content: '4' }], reward: 1 }
 * ```
 */
export function fromAiSdk(record: unknown, line: number): JsonObject {
  const r = asObject(record, 'the line');
  const envelope = readEnvelope(r, line);
  const messages: JsonObject[] = [];
  if (typeof r['system'] === 'string') messages.push({ role: 'system', content: r['system'] });
  if (typeof r['prompt'] === 'string') messages.push({ role: 'user', content: r['prompt'] });
  else if (Array.isArray(r['prompt'] ?? r['messages'])) {
    for (const m of (r['prompt'] ?? r['messages']) as unknown[]) pushModelMessage(messages, m);
  }
  const generated = responseMessages(r);
  if (generated !== undefined) {
    for (const m of generated) pushModelMessage(messages, m);
  } else {
    const steps = asArray(r['steps'], 'response.messages or steps');
    steps.forEach((step, i) => {
      pushStep(messages, asObject(step, `steps[${i}]`));
    });
  }
  return assemble(envelope, messages, readTools(r['tools']));
}

function responseMessages(r: JsonObject): unknown[] | undefined {
  const response = r['response'];
  if (isObject(response) && Array.isArray(response['messages'])) return response['messages'];
  const steps = r['steps'];
  if (Array.isArray(steps) && steps.length > 0) {
    const last = steps[steps.length - 1];
    if (isObject(last) && isObject(last['response']) && Array.isArray(last['response']['messages'])) {
      return last['response']['messages'];
    }
  }
  return undefined;
}

function pushModelMessage(out: JsonObject[], value: unknown): void {
  const m = asObject(value, 'a message');
  const role = m['role'];
  const content = m['content'];
  if (role === 'system' || role === 'user') {
    out.push({ role, content: typeof content === 'string' ? content : userParts(content) });
  } else if (role === 'assistant') {
    out.push(assistantMessage(content));
  } else if (role === 'tool') {
    for (const part of asArray(content, 'tool message content')) {
      const p = asObject(part, 'tool result part');
      if (p['type'] !== 'tool-result') continue;
      out.push({ role: 'tool', tool_call_id: p['toolCallId'], content: toolOutputText(p) });
    }
  } else {
    throw new RecordError(`message role must be system, user, assistant or tool, got ${kind(role)}`);
  }
}

function userParts(content: unknown): unknown {
  return asArray(content, 'user message content').map((part) => {
    const p = asObject(part, 'content part');
    return p['type'] === 'text' ? { type: 'text', text: p['text'] } : p;
  });
}

function assistantMessage(content: unknown): JsonObject {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  const calls: JsonObject[] = [];
  for (const part of asArray(content, 'assistant message content')) {
    const p = asObject(part, 'content part');
    if (p['type'] === 'text' && typeof p['text'] === 'string') text += p['text'];
    else if (p['type'] === 'tool-call')
      calls.push(toolCall(p['toolCallId'], p['toolName'], p['input'] ?? p['args']));
  }
  const out: JsonObject = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (calls.length > 0) out['tool_calls'] = calls;
  return out;
}

function toolCall(id: unknown, name: unknown, input: unknown): JsonObject {
  return { id, type: 'function', function: { name, arguments: argumentsText(input) } };
}

/** Text of a tool result: AI SDK 5 typed `output`, or the older raw `result`. */
function toolOutputText(p: JsonObject): string {
  const output = p['output'];
  if (isObject(output) && typeof output['type'] === 'string') {
    const value = output['value'];
    if (output['type'] === 'text' || output['type'] === 'error-text') return String(value);
    if (output['type'] === 'content') return contentText(value);
    return JSON.stringify(value ?? null);
  }
  const result = output ?? p['result'];
  return typeof result === 'string' ? result : JSON.stringify(result ?? null);
}

function pushStep(out: JsonObject[], step: JsonObject): void {
  const calls = Array.isArray(step['toolCalls']) ? step['toolCalls'] : [];
  const message: JsonObject = {
    role: 'assistant',
    content:
      typeof step['text'] === 'string' && step['text'] !== '' ? step['text'] : calls.length > 0 ? null : '',
  };
  if (calls.length > 0) {
    message['tool_calls'] = calls.map((c) => {
      const call = asObject(c, 'step tool call');
      return toolCall(call['toolCallId'], call['toolName'], call['input'] ?? call['args']);
    });
  }
  out.push(message);
  for (const r of Array.isArray(step['toolResults']) ? step['toolResults'] : []) {
    const result = asObject(r, 'step tool result');
    // A step's toolResults carry the tool's raw return value (`output`, or `result` before AI SDK 5).
    const value = result['output'] ?? result['result'];
    out.push({
      role: 'tool',
      tool_call_id: result['toolCallId'],
      content: typeof value === 'string' ? value : JSON.stringify(value ?? null),
    });
  }
}
