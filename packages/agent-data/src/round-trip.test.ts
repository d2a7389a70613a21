// Round-trip fidelity: for every input shape, arbitrary valid runs are written in that shape, imported, and
// exported in every output format; what each output can hold must come out unchanged. A run is generated
// once in a neutral form (turns of text and tool calls with their results, OpenAI weights, ART
// log-probabilities) and rendered in each shape as its SDK documents it (see the importers' tests for the
// sources); the expected outputs are built here from that form, not by the exporters.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type InputFormat, importerFor } from './input-format.js';
import { toArtRecord } from './to-art-record.js';
import { toOpenAIRecord } from './to-openai-record.js';
import { type TrlMessage, toTrlRecords } from './to-trl-record.js';
import { type Trajectory, trajectorySchema } from './trajectory-schema.js';

interface Call {
  id: string;
  name: string;
  args: Record<string, string | number | boolean | null>;
  result: string;
}
interface Turn {
  text: string;
  calls: Call[];
  /** OpenAI's per-turn weight (shapes that hold one). */
  weight: 0 | 1;
  /** ART's Choice log-probabilities (shapes that hold them). */
  logprobs: { token: string; logprob: number }[];
}
interface Run {
  system: string | undefined;
  user: string;
  turns: Turn[];
  reward: number;
}

const name = fc.constantFrom('add', 'search', 'get_weather');
const args = fc.dictionary(
  fc.constantFrom('a', 'b', 'city'),
  fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null)),
  { maxKeys: 2 },
);
const logprob = fc.double({ min: -20, max: 0, noNaN: true }).map((x) => (x === 0 ? 0 : x));
const turn = (final: boolean) =>
  fc.record({
    text: final ? fc.string({ minLength: 1, maxLength: 8 }) : fc.string({ maxLength: 8 }),
    calls: final
      ? fc.constant([])
      : fc.array(fc.record({ name, args, result: fc.string({ maxLength: 8 }) }), {
          minLength: 1,
          maxLength: 2,
        }),
    weight: fc.constantFrom<0 | 1>(0, 1, 1),
    logprobs: fc.array(fc.record({ token: fc.string({ maxLength: 3 }), logprob }), { maxLength: 3 }),
  });
const run: fc.Arbitrary<Run> = fc
  .record({
    system: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
    user: fc.string({ maxLength: 8 }),
    middle: fc.array(turn(false), { maxLength: 3 }),
    last: turn(true),
    reward: fc.double({ min: -5, max: 5, noNaN: true }).map((x) => (x === 0 ? 0 : x)),
  })
  .map(({ system, user, middle, last, reward }) => {
    let n = 0;
    const turns = [...middle, last].map((t) => ({
      ...t,
      calls: (t.calls as Omit<Call, 'id'>[]).map((c) => ({ ...c, id: `call_${++n}` })),
    }));
    return { system, user, turns, reward };
  });

/**
 * What a shape can hold beyond the conversation itself: OpenAI's weights as 0 and 1 (`'both'`), or only
 * whether a turn is trained (ART: a Choice or a plain message, so a trained turn has no weight field).
 */
interface Holds {
  readonly weight: 'both' | 'excluded' | false;
  readonly logprobs: boolean;
}
const HOLDS: Record<InputFormat, Holds> = {
  ftw: { weight: 'both', logprobs: true },
  openai: { weight: 'both', logprobs: false },
  'ai-sdk': { weight: false, logprobs: false },
  'ai-sdk-ui': { weight: false, logprobs: false },
  agents: { weight: false, logprobs: false },
  art: { weight: 'excluded', logprobs: true },
};

const declared = (r: Run) =>
  [...new Set(r.turns.flatMap((t) => t.calls.map((c) => c.name)))].map((n) => ({
    type: 'function' as const,
    function: { name: n },
  }));
const chatCall = (c: Call) => ({
  id: c.id,
  type: 'function',
  function: { name: c.name, arguments: JSON.stringify(c.args) },
});
const content = (t: Turn) => (t.text === '' && t.calls.length > 0 ? null : t.text);

/** The run in each shape, as its SDK logs it. */
const RENDER: Record<InputFormat, (r: Run) => Record<string, unknown>> = {
  // The package's own schema: weights and traces (tokens, log-probabilities) on the assistant turns.
  ftw: (r) => ({
    id: 'run',
    task: 'task',
    reward: r.reward,
    ...(declared(r).length > 0 ? { tools: declared(r) } : {}),
    messages: [
      ...(r.system === undefined ? [] : [{ role: 'system', content: r.system }]),
      { role: 'user', content: r.user },
      ...r.turns.flatMap((t) => [
        {
          role: 'assistant',
          content: content(t),
          ...(t.calls.length > 0 ? { tool_calls: t.calls.map(chatCall) } : {}),
          weight: t.weight,
          trace: { logprobs: t.logprobs.map((l) => l.logprob), tokens: t.logprobs.map((l) => l.token) },
        },
        ...t.calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: c.result })),
      ]),
    ],
  }),
  // OpenAI supervised fine-tuning chat format, assistant `weight` 0 or 1.
  openai: (r) => ({
    id: 'run',
    task: 'task',
    reward: r.reward,
    tools: declared(r),
    messages: [
      ...(r.system === undefined ? [] : [{ role: 'system', content: r.system }]),
      { role: 'user', content: r.user },
      ...r.turns.flatMap((t) => [
        {
          role: 'assistant',
          content: content(t),
          ...(t.calls.length > 0 ? { tool_calls: t.calls.map(chatCall) } : {}),
          weight: t.weight,
        },
        ...t.calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: c.result })),
      ]),
    ],
  }),
  // generateText's result: response.messages of AI SDK 5 ModelMessage parts.
  'ai-sdk': (r) => ({
    id: 'run',
    task: 'task',
    reward: r.reward,
    ...(r.system === undefined ? {} : { system: r.system }),
    prompt: r.user,
    tools: Object.fromEntries(declared(r).map((t) => [t.function.name, {}])),
    response: {
      messages: r.turns.flatMap((t) => [
        {
          role: 'assistant',
          content: [
            ...(t.text === '' ? [] : [{ type: 'text', text: t.text }]),
            ...t.calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.args })),
          ],
        },
        ...(t.calls.length === 0
          ? []
          : [
              {
                role: 'tool',
                content: t.calls.map((c) => ({
                  type: 'tool-result',
                  toolCallId: c.id,
                  toolName: c.name,
                  output: { type: 'text', value: c.result },
                })),
              },
            ]),
      ]),
    },
  }),
  // AI SDK 5 UIMessages: one assistant message, a step-start per model call.
  'ai-sdk-ui': (r) => ({
    id: 'run',
    task: 'task',
    reward: r.reward,
    tools: Object.fromEntries(declared(r).map((t) => [t.function.name, {}])),
    messages: [
      ...(r.system === undefined
        ? []
        : [{ id: 's', role: 'system', parts: [{ type: 'text', text: r.system }] }]),
      { id: 'u', role: 'user', parts: [{ type: 'text', text: r.user }] },
      {
        id: 'a',
        role: 'assistant',
        parts: r.turns.flatMap((t) => [
          { type: 'step-start' },
          ...(t.text === '' ? [] : [{ type: 'text', text: t.text, state: 'done' }]),
          ...t.calls.map((c) => ({
            type: `tool-${c.name}`,
            toolCallId: c.id,
            state: 'output-available',
            input: c.args,
            output: c.result,
          })),
        ]),
      },
    ],
  }),
  // RunResult.history of the Agents SDK: message items, function_call and function_call_result items.
  agents: (r) => ({
    id: 'run',
    task: 'task',
    reward: r.reward,
    ...(r.system === undefined ? {} : { instructions: r.system }),
    tools: declared(r).map((t) => ({ type: 'function', name: t.function.name })),
    history: [
      { role: 'user', content: r.user },
      ...r.turns.flatMap((t) => [
        ...(t.text === ''
          ? []
          : [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: t.text }],
              },
            ]),
        ...t.calls.map((c) => ({
          type: 'function_call',
          callId: c.id,
          name: c.name,
          arguments: JSON.stringify(c.args),
          status: 'completed',
        })),
        ...t.calls.map((c) => ({
          type: 'function_call_result',
          callId: c.id,
          name: c.name,
          output: c.result,
        })),
      ]),
    ],
  }),
  // A serialised art.Trajectory: trained turns as Choices with log-probabilities, excluded ones as dicts.
  art: (r) => ({
    reward: r.reward,
    metadata: { id: 'run', task: 'task' },
    tools: declared(r),
    messages_and_choices: [
      ...(r.system === undefined ? [] : [{ role: 'system', content: r.system }]),
      { role: 'user', content: r.user },
      ...r.turns.flatMap((t) => {
        const message = {
          role: 'assistant',
          content: content(t),
          ...(t.calls.length > 0 ? { tool_calls: t.calls.map(chatCall) } : {}),
        };
        const choice = {
          finish_reason: t.calls.length > 0 ? 'tool_calls' : 'stop',
          index: 0,
          logprobs: { content: t.logprobs.map((l) => ({ ...l, bytes: null, top_logprobs: [] })) },
          message,
        };
        return [
          t.weight === 0 ? message : choice,
          ...t.calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: c.result })),
        ];
      }),
    ],
  }),
};

/** The chat messages every output is built from: what the shape holds, in OpenAI's chat form. */
function chat(r: Run, holds: Pick<Holds, 'weight'>): Record<string, unknown>[] {
  return [
    ...(r.system === undefined ? [] : [{ role: 'system', content: r.system }]),
    { role: 'user', content: r.user },
    ...r.turns.flatMap((t) => [
      {
        role: 'assistant',
        content: content(t),
        ...(t.calls.length > 0 ? { tool_calls: t.calls.map(chatCall) } : {}),
        ...(holds.weight === 'both' || (holds.weight === 'excluded' && t.weight === 0)
          ? { weight: t.weight }
          : {}),
      },
      ...t.calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: c.result })),
    ]),
  ];
}

/** The same messages as TRL reads them: arguments as objects, no null content, tool names. */
function trlMessages(r: Run): TrlMessage[] {
  return [
    ...(r.system === undefined ? [] : [{ role: 'system', content: r.system }]),
    { role: 'user', content: r.user },
    ...r.turns.flatMap((t) => [
      {
        role: 'assistant',
        ...(content(t) === null ? {} : { content: t.text }),
        ...(t.calls.length > 0
          ? {
              tool_calls: t.calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: c.args },
              })),
            }
          : {}),
      },
      ...t.calls.map((c) => ({ role: 'tool', name: c.name, tool_call_id: c.id, content: c.result })),
    ]),
  ];
}

const importRun = (format: InputFormat, r: Run): Trajectory =>
  trajectorySchema.parse(importerFor(format)(JSON.parse(JSON.stringify(RENDER[format](r))), 1));

describe.each(Object.keys(HOLDS) as InputFormat[])('round trip from %s', (format) => {
  const holds = HOLDS[format];

  test.prop([run])('keeps the conversation, the tools and the reward in the openai output', (r) => {
    const t = importRun(format, r);
    expect(t.reward).toBe(r.reward);
    expect(t.id).toBe('run');
    expect(toOpenAIRecord(t)).toEqual({
      messages: chat(r, holds),
      ...(declared(r).length > 0 ? { tools: declared(r) } : {}),
    });
  });

  test.prop([run])('trains every kept turn once in the trl output, and an excluded turn never', (r) => {
    const records = toTrlRecords(importRun(format, r), 2.5);
    const messages = trlMessages(r);
    const excluded = holds.weight !== false && r.turns.some((t) => t.weight === 0);
    if (!excluded) {
      expect(records).toEqual([
        { messages, ...(declared(r).length > 0 ? { tools: declared(r) } : {}), weight: 2.5 },
      ]);
      return;
    }
    // One prompt-completion record per trained turn: its completion is that turn, its prompt all before it.
    const trained = messages.flatMap((m, i) => {
      if (m['role'] !== 'assistant') return [];
      const turnIndex = messages.slice(0, i).filter((x) => x['role'] === 'assistant').length;
      return r.turns[turnIndex]!.weight === 1 ? [i] : [];
    });
    expect(records.map((rec) => ('completion' in rec ? rec.completion : null))).toEqual(
      trained.map((i) => [messages[i]]),
    );
    expect(records.map((rec) => ('prompt' in rec ? rec.prompt : null))).toEqual(
      trained.map((i) => messages.slice(0, i)),
    );
  });

  test.prop([run])(
    'writes trained turns as Choices (with their log-probabilities) in the art output',
    (r) => {
      const record = toArtRecord(importRun(format, r));
      expect(record.reward).toBe(r.reward);
      const plain = chat(r, { weight: false });
      let k = 0;
      const expected = plain.map((m) => {
        if (m['role'] !== 'assistant') return m;
        const t = r.turns[k++]!;
        if (holds.weight !== false && t.weight === 0) return m;
        return {
          finish_reason: t.calls.length > 0 ? 'tool_calls' : 'stop',
          index: 0,
          logprobs: holds.logprobs
            ? { content: t.logprobs.map((l) => ({ ...l, bytes: null, top_logprobs: [] })) }
            : null,
          message: m,
        };
      });
      expect(record.messages_and_choices).toEqual(expected);
    },
  );
});

describe('log-probabilities of a logged OpenAI call', () => {
  it("reach the ART Choice of the response's turn, token by token", () => {
    // A logged Chat Completions call (https://platform.openai.com/docs/api-reference/chat/object).
    const logprobs = {
      content: [
        { token: 'It', logprob: -0.25, bytes: [73, 116], top_logprobs: [] },
        { token: ' is', logprob: -1.5, bytes: null, top_logprobs: [] },
      ],
    };
    const t = trajectorySchema.parse(
      importerFor('openai')(
        {
          reward: 1,
          request: { messages: [{ role: 'user', content: 'Weather?' }] },
          response: {
            choices: [
              { index: 0, finish_reason: 'stop', logprobs, message: { role: 'assistant', content: 'It is' } },
            ],
          },
        },
        1,
      ),
    );
    expect(toArtRecord(t).messages_and_choices[1]).toEqual({
      finish_reason: 'stop',
      index: 0,
      logprobs: { content: logprobs.content.map((c) => ({ ...c, bytes: null })) },
      message: { role: 'assistant', content: 'It is' },
    });
  });
});
