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
 * Imports one line of an AI SDK 5 chat log: the `UIMessage[]` that `useChat` keeps and an app persists
 * (`{ messages: UIMessage[], reward, … }`, or `{ chat: { messages } }`), the shape of `ai@5`'s
 * `src/ui/ui-messages.ts` (https://ai-sdk.dev/docs/reference/ai-sdk-core/ui-message).
 *
 * A message is `{ id, role: 'system' | 'user' | 'assistant', metadata?, parts }`. Parts are mapped as
 * follows: `text` parts become the content; `step-start` begins a new assistant turn (one model call);
 * a tool part (`type: 'tool-<name>'`, or `'dynamic-tool'` with `toolName`) becomes a tool call with its
 * `input`, and, in state `output-available`, a `tool` message holding its `output` (strings as they are,
 * other values as JSON), in state `output-error` a `tool` message holding its `errorText`; in states
 * `input-streaming` and `input-available` the call has no result. Text that follows a tool result within
 * one step begins a new turn too, as the model answered after the result. `reasoning`, `file`, `source-*`
 * and `data-*` parts are dropped.
 *
 * @param record - the parsed JSON line
 * @param line - its 1-based line number
 * @returns the candidate trajectory, to be validated by `trajectorySchema`
 * @throws RecordError naming the field path and the value that is missing or malformed
 * @example
 * ```ts
 * fromAiSdkUi({ messages: [
 *   { id: 'u1', role: 'user', parts: [{ type: 'text', text: '2+2?' }] },
 *   { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: '4' }] }], reward: 1 }, 1);
 * // messages: [{ role: 'user', content: '2+2?' }, { role: 'assistant', content: '4' }]
 * ```
 */
export function fromAiSdkUi(record: unknown, line: number): JsonObject {
  const r = asObject(record, 'the line');
  const envelope = readEnvelope(r, line);
  const chat = isObject(r['chat']) ? r['chat'] : undefined;
  const where = chat === undefined ? 'messages' : 'chat.messages';
  const messages: JsonObject[] = [];
  asArray(chat?.['messages'] ?? r['messages'], where).forEach((value, i) => {
    const path = `${where}[${i}]`;
    const m = asObject(value, path);
    const role = m['role'];
    const parts = asArray(m['parts'], `${path}.parts`);
    if (role === 'system' || role === 'user') {
      messages.push({ role, content: textOf(parts, path) });
    } else if (role === 'assistant') {
      pushAssistant(messages, parts, path);
    } else {
      throw new RecordError(`${path}.role must be system, user or assistant, got ${kind(role)}`);
    }
  });
  return assemble(envelope, messages, readTools(r['tools'] ?? chat?.['tools']));
}

function textOf(parts: unknown[], path: string): string {
  let text = '';
  parts.forEach((part, i) => {
    const p = asObject(part, `${path}.parts[${i}]`);
    if (p['type'] === 'text') text += stringField(p, 'text', `${path}.parts[${i}]`);
  });
  return text;
}

function stringField(p: JsonObject, key: string, path: string): string {
  const value = p[key];
  if (typeof value !== 'string') throw new RecordError(`${path}.${key} must be a string, got ${kind(value)}`);
  return value;
}

interface Turn {
  text: string;
  calls: JsonObject[];
  results: JsonObject[];
}

/** An assistant UIMessage: one chat turn per step, each followed by its tool results. */
function pushAssistant(out: JsonObject[], parts: unknown[], path: string): void {
  let turn: Turn = { text: '', calls: [], results: [] };
  const flush = (): void => {
    if (turn.text === '' && turn.calls.length === 0) return;
    const message: JsonObject = {
      role: 'assistant',
      content: turn.text === '' && turn.calls.length > 0 ? null : turn.text,
    };
    if (turn.calls.length > 0) message['tool_calls'] = turn.calls;
    out.push(message, ...turn.results);
    turn = { text: '', calls: [], results: [] };
  };
  parts.forEach((part, i) => {
    const where = `${path}.parts[${i}]`;
    const p = asObject(part, where);
    const type = p['type'];
    if (typeof type !== 'string') throw new RecordError(`${where}.type must be a string, got ${kind(type)}`);
    if (type === 'step-start') {
      flush();
    } else if (type === 'text') {
      if (turn.results.length > 0) flush();
      turn.text += stringField(p, 'text', where);
    } else if (type === 'dynamic-tool' || type.startsWith('tool-')) {
      const name = type === 'dynamic-tool' ? stringField(p, 'toolName', where) : type.slice('tool-'.length);
      const id = stringField(p, 'toolCallId', where);
      turn.calls.push({
        id,
        type: 'function',
        function: { name, arguments: argumentsText(p['input']) },
      });
      const state = p['state'];
      if (state === 'output-available') {
        const output = p['output'];
        turn.results.push({
          role: 'tool',
          tool_call_id: id,
          content: typeof output === 'string' ? output : JSON.stringify(output ?? null),
        });
      } else if (state === 'output-error') {
        turn.results.push({ role: 'tool', tool_call_id: id, content: stringField(p, 'errorText', where) });
      } else if (state !== 'input-streaming' && state !== 'input-available') {
        throw new RecordError(
          `${where}.state must be input-streaming, input-available, output-available or output-error, got ${kind(state)}`,
        );
      }
    }
  });
  flush();
}
