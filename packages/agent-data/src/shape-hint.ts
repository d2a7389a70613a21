import { isObject, type JsonObject } from './record-fields.js';

/** A log shape recognised from a line's messages, and how to read it. */
interface Shape {
  /** The `from` that reads it, when one does. */
  readonly from: string | null;
  /** What it looks like and what to do. */
  readonly advice: string;
}

const SHAPES = {
  uiV5: {
    from: 'ai-sdk-ui',
    advice: "AI SDK 5 UIMessages (parts arrays): use from 'ai-sdk-ui' (fromAiSdkUi)",
  },
  uiV4: {
    from: null,
    advice:
      "AI SDK 4 UI messages (tool-invocation parts or toolInvocations): no importer reads them; log generateText's or streamText's result (response.messages) and use from 'ai-sdk', or store AI SDK 5 UIMessages and use from 'ai-sdk-ui'",
  },
  model: {
    from: 'ai-sdk',
    advice: "AI SDK messages with content arrays (ModelMessage parts): use from 'ai-sdk' (fromAiSdk)",
  },
  agents: {
    from: 'agents',
    advice: "OpenAI Agents SDK items (function_call, output_text): use from 'agents' (fromAgentsSdk)",
  },
  art: { from: 'art', advice: "an OpenPipe ART trajectory (messages_and_choices): use from 'art' (fromArt)" },
  openai: {
    from: 'openai',
    advice: "OpenAI chat messages (tool_calls, tool_call_id): use from 'openai' (fromOpenAIChat)",
  },
} satisfies Record<string, Shape>;

/**
 * Names the log shape a line looks like when it is not the one it was read as, with the way to read it,
 * so that a refusal says "looks like AI SDK 5 UIMessages: use from 'ai-sdk-ui'" instead of only naming the
 * field that failed. Internal; the reader appends it to the reason a line was skipped.
 *
 * @param record - the parsed JSON line
 * @param from - the shape it was read as
 * @returns the advice, or undefined when the line looks like `from` or like nothing known
 */
export function shapeHint(record: unknown, from: string): string | undefined {
  const shape = recognise(record);
  return shape === undefined || shape.from === from ? undefined : `the line looks like ${shape.advice}`;
}

function recognise(record: unknown): Shape | undefined {
  if (!isObject(record)) return undefined;
  if (Array.isArray(record['messages_and_choices'])) return SHAPES.art;
  const request = isObject(record['request']) ? record['request'] : undefined;
  const chat = isObject(record['chat']) ? record['chat'] : undefined;
  const lists = [
    record['messages'],
    record['prompt'],
    chat?.['messages'],
    request?.['messages'],
    record['history'],
    record['input'],
    record['newItems'],
    record['output'],
    isObject(record['response']) ? record['response']['messages'] : undefined,
  ];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const shape = isObject(item) ? recogniseItem(item) : undefined;
      if (shape !== undefined) return shape;
    }
  }
  return undefined;
}

function recogniseItem(m: JsonObject): Shape | undefined {
  if (Array.isArray(m['toolInvocations'])) return SHAPES.uiV4;
  const parts = m['parts'];
  if (Array.isArray(parts)) {
    const types = parts.map((p) => (isObject(p) ? p['type'] : undefined));
    if (types.includes('tool-invocation')) return SHAPES.uiV4;
    // AI SDK 4's UI messages carried the text as `content` beside `parts`; AI SDK 5's have parts only.
    if (typeof m['content'] === 'string') return SHAPES.uiV4;
    return SHAPES.uiV5;
  }
  const type = m['type'];
  if (
    type === 'function_call' ||
    type === 'function_call_result' ||
    (type === 'message' && Array.isArray(m['content']))
  ) {
    return SHAPES.agents;
  }
  if (Array.isArray(m['tool_calls']) || typeof m['tool_call_id'] === 'string') return SHAPES.openai;
  const content = m['content'];
  if (Array.isArray(content)) {
    for (const part of content) {
      if (!isObject(part)) continue;
      const t = part['type'];
      if (t === 'tool-call' || t === 'tool-result' || t === 'reasoning') return SHAPES.model;
      if (t === 'output_text' || t === 'input_text') return SHAPES.agents;
    }
  }
  return undefined;
}
