import { describe, expect, it } from 'vitest';
import { fromAgentsSdk } from './from-agents-sdk.js';
import { fromAiSdk } from './from-ai-sdk.js';
import { fromArt } from './from-art.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { trajectorySchema } from './trajectory-schema.js';

// Each fixture is written from the shape its SDK documents (cited above it), around one weather question
// answered through one tool call, so that every importer must produce the same chat transcript.
const transcript = [
  { role: 'user', content: 'What is the weather in Paris?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":18}' },
  { role: 'assistant', content: 'It is 18 °C in Paris.' },
];

const parse = (candidate: unknown) => trajectorySchema.parse(candidate);
const untraced = (messages: readonly Record<string, unknown>[]) =>
  messages.map(({ trace: _trace, ...m }) => m);

describe('fromOpenAIChat', () => {
  // OpenAI supervised fine-tuning chat format with tools
  // (https://platform.openai.com/docs/guides/supervised-fine-tuning; Azure's "fine-tuning with tool calling"
  // shows the same `tool_calls` / `tool` message shape), plus the reward the issue asks for.
  it('reads the fine-tuning chat shape with a reward', () => {
    const t = parse(
      fromOpenAIChat(
        {
          messages: transcript,
          tools: [
            {
              type: 'function',
              function: {
                name: 'get_weather',
                parameters: { type: 'object', properties: { city: { type: 'string' } } },
              },
            },
          ],
          reward: 1,
          id: 'chat-1',
        },
        1,
      ),
    );
    expect(t.messages).toEqual(transcript);
    expect(t).toMatchObject({ id: 'chat-1', task: 'What is the weather in Paris?', reward: 1 });
    expect(t.tools![0]!.function.name).toBe('get_weather');
  });

  // A logged Chat Completions call: request `messages` and the response object's `choices[0]` with
  // `logprobs.content[].logprob` (https://platform.openai.com/docs/api-reference/chat/object).
  it('appends the response choice and keeps its token log-probabilities as the trace', () => {
    const t = parse(
      fromOpenAIChat(
        {
          request: { model: 'gpt-4.1-mini', messages: transcript.slice(0, 3) },
          response: {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            choices: [
              {
                index: 0,
                finish_reason: 'stop',
                message: { role: 'assistant', content: 'It is 18 °C in Paris.', refusal: null },
                logprobs: {
                  content: [
                    { token: 'It', logprob: -0.01, bytes: [73, 116], top_logprobs: [] },
                    { token: ' is', logprob: -0.2, bytes: null, top_logprobs: [] },
                  ],
                },
              },
            ],
          },
          reward: 0.5,
          policyVersion: 3,
        },
        9,
      ),
    );
    expect(untraced(t.messages)).toEqual(transcript);
    expect(t.messages[3]).toMatchObject({ trace: { logprobs: [-0.01, -0.2], policyVersion: 3 } });
    expect(t.id).toBe('line-9');
  });
});

describe('fromAiSdk', () => {
  // generateText's result (https://ai-sdk.dev/docs/reference/ai-sdk-core/generate-text): `response.messages`
  // are ModelMessages (https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message): an assistant message
  // with a `tool-call` part (toolCallId, toolName, input), a tool message with a `tool-result` part whose
  // `output` is `{ type: 'json', value }` (AI SDK 5), then the final text.
  const call = { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Paris' } };
  const result = {
    type: 'tool-result',
    toolCallId: 'call_1',
    toolName: 'get_weather',
    output: { type: 'json', value: { temperature: 18 } },
  };
  it('reads response.messages after the prompt', () => {
    const t = parse(
      fromAiSdk(
        {
          prompt: 'What is the weather in Paris?',
          text: 'It is 18 °C in Paris.',
          response: {
            id: 'resp-1',
            modelId: 'gpt-4.1-mini',
            messages: [
              { role: 'assistant', content: [call] },
              { role: 'tool', content: [result] },
              {
                role: 'assistant',
                content: [
                  { type: 'reasoning', text: 'done' },
                  { type: 'text', text: 'It is 18 °C in Paris.' },
                ],
              },
            ],
          },
          reward: 1,
        },
        1,
      ),
    );
    expect(t.messages).toEqual(transcript);
  });

  // Older logs (AI SDK 4): tool-call `args` and tool-result `result`; only `steps` with toolCalls,
  // toolResults and text (StepResult) when response.messages was not kept.
  it('reads AI SDK 4 parts and falls back to steps', () => {
    const v4 = parse(
      fromAiSdk(
        {
          messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
          response: {
            messages: [
              {
                role: 'assistant',
                content: [
                  {
                    type: 'tool-call',
                    toolCallId: 'call_1',
                    toolName: 'get_weather',
                    args: { city: 'Paris' },
                  },
                ],
              },
              {
                role: 'tool',
                content: [
                  {
                    type: 'tool-result',
                    toolCallId: 'call_1',
                    toolName: 'get_weather',
                    result: { temperature: 18 },
                  },
                ],
              },
              { role: 'assistant', content: 'It is 18 °C in Paris.' },
            ],
          },
          reward: 1,
        },
        1,
      ),
    );
    expect(v4.messages).toEqual(transcript);
    const steps = parse(
      fromAiSdk(
        {
          prompt: 'What is the weather in Paris?',
          steps: [
            {
              text: '',
              toolCalls: [
                {
                  type: 'tool-call',
                  toolCallId: 'call_1',
                  toolName: 'get_weather',
                  input: { city: 'Paris' },
                },
              ],
              toolResults: [
                {
                  type: 'tool-result',
                  toolCallId: 'call_1',
                  toolName: 'get_weather',
                  input: { city: 'Paris' },
                  output: { temperature: 18 },
                },
              ],
              finishReason: 'tool-calls',
            },
            { text: 'It is 18 °C in Paris.', toolCalls: [], toolResults: [], finishReason: 'stop' },
          ],
          reward: 1,
        },
        1,
      ),
    );
    expect(steps.messages).toEqual(transcript);
  });

  it('names a missing response', () => {
    expect(() => fromAiSdk({ prompt: 'x', reward: 1 }, 1)).toThrow(
      /response\.messages or steps must be an array/,
    );
  });
});

describe('fromAgentsSdk', () => {
  // RunResult.history (https://openai.github.io/openai-agents-js/guides/results/) holds protocol items
  // (@openai/agents-core types/protocol.ts): a user message, a `function_call` (callId, name, arguments as
  // JSON text), a `function_call_result` (output `{ type: 'text', text }`) and an assistant message with
  // `output_text` content.
  const history = [
    { role: 'user', content: 'What is the weather in Paris?' },
    { type: 'reasoning', content: [{ type: 'input_text', text: 'I should call the tool.' }] },
    {
      type: 'function_call',
      id: 'fc_1',
      callId: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      status: 'completed',
    },
    {
      type: 'function_call_result',
      name: 'get_weather',
      callId: 'call_1',
      status: 'completed',
      output: { type: 'text', text: '{"temperature":18}' },
    },
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'It is 18 °C in Paris.' }],
    },
  ];
  it('reads history', () => {
    expect(parse(fromAgentsSdk({ history, reward: 1 }, 1)).messages).toEqual(transcript);
  });

  it('reads input with newItems (run items carrying rawItem)', () => {
    const newItems = history
      .slice(1)
      .map((rawItem) => ({ type: 'run_item', rawItem, agent: { name: 'Weather' } }));
    const t = parse(
      fromAgentsSdk(
        { input: 'What is the weather in Paris?', newItems, reward: 1, instructions: 'Be brief.' },
        1,
      ),
    );
    expect(t.messages).toEqual([{ role: 'system', content: 'Be brief.' }, ...transcript]);
  });
});

describe('fromArt', () => {
  // A serialised art.Trajectory (OpenPipe ART src/art/trajectories.py): messages_and_choices mixing
  // message dicts and Chat Completions Choice objects (the trainable turns), tools, reward, metrics,
  // metadata, and the policy versions.
  it('reads messages_and_choices, turning choices into traced assistant turns', () => {
    const choice = (message: Record<string, unknown>, logprob: number) => ({
      finish_reason: message['tool_calls'] ? 'tool_calls' : 'stop',
      index: 0,
      logprobs: { content: [{ token: 'x', logprob, bytes: null, top_logprobs: [] }] },
      message,
    });
    const t = parse(
      fromArt(
        {
          messages_and_choices: [
            transcript[0],
            choice(transcript[1]!, -0.5),
            transcript[2],
            choice(transcript[3]!, -0.25),
          ],
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: {} } }],
          reward: 1,
          initial_policy_version: 4,
          final_policy_version: 4,
          metrics: { correct: 1 },
          metadata: { id: 'art-1', task: 'weather' },
          logs: [],
        },
        1,
      ),
    );
    expect(untraced(t.messages)).toEqual(transcript);
    expect(t.messages[1]).toMatchObject({ trace: { logprobs: [-0.5], policyVersion: 4 } });
    expect(t).toMatchObject({ id: 'art-1', task: 'weather', metadata: { metrics: { correct: 1 } } });
  });

  it('reads additional_histories as further conversations, leaving out empty ones', () => {
    const t = parse(
      fromArt(
        {
          messages_and_choices: [
            { role: 'user', content: 'Plan the trip.' },
            {
              finish_reason: 'stop',
              index: 0,
              logprobs: { content: [{ token: 'a', logprob: -0.5 }] },
              message: { role: 'assistant', content: 'Asking the weather agent.' },
            },
          ],
          reward: 1,
          initial_policy_version: 2,
          additional_histories: [
            {
              messages_and_choices: [
                transcript[0],
                {
                  finish_reason: 'tool_calls',
                  index: 0,
                  logprobs: { content: [{ token: 'b', logprob: -0.25 }] },
                  message: transcript[1],
                },
                transcript[2],
                { finish_reason: 'stop', index: 0, logprobs: null, message: transcript[3] },
              ],
              tools: [{ type: 'function', name: 'get_weather', parameters: {} }],
            },
            { messages_and_choices: [], tools: null },
          ],
        },
        1,
      ),
    );
    expect(t.additionalHistories).toHaveLength(1);
    const sub = t.additionalHistories![0]!;
    expect(untraced(sub.messages)).toEqual(transcript);
    expect(sub.messages[1]).toMatchObject({ trace: { logprobs: [-0.25], policyVersion: 2 } });
    expect(sub.tools).toEqual([{ type: 'function', function: { name: 'get_weather', parameters: {} } }]);
    // Without histories, none is recorded.
    const plain = parse(fromArt({ messages_and_choices: [transcript[0]], reward: 0 }, 1));
    expect(plain).not.toHaveProperty('additionalHistories');
    expect(() =>
      fromArt(
        {
          messages_and_choices: [transcript[0]],
          reward: 0,
          additional_histories: [{ messages_and_choices: [transcript[0], 7] }],
        },
        1,
      ),
    ).toThrow('additional_histories[0].messages_and_choices[1]');
    expect(() =>
      fromArt({ messages_and_choices: [transcript[0]], reward: 0, additional_histories: 'x' }, 1),
    ).toThrow('additional_histories');
  });

  it('records no version for a run that spans versions', () => {
    const t = parse(
      fromArt(
        {
          messages_and_choices: [
            { role: 'user', content: 'hi' },
            {
              finish_reason: 'stop',
              index: 0,
              logprobs: { content: [{ token: 'a', logprob: -1 }] },
              message: { role: 'assistant', content: 'a' },
            },
          ],
          reward: 0,
          initial_policy_version: 1,
          final_policy_version: 2,
        },
        1,
      ),
    );
    expect(t.messages[1]).toEqual({
      role: 'assistant',
      content: 'a',
      trace: { logprobs: [-1], tokens: ['a'] },
    });
  });
});
