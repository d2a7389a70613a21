import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fromAiSdkUi } from './from-ai-sdk-ui.js';
import { formatIssue, type LineIssue, openTrajectories } from './open-trajectories.js';
import { trajectorySchema } from './trajectory-schema.js';

// Fixtures written from AI SDK 5's UIMessage types (vercel/ai, tag ai@5.0.0, packages/ai/src/ui/ui-messages.ts;
// https://ai-sdk.dev/docs/reference/ai-sdk-core/ui-message): a message is { id, role, metadata?, parts };
// parts are TextUIPart { type: 'text', text, state? }, ReasoningUIPart { type: 'reasoning', text },
// StepStartUIPart { type: 'step-start' }, FileUIPart { type: 'file', mediaType, url }, SourceUrlUIPart,
// DataUIPart { type: 'data-<name>', data }, ToolUIPart { type: 'tool-<name>', toolCallId, state, input,
// output | errorText } with state input-streaming | input-available | output-available | output-error, and
// DynamicToolUIPart { type: 'dynamic-tool', toolName, toolCallId, state, input, output | errorText }.
const user = (text: string) => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });

const parse = (record: unknown) => trajectorySchema.parse(fromAiSdkUi(record, 1));

describe('fromAiSdkUi', () => {
  it('reads a chat with a tool step: a step-start per model call, the tool part with its output, then the answer', () => {
    const t = parse({
      id: 'chat-1',
      reward: 1,
      messages: [
        { id: 's1', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        {
          ...user('What is the weather in Paris?'),
          metadata: { createdAt: 1 },
          parts: [
            { type: 'text', text: 'What is the weather in Paris?' },
            { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,AAAA' },
          ],
        },
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'reasoning', text: 'I should look it up.', state: 'done' },
            {
              type: 'tool-getWeather',
              toolCallId: 'call_1',
              state: 'output-available',
              input: { city: 'Paris' },
              output: { temperature: 18 },
            },
            { type: 'step-start' },
            { type: 'source-url', sourceId: 's', url: 'https://example.org' },
            { type: 'text', text: 'It is 18 °C in Paris.', state: 'done' },
            { type: 'data-weather', data: { city: 'Paris' } },
          ],
        },
      ],
    });
    expect(t.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":18}' },
      { role: 'assistant', content: 'It is 18 °C in Paris.' },
    ]);
    expect(t).toMatchObject({ id: 'chat-1', task: 'What is the weather in Paris?' });
  });

  it('reads every tool state: an error as its errorText, a call still streaming or waiting without a result', () => {
    const t = parse({
      reward: 0,
      chat: {
        messages: [
          user('Two lookups'),
          {
            id: 'a1',
            role: 'assistant',
            parts: [
              { type: 'step-start' },
              { type: 'text', text: 'Looking both up.' },
              {
                type: 'tool-search',
                toolCallId: 'c1',
                state: 'output-error',
                input: { q: 'x' },
                errorText: 'rate limited',
              },
              {
                type: 'dynamic-tool',
                toolName: 'fetch-page',
                toolCallId: 'c2',
                state: 'output-available',
                input: { url: 'u' },
                output: 'page text',
              },
              { type: 'step-start' },
              { type: 'tool-search', toolCallId: 'c3', state: 'input-available', input: { q: 'y' } },
              { type: 'tool-search', toolCallId: 'c4', state: 'input-streaming', input: { q: 'z' } },
            ],
          },
        ],
      },
    });
    expect(t.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Looking both up.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } },
          { id: 'c2', type: 'function', function: { name: 'fetch-page', arguments: '{"url":"u"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'rate limited' },
      { role: 'tool', tool_call_id: 'c2', content: 'page text' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c3', type: 'function', function: { name: 'search', arguments: '{"q":"y"}' } },
          { id: 'c4', type: 'function', function: { name: 'search', arguments: '{"q":"z"}' } },
        ],
      },
    ]);
  });

  it('starts a new turn for text after a tool result even without a step-start part', () => {
    const t = parse({
      reward: 1,
      messages: [
        user('2+2?'),
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            {
              type: 'tool-add',
              toolCallId: 'c1',
              state: 'output-available',
              input: { a: 2, b: 2 },
              output: 4,
            },
            { type: 'text', text: '4' },
          ],
        },
      ],
    });
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('names the field path and the value of a malformed part', () => {
    expect(() =>
      fromAiSdkUi(
        {
          reward: 1,
          messages: [
            user('x'),
            { id: 'a', role: 'assistant', parts: [{ type: 'tool-a', toolCallId: 'c', state: 'done' }] },
          ],
        },
        1,
      ),
    ).toThrow(
      'messages[1].parts[0].state must be input-streaming, input-available, output-available or output-error, got the string "done"',
    );
    expect(() => fromAiSdkUi({ reward: 1, messages: [{ id: 'a', role: 'data', parts: [] }] }, 1)).toThrow(
      'messages[0].role must be system, user or assistant, got the string "data"',
    );
  });
});

describe('refused shapes', () => {
  const read = async (line: unknown, from: 'ai-sdk' | 'ai-sdk-ui' | 'openai') => {
    const issues: LineIssue[] = [];
    for await (const _ of openTrajectories(Readable.from([`${JSON.stringify(line)}\n`]), {
      from,
      name: 'chat.jsonl',
      onIssue: (i) => issues.push(i),
    }));
    return issues.map(formatIssue);
  };
  const uiLine = {
    reward: 1,
    messages: [user('hi'), { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hello' }] }],
  };

  it('names AI SDK 5 UIMessages read as another shape, and the importer that reads them', async () => {
    for (const from of ['ai-sdk', 'openai'] as const) {
      const [issue] = await read(uiLine, from);
      expect(issue).toMatch(/^chat\.jsonl:1: /);
      expect(issue).toMatch(
        /looks like AI SDK 5 UIMessages \(parts arrays\): use from 'ai-sdk-ui' \(fromAiSdkUi\)/,
      );
      expect(issue).not.toMatch(/undefined undefined/);
    }
    expect(await read(uiLine, 'ai-sdk-ui')).toEqual([]);
  });

  it('names AI SDK messages with content arrays read as UIMessages, and AI SDK 4 UI messages', async () => {
    const model = {
      reward: 1,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'a', input: {} }] },
      ],
    };
    const [issue] = await read(model, 'ai-sdk-ui');
    expect(issue).toBe(
      "chat.jsonl:1: messages[0].parts must be an array, got nothing (the field is missing); the line looks like AI SDK messages with content arrays (ModelMessage parts): use from 'ai-sdk' (fromAiSdk)",
    );
    const v4 = {
      reward: 1,
      messages: [
        { id: 'u', role: 'user', content: 'hi', parts: [{ type: 'text', text: 'hi' }] },
        {
          id: 'a',
          role: 'assistant',
          content: '',
          parts: [
            {
              type: 'tool-invocation',
              toolInvocation: { state: 'result', toolCallId: 'c', toolName: 'a', args: {}, result: 1 },
            },
          ],
        },
      ],
    };
    const [v4Issue] = await read(v4, 'ai-sdk-ui');
    expect(v4Issue).toMatch(/looks like AI SDK 4 UI messages \(tool-invocation parts or toolInvocations\)/);
    expect(v4Issue).toMatch(/use from 'ai-sdk'/);
  });
});
