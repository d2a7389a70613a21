import {
  argumentsText,
  asArray,
  asObject,
  assemble,
  contentText,
  isObject,
  type JsonObject,
  readEnvelope,
  readTools,
} from './record-fields.js';

/**
 * Imports one line of an OpenAI Agents SDK (JavaScript) log: a run result serialised with a reward,
 * `{ history, reward, … }` where `history` is `RunResult.history` (the input items followed by the items
 * generated during the run, https://openai.github.io/openai-agents-js/guides/results/), or
 * `{ input, newItems | output, reward }` (`newItems` are run items whose model data is in `rawItem`). The
 * agent's `instructions` (its system prompt) and `tools` (function tools as `{ type: 'function', name,
 * description, parameters }`) may be logged beside them and become the system message and the tools.
 *
 * Items follow the SDK's protocol (`@openai/agents-core` `types/protocol.ts`): messages
 * (`{ type?: 'message', role, content }`, user content a string or `input_text` parts, assistant content
 * `output_text`/`refusal` parts), `function_call` (`callId`, `name`, `arguments` as a JSON string) and
 * `function_call_result` (`callId`, `output` a string, a `{ type: 'text', text }` or `input_text` parts).
 * Function calls that follow an assistant message (or each other) join it as `tool_calls` of one chat
 * turn, as the Chat Completions API would have returned them. Reasoning, hosted-tool, computer and shell
 * items are dropped.
 *
 * @param record - the parsed JSON line
 * @param line - its 1-based line number
 * @returns the candidate trajectory, to be validated by `trajectorySchema`
 * @throws RecordError naming the field that is missing or malformed
 * @example
 * ```ts
 * fromAgentsSdk({ history: [{ role: 'user', content: '2+2?' },
 *   { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '4' }] }], reward: 1 }, 1);
 * // messages: [{ role: 'user', content: '2+2?' }, { role: 'assistant', content: '4' }]
 * ```
 */
export function fromAgentsSdk(record: unknown, line: number): JsonObject {
  const r = asObject(record, 'the line');
  const envelope = readEnvelope(r, line);
  const items: { item: unknown; path: string }[] = [];
  if (Array.isArray(r['history'])) {
    r['history'].forEach((item, i) => {
      items.push({ item, path: `history[${i}]` });
    });
  } else {
    const input = r['input'];
    if (typeof input === 'string') items.push({ item: { role: 'user', content: input }, path: 'input' });
    else {
      asArray(input, 'history or input').forEach((item, i) => {
        items.push({ item, path: `input[${i}]` });
      });
    }
    const key = r['newItems'] === undefined ? 'output' : 'newItems';
    asArray(r[key], 'newItems or output').forEach((item, i) => {
      const raw = isObject(item) && isObject(item['rawItem']);
      items.push({
        item: raw ? (item as JsonObject)['rawItem'] : item,
        path: raw ? `${key}[${i}].rawItem` : `${key}[${i}]`,
      });
    });
  }
  const messages: JsonObject[] = [];
  if (typeof r['instructions'] === 'string') messages.push({ role: 'system', content: r['instructions'] });
  for (const { item, path } of items) pushItem(messages, asObject(item, path));
  return assemble(envelope, messages, readTools(r['tools']));
}

function pushItem(out: JsonObject[], item: JsonObject): void {
  const type = item['type'];
  if (type === undefined || type === 'message') {
    const role = item['role'];
    if (role === 'assistant') {
      out.push({ role: 'assistant', content: contentText(item['content']) });
    } else if (role === 'user' || role === 'system') {
      out.push({ role, content: contentText(item['content']) });
    }
    return;
  }
  if (type === 'function_call') {
    const call = {
      id: item['callId'],
      type: 'function',
      function: { name: item['name'], arguments: argumentsText(item['arguments']) },
    };
    const last = out[out.length - 1];
    if (last !== undefined && last['role'] === 'assistant') {
      const calls = (last['tool_calls'] as unknown[] | undefined) ?? [];
      calls.push(call);
      last['tool_calls'] = calls;
      if (last['content'] === '') last['content'] = null;
    } else {
      out.push({ role: 'assistant', content: null, tool_calls: [call] });
    }
    return;
  }
  if (type === 'function_call_result') {
    const output = item['output'];
    const text =
      typeof output === 'string' ? output : isObject(output) ? contentText([output]) : contentText(output);
    out.push({ role: 'tool', tool_call_id: item['callId'], content: text });
  }
}
