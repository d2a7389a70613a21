import { describe, expect, it } from 'vitest';
import { fromAiSdk } from './from-ai-sdk.js';
import { trajectorySchema } from './trajectory-schema.js';

// A multi-step generateText call with tool steps, as each SDK version's result type lays it out
// (vercel/ai at tags ai@4.3.19 and ai@5.0.0: packages/ai/core/generate-text/step-result.ts and
// packages/ai/src/generate-text/{step-result,content-part,to-response-messages}.ts). Both versions give
// every step a `response.messages` holding the messages of every step so far, and the result's
// `response.messages` all of them. Step 1 calls getWeather(Paris), step 2 says a word and calls
// getWeather(Lyon), which fails, step 3 answers.
const prompt = 'Weather in Paris and Lyon?';
const expected = [
  { role: 'user', content: prompt },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Paris"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', content: '{"temperature":18}' },
  {
    role: 'assistant',
    content: 'Now Lyon.',
    tool_calls: [
      { id: 'c2', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Lyon"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'c2', content: 'timeout' },
  { role: 'assistant', content: 'Paris is at 18 °C; Lyon did not answer.' },
];

// AI SDK 5: ModelMessage parts with `input` and typed `output`; a failed tool is a `tool-error` content
// part of its step and an `error-text` output in the tool message.
const call1 = { type: 'tool-call', toolCallId: 'c1', toolName: 'getWeather', input: { city: 'Paris' } };
const call2 = { type: 'tool-call', toolCallId: 'c2', toolName: 'getWeather', input: { city: 'Lyon' } };
const v5Messages = [
  { role: 'assistant', content: [call1] },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'getWeather',
        output: { type: 'json', value: { temperature: 18 } },
      },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Now Lyon.' }, call2] },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'getWeather',
        output: { type: 'error-text', value: 'timeout' },
      },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Paris is at 18 °C; Lyon did not answer.' }] },
];
const v5Steps = [
  {
    content: [
      call1,
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'getWeather',
        input: { city: 'Paris' },
        output: { temperature: 18 },
      },
    ],
    text: '',
    toolCalls: [call1],
    toolResults: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'getWeather',
        input: { city: 'Paris' },
        output: { temperature: 18 },
      },
    ],
    finishReason: 'tool-calls',
    response: { id: 'r1', modelId: 'm', messages: v5Messages.slice(0, 2) },
  },
  {
    content: [
      { type: 'text', text: 'Now Lyon.' },
      call2,
      {
        type: 'tool-error',
        toolCallId: 'c2',
        toolName: 'getWeather',
        input: { city: 'Lyon' },
        error: 'timeout',
      },
    ],
    text: 'Now Lyon.',
    toolCalls: [call2],
    toolResults: [],
    finishReason: 'tool-calls',
    response: { id: 'r2', modelId: 'm', messages: v5Messages.slice(0, 4) },
  },
  {
    content: [{ type: 'text', text: 'Paris is at 18 °C; Lyon did not answer.' }],
    text: 'Paris is at 18 °C; Lyon did not answer.',
    toolCalls: [],
    toolResults: [],
    finishReason: 'stop',
    response: { id: 'r3', modelId: 'm', messages: v5Messages },
  },
];

const read = (record: Record<string, unknown>) =>
  trajectorySchema.parse(fromAiSdk({ prompt, reward: 1, ...record }, 1)).messages;
const withoutResponses = (steps: Record<string, unknown>[]) => steps.map(({ response: _r, ...s }) => s);

describe('fromAiSdk: every step of a multi-step result (AI SDK 5)', () => {
  it('reads response.messages of the result', () => {
    expect(read({ steps: v5Steps, response: { id: 'r3', messages: v5Messages } })).toEqual(expected);
  });

  it('reads the longest of the steps’ response.messages when the result has none', () => {
    expect(read({ steps: v5Steps })).toEqual(expected);
    // Whichever step holds the most: the order in which a logger kept them does not matter.
    expect(read({ steps: [v5Steps[2]!, v5Steps[0]!, v5Steps[1]!] })).toEqual(expected);
    // Steps logged with their response only (no content, no toolCalls): the longest holds every step.
    const responsesOnly = v5Steps.map((step) => ({ response: step.response }));
    expect(read({ steps: responsesOnly })).toEqual(expected);
    expect(read({ steps: [responsesOnly[2]!, responsesOnly[0]!, responsesOnly[1]!] })).toEqual(expected);
  });

  it('reads the steps’ content (tool errors included) when no messages were kept', () => {
    expect(read({ steps: withoutResponses(v5Steps) })).toEqual(expected);
  });

  it('reads the steps when response.messages lacks a tool call they record', () => {
    // A log that kept only the last step's own messages.
    expect(read({ steps: v5Steps, response: { messages: v5Messages.slice(4) } })).toEqual(expected);
  });

  it('keeps the result of a provider-executed tool, which sits in the assistant message', () => {
    const messages = [
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'w1',
            toolName: 'web_search',
            input: { query: 'Paris' },
            providerExecuted: true,
          },
          {
            type: 'tool-result',
            toolCallId: 'w1',
            toolName: 'web_search',
            output: { type: 'json', value: ['a'] },
            providerExecuted: true,
          },
          { type: 'text', text: 'Found it.' },
        ],
      },
    ];
    expect(read({ response: { messages } }).slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Found it.',
        tool_calls: [
          { id: 'w1', type: 'function', function: { name: 'web_search', arguments: '{"query":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'w1', content: '["a"]' },
    ]);
  });
});

// AI SDK 4: tool-call parts with `args`, tool-result parts with a raw `result`; a step's toolCalls and
// toolResults likewise, and `stepType` ('initial' | 'continue' | 'tool-result'). Tool errors were thrown,
// not recorded, so the second call succeeds here.
describe('fromAiSdk: every step of a multi-step result (AI SDK 4)', () => {
  const c1 = { type: 'tool-call', toolCallId: 'c1', toolName: 'getWeather', args: { city: 'Paris' } };
  const c2 = { type: 'tool-call', toolCallId: 'c2', toolName: 'getWeather', args: { city: 'Lyon' } };
  const r1 = {
    type: 'tool-result',
    toolCallId: 'c1',
    toolName: 'getWeather',
    args: { city: 'Paris' },
    result: { temperature: 18 },
  };
  const r2 = {
    type: 'tool-result',
    toolCallId: 'c2',
    toolName: 'getWeather',
    args: { city: 'Lyon' },
    result: 'timeout',
  };
  const messages = [
    { role: 'assistant', content: [c1] },
    { role: 'tool', content: [r1] },
    { role: 'assistant', content: [{ type: 'text', text: 'Now Lyon.' }, c2] },
    { role: 'tool', content: [r2] },
    { role: 'assistant', content: [{ type: 'text', text: 'Paris is at 18 °C; Lyon did not answer.' }] },
  ];
  const steps = [
    {
      stepType: 'initial',
      text: '',
      toolCalls: [c1],
      toolResults: [r1],
      finishReason: 'tool-calls',
      response: { messages: messages.slice(0, 2) },
    },
    {
      stepType: 'tool-result',
      text: 'Now Lyon.',
      toolCalls: [c2],
      toolResults: [r2],
      finishReason: 'tool-calls',
      response: { messages: messages.slice(0, 4) },
    },
    {
      stepType: 'tool-result',
      text: 'Paris is at 18 °C;',
      toolCalls: [],
      toolResults: [],
      finishReason: 'length',
      response: { messages },
    },
    {
      stepType: 'continue',
      text: ' Lyon did not answer.',
      toolCalls: [],
      toolResults: [],
      finishReason: 'stop',
      response: { messages },
    },
  ];

  it('reads response.messages, the steps’ messages, and the steps themselves alike', () => {
    expect(read({ steps, response: { messages } })).toEqual(expected);
    expect(read({ steps })).toEqual(expected);
    // From the steps alone, a continuation step extends the previous step's text.
    expect(read({ steps: withoutResponses(steps) })).toEqual(expected);
  });
});

describe('fromAiSdk errors', () => {
  it('names the field path and the value', () => {
    expect(() =>
      read({
        response: { messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolName: 'a' }] }] },
      }),
    ).toThrow(
      'response.messages[0].content[0].toolCallId must be a string, got nothing (the field is missing)',
    );
    expect(() => read({ steps: [{ text: '', toolCalls: 'x' }] })).toThrow(
      'steps[0].toolCalls must be an array, got the string "x"',
    );
    expect(() =>
      fromAiSdk(
        { messages: [{ role: 'developer', content: 'x' }], response: { messages: [] }, reward: 1 },
        1,
      ),
    ).toThrow('messages[0].role must be system, user, assistant or tool, got the string "developer"');
  });
});
