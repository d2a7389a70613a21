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
 * Imports one line of a Vercel AI SDK log (AI SDK 4 and 5: `ai@4.x`, `ai@5.x`): the result of `generateText`
 * (or `streamText` once finished) serialised with the call's input and a reward,
 * `{ system?, prompt? | messages?, response: { messages }, steps?, reward, … }`.
 *
 * The input is the call's `system` string and its `prompt` string or `messages` (`ModelMessage`s). The
 * generated turns are `response.messages` — the assistant and tool messages of every step
 * (https://ai-sdk.dev/docs/reference/ai-sdk-core/generate-text); without it, the longest of the steps'
 * `response.messages` (each step's holds every step so far); without those, the steps themselves: each
 * step's `content` (AI SDK 5: `text`, `tool-call`, `tool-result` and `tool-error` parts) or its `text`,
 * `toolCalls` and `toolResults` (AI SDK 4, where a step of `stepType: 'continue'` continues the previous
 * step's text). When `steps` record a tool call that the chosen messages lack (a log that kept one step's
 * messages only), the steps are read instead, so that every step's calls and results are kept.
 *
 * `ModelMessage` parts are mapped to chat messages
 * (https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message): `text` parts to content, `tool-call`
 * parts (`toolCallId`, `toolName`, `input`, or `args` before AI SDK 5) to `tool_calls`, and every
 * `tool-result` part (`output: { type: 'text' | 'json' | 'error-text' | 'error-json' | 'content', value }`,
 * or `result` before AI SDK 5) to one `tool` message, also when it sits in the assistant message
 * (a provider-executed tool). Reasoning and file parts are dropped.
 *
 * @param record - the parsed JSON line
 * @param line - its 1-based line number
 * @returns the candidate trajectory, to be validated by `trajectorySchema`
 * @throws RecordError naming the field path and the value that is missing or malformed
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
  else {
    const key = Array.isArray(r['prompt']) ? 'prompt' : 'messages';
    if (Array.isArray(r[key])) {
      (r[key] as unknown[]).forEach((m, i) => {
        pushModelMessage(messages, m, `${key}[${i}]`);
      });
    }
  }
  messages.push(...generatedMessages(r));
  return assemble(envelope, messages, readTools(r['tools']));
}

/** The generated turns: response.messages, else the longest step's, else the steps; see fromAiSdk. */
function generatedMessages(r: JsonObject): JsonObject[] {
  const steps = r['steps'];
  let chosen: { list: unknown[]; where: string } | undefined;
  const response = r['response'];
  if (isObject(response) && Array.isArray(response['messages'])) {
    chosen = { list: response['messages'], where: 'response.messages' };
  } else if (Array.isArray(steps)) {
    steps.forEach((step, i) => {
      const messages =
        isObject(step) && isObject(step['response']) ? step['response']['messages'] : undefined;
      if (Array.isArray(messages) && (chosen === undefined || messages.length >= chosen.list.length)) {
        chosen = { list: messages, where: `steps[${i}].response.messages` };
      }
    });
  }
  if (chosen !== undefined) {
    const out: JsonObject[] = [];
    const { list, where } = chosen;
    list.forEach((m, i) => {
      pushModelMessage(out, m, `${where}[${i}]`);
    });
    if (!Array.isArray(steps) || stepCallIds(steps).every((id) => hasCall(out, id))) return out;
  }
  const out: JsonObject[] = [];
  asArray(steps, 'response.messages or steps').forEach((step, i) => {
    pushStep(out, asObject(step, `steps[${i}]`), `steps[${i}]`);
  });
  return out;
}

function stepCallIds(steps: unknown[]): string[] {
  const ids: string[] = [];
  for (const step of steps) {
    if (!isObject(step)) continue;
    const fromContent = Array.isArray(step['content']);
    const parts = fromContent ? step['content'] : step['toolCalls'];
    if (!Array.isArray(parts)) continue;
    for (const p of parts) {
      if (!isObject(p) || (fromContent && p['type'] !== 'tool-call')) continue;
      if (typeof p['toolCallId'] === 'string') ids.push(p['toolCallId']);
    }
  }
  return ids;
}

function hasCall(messages: JsonObject[], id: string): boolean {
  return messages.some(
    (m) => Array.isArray(m['tool_calls']) && m['tool_calls'].some((c) => isObject(c) && c['id'] === id),
  );
}

function pushModelMessage(out: JsonObject[], value: unknown, path: string): void {
  const m = asObject(value, path);
  const role = m['role'];
  const content = m['content'];
  if (role === 'system' || role === 'user') {
    out.push({ role, content: typeof content === 'string' ? content : userParts(content, path) });
  } else if (role === 'assistant') {
    pushAssistant(out, content, path);
  } else if (role === 'tool') {
    asArray(content, `${path}.content`).forEach((part, i) => {
      const p = asObject(part, `${path}.content[${i}]`);
      if (p['type'] === 'tool-result') out.push(toolMessage(p, `${path}.content[${i}]`));
    });
  } else {
    throw new RecordError(`${path}.role must be system, user, assistant or tool, got ${kind(role)}`);
  }
}

function userParts(content: unknown, path: string): unknown {
  return asArray(content, `${path}.content`).map((part, i) => {
    const p = asObject(part, `${path}.content[${i}]`);
    return p['type'] === 'text' ? { type: 'text', text: p['text'] } : p;
  });
}

/** An assistant ModelMessage; tool results inside it (provider-executed tools) follow it as tool messages. */
function pushAssistant(out: JsonObject[], content: unknown, path: string): void {
  if (typeof content === 'string') {
    out.push({ role: 'assistant', content });
    return;
  }
  let text = '';
  const calls: JsonObject[] = [];
  const results: JsonObject[] = [];
  asArray(content, `${path}.content`).forEach((part, i) => {
    const where = `${path}.content[${i}]`;
    const p = asObject(part, where);
    if (p['type'] === 'text' && typeof p['text'] === 'string') text += p['text'];
    else if (p['type'] === 'tool-call') calls.push(toolCall(p, where));
    else if (p['type'] === 'tool-result') results.push(toolMessage(p, where));
  });
  const message: JsonObject = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (calls.length > 0) message['tool_calls'] = calls;
  out.push(message, ...results);
}

function toolCall(p: JsonObject, path: string): JsonObject {
  const id = p['toolCallId'];
  const name = p['toolName'];
  if (typeof id !== 'string') throw new RecordError(`${path}.toolCallId must be a string, got ${kind(id)}`);
  if (typeof name !== 'string') throw new RecordError(`${path}.toolName must be a string, got ${kind(name)}`);
  return { id, type: 'function', function: { name, arguments: argumentsText(p['input'] ?? p['args']) } };
}

function toolMessage(p: JsonObject, path: string): JsonObject {
  const id = p['toolCallId'];
  if (typeof id !== 'string') throw new RecordError(`${path}.toolCallId must be a string, got ${kind(id)}`);
  return { role: 'tool', tool_call_id: id, content: toolOutputText(p) };
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

/** A raw tool value of a step (`output`, `result` before AI SDK 5, or a tool-error's `error`) as text. */
function rawText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Object && typeof (value as JsonObject)['message'] === 'string')
    return (value as JsonObject)['message'] as string;
  return JSON.stringify(value ?? null);
}

function pushStep(out: JsonObject[], step: JsonObject, path: string): void {
  let text = '';
  const calls: JsonObject[] = [];
  const results: JsonObject[] = [];
  if (Array.isArray(step['content'])) {
    // AI SDK 5: the step's content parts in order, tool errors included.
    step['content'].forEach((part, i) => {
      const where = `${path}.content[${i}]`;
      const p = asObject(part, where);
      const id = p['toolCallId'];
      if (p['type'] === 'text' && typeof p['text'] === 'string') text += p['text'];
      else if (p['type'] === 'tool-call') calls.push(toolCall(p, where));
      else if (p['type'] === 'tool-result' || p['type'] === 'tool-error') {
        if (typeof id !== 'string')
          throw new RecordError(`${where}.toolCallId must be a string, got ${kind(id)}`);
        const value = p['type'] === 'tool-error' ? p['error'] : p['output'];
        results.push({ role: 'tool', tool_call_id: id, content: rawText(value) });
      }
    });
  } else {
    if (typeof step['text'] === 'string') text = step['text'];
    const toolCalls = step['toolCalls'] === undefined ? [] : asArray(step['toolCalls'], `${path}.toolCalls`);
    toolCalls.forEach((c, i) => {
      calls.push(toolCall(asObject(c, `${path}.toolCalls[${i}]`), `${path}.toolCalls[${i}]`));
    });
    const toolResults =
      step['toolResults'] === undefined ? [] : asArray(step['toolResults'], `${path}.toolResults`);
    toolResults.forEach((value, i) => {
      const where = `${path}.toolResults[${i}]`;
      const result = asObject(value, where);
      const id = result['toolCallId'];
      if (typeof id !== 'string')
        throw new RecordError(`${where}.toolCallId must be a string, got ${kind(id)}`);
      // A step's toolResults carry the tool's raw return value (`output`, or `result` before AI SDK 5).
      results.push({
        role: 'tool',
        tool_call_id: id,
        content: rawText(result['output'] ?? result['result']),
      });
    });
  }
  const last = out[out.length - 1];
  if (step['stepType'] === 'continue' && last !== undefined && last['role'] === 'assistant') {
    // AI SDK 4's continuation steps extend the previous step's text (`continueSteps`).
    last['content'] = `${typeof last['content'] === 'string' ? last['content'] : ''}${text}`;
    if (calls.length > 0) last['tool_calls'] = [...((last['tool_calls'] as unknown[]) ?? []), ...calls];
  } else {
    const message: JsonObject = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
    if (calls.length > 0) message['tool_calls'] = calls;
    out.push(message);
  }
  out.push(...results);
}
