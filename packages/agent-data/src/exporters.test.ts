import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toArtRecord } from './to-art-record.js';
import { toOpenAIRecord } from './to-openai-record.js';
import { toTrlRecords } from './to-trl-record.js';
import type { Trajectory } from './trajectory-schema.js';
import { writeDataset } from './write-dataset.js';

const t: Trajectory = {
  id: 'run-1',
  task: 'weather',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
      trace: { logprobs: [-0.1], policyVersion: 1 },
    },
    { role: 'tool', tool_call_id: 'c1', content: '18' },
    { role: 'assistant', content: 'It is 18 °C.', trace: { logprobs: [-0.2] } },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
  reward: 1,
  rewardComponents: { correct: 1 },
};
const other: Trajectory = {
  id: 'run-2',
  task: 'x',
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
  ],
  reward: 0,
};

/** A run with a sub-agent's conversation (ART's additional_histories). */
const withSub: Trajectory = {
  ...other,
  id: 'run-3',
  additionalHistories: [
    {
      messages: [
        { role: 'system', content: 'You look things up.' },
        { role: 'assistant', content: 'Found it.', trace: { logprobs: [-0.3] } },
      ],
      tools: [{ type: 'function', function: { name: 'search' } }],
    },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'agent-data-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('toOpenAIRecord', () => {
  it('writes chat fields only: no trace, content null beside tool calls, and the tools', () => {
    expect(toOpenAIRecord(t)).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: t.messages[2]!.role === 'assistant' ? t.messages[2]!.tool_calls : [],
        },
        { role: 'tool', tool_call_id: 'c1', content: '18' },
        { role: 'assistant', content: 'It is 18 °C.' },
      ],
      tools: t.tools,
    });
  });
});

/** Keys a value may have, recursively checked by `onlyKeys`. */
type KeySpec = { readonly [key: string]: KeySpec | true };

/** Fails naming the first key of `value` (at any depth that `spec` describes) that `spec` does not allow. */
function onlyKeys(value: unknown, spec: KeySpec, path = 'record'): void {
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const allowed = spec[key];
    expect(allowed, `${path}.${key} is not a key of TRL's documented shape`).toBeDefined();
    if (allowed === true || allowed === undefined) continue;
    for (const [i, item] of (Array.isArray(v) ? v : [v]).entries())
      onlyKeys(item, allowed, `${path}.${key}[${i}]`);
  }
}

// TRL's conversational dataset with tools (https://huggingface.co/docs/trl/dataset_formats, "Tool Calling";
// docs/source/dataset_formats.md): `{ "messages": [...], "tools": [json_schema] }`, assistant turns with
// `tool_calls: [{ type: 'function', function: { name, arguments: {object} } }]`, tool messages
// `{ role: 'tool', name, content }`. transformers' chat templating docs (chat_extras, "Tools") add the call
// `id` and the tool message's `tool_call_id` that Mistral's template needs. `weight` is this package's column.
const trlMessage: KeySpec = {
  role: true,
  content: true,
  name: true,
  tool_call_id: true,
  tool_calls: { id: true, type: true, function: { name: true, arguments: true } },
};
const trlTool: KeySpec = {
  type: true,
  function: { name: true, description: true, parameters: true, strict: true },
};
const trlRecord: KeySpec = { messages: trlMessage, tools: trlTool, weight: true };

describe('toTrlRecords', () => {
  it('writes messages with parsed tool-call arguments, the tools and a float weight', () => {
    const [record] = toTrlRecords(t, 2.75);
    if (record === undefined || !('messages' in record)) throw new Error('expected a messages record');
    expect(record.weight).toBe(2.75);
    expect(record.messages[2]).toEqual({
      role: 'assistant',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } },
      ],
    });
    expect(record.tools).toEqual(t.tools);
  });

  it("gives a tool message the name of the tool it answers and keeps to TRL's documented keys", () => {
    const [record] = toTrlRecords(t, 1);
    if (record === undefined || !('messages' in record)) throw new Error('expected a messages record');
    expect(record.messages[3]).toEqual({
      role: 'tool',
      name: 'get_weather',
      tool_call_id: 'c1',
      content: '18',
    });
    onlyKeys(record, trlRecord);
    for (const m of record.messages) {
      expect(['system', 'user', 'assistant', 'tool']).toContain(m['role']);
      if (m['role'] === 'tool') expect(typeof m['name']).toBe('string');
      for (const call of (m['tool_calls'] as { function: { arguments: unknown } }[] | undefined) ?? []) {
        expect(typeof call.function.arguments).toBe('object');
      }
    }
  });

  it('writes a conversation with an excluded turn as one prompt-completion record per trained turn', () => {
    const excluded: Trajectory = {
      ...t,
      messages: t.messages.map((m, i) => (i === 2 ? { ...m, weight: 0 as const } : m)),
    };
    const records = toTrlRecords(excluded, 2);
    expect(records).toHaveLength(1);
    const [record] = records;
    if (record === undefined || !('prompt' in record)) throw new Error('expected a prompt-completion record');
    expect(record.completion).toEqual([{ role: 'assistant', content: 'It is 18 °C.' }]);
    expect(record.prompt).toHaveLength(4);
    expect(record.prompt[2]).toMatchObject({ role: 'assistant', tool_calls: expect.any(Array) });
    expect(record.weight).toBe(2);
    onlyKeys(record, { prompt: trlMessage, completion: trlMessage, tools: trlTool, weight: true });
  });
});

describe('toArtRecord', () => {
  it('writes assistant turns as Choices, the reward, the components as metrics and the id in metadata', () => {
    const record = toArtRecord(t);
    expect(record.messages_and_choices[2]).toEqual({
      finish_reason: 'tool_calls',
      index: 0,
      logprobs: { content: [{ token: '', logprob: -0.1, bytes: null, top_logprobs: [] }] },
      message: { role: 'assistant', content: null, tool_calls: expect.any(Array) },
    });
    expect(record.messages_and_choices[4]).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'It is 18 °C.' },
    });
    expect(record).toMatchObject({
      reward: 1,
      metrics: { correct: 1 },
      metadata: { ftw_id: 'run-1', task: 'weather' },
    });
  });

  it("writes a trace's tokens (or token ids) and log-probabilities into the Choice, and an excluded turn as a message", () => {
    const traced: Trajectory = {
      ...other,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'a', trace: { logprobs: [-1, -2], tokens: ['h', 'i'] } },
        { role: 'user', content: 'again' },
        { role: 'assistant', content: 'b', trace: { logprobs: [-3], tokenIds: [42] } },
        { role: 'user', content: 'once more' },
        { role: 'assistant', content: 'c', weight: 0, trace: { logprobs: [-4] } },
      ],
    };
    const [, first, , second, , third] = toArtRecord(traced).messages_and_choices;
    expect(first!['logprobs']).toEqual({
      content: [
        { token: 'h', logprob: -1, bytes: null, top_logprobs: [] },
        { token: 'i', logprob: -2, bytes: null, top_logprobs: [] },
      ],
    });
    expect(second!['logprobs']).toEqual({
      content: [{ token: 'token_id:42', logprob: -3, bytes: null, top_logprobs: [] }],
    });
    expect(third).toEqual({ role: 'assistant', content: 'c' });
  });
});

describe('toOpenAIRecord weight', () => {
  it("keeps an assistant turn's weight of 0 or 1", () => {
    const weighted: Trajectory = {
      ...other,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'a', weight: 0 },
        { role: 'user', content: 'again' },
        { role: 'assistant', content: 'b', weight: 1 },
      ],
    };
    expect(toOpenAIRecord(weighted).messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'a', weight: 0 },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'b', weight: 1 },
    ]);
  });
});

describe('writeDataset', () => {
  it('writes a count of m as m copies for openai, and each run once with its weight for trl', async () => {
    const openai = join(dir, 'openai.jsonl');
    const written = await writeDataset(openai, [t, other], [3, 0], { format: 'openai' });
    expect(lines(openai)).toEqual([toOpenAIRecord(t), toOpenAIRecord(t), toOpenAIRecord(t)]);
    expect(written.lines).toBe(3);
    const trl = join(dir, 'trl.jsonl');
    await writeDataset(trl, [t, other], [1.5, 0.25], { format: 'trl' });
    expect(lines(trl).map((r) => r.weight)).toEqual([1.5, 0.25]);
  });

  it("writes each conversation of a run (main, then additional histories) with the run's count", async () => {
    const sub = withSub.additionalHistories![0]!;
    const openai = join(dir, 'openai-histories.jsonl');
    const written = await writeDataset(openai, [withSub, t], [2, 1], { format: 'openai' });
    const main = { messages: withSub.messages };
    expect(lines(openai)).toEqual([
      toOpenAIRecord(main),
      toOpenAIRecord(main),
      toOpenAIRecord(sub),
      toOpenAIRecord(sub),
      toOpenAIRecord(t),
    ]);
    expect(lines(openai)[2]).toEqual({
      messages: [
        { role: 'system', content: 'You look things up.' },
        { role: 'assistant', content: 'Found it.' },
      ],
      tools: [{ type: 'function', function: { name: 'search' } }],
    });
    expect(written.lines).toBe(5);
    expect(Array.from(written.written)).toEqual([2, 1]);
    const trl = join(dir, 'trl-histories.jsonl');
    expect((await writeDataset(trl, [withSub], [1.5], { format: 'trl' })).lines).toBe(2);
    expect(lines(trl)).toEqual([...toTrlRecords(main, 1.5), ...toTrlRecords(sub, 1.5)]);
    // ART keeps a run's conversations together, in one line per copy.
    const art = join(dir, 'art-histories.jsonl');
    expect((await writeDataset(art, [withSub], [2], { format: 'art' })).lines).toBe(2);
    expect(lines(art)[1].additional_histories).toEqual([
      {
        messages_and_choices: [
          { role: 'system', content: 'You look things up.' },
          {
            finish_reason: 'stop',
            index: 0,
            logprobs: { content: [{ token: '', logprob: -0.3, bytes: null, top_logprobs: [] }] },
            message: { role: 'assistant', content: 'Found it.' },
          },
        ],
        tools: [{ type: 'function', function: { name: 'search' } }],
      },
    ]);
    expect(toArtRecord(t)).not.toHaveProperty('additional_histories');
  });

  it('leaves out a conversation none of whose turns is trained on, in every format but art', async () => {
    const excluded: Trajectory = {
      ...other,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', weight: 0 },
      ],
    };
    for (const format of ['openai', 'trl'] as const) {
      const path = join(dir, `excluded-${format}.jsonl`);
      expect((await writeDataset(path, [excluded, other], [2, 1], { format })).lines).toBe(1);
      expect(lines(path)[0].messages[1].content).toBe('hello');
      expect(lines(path)[0].messages[1]).not.toHaveProperty('weight');
    }
  });

  it('rounds fractional counts systematically for art, keeping the total', async () => {
    const art = join(dir, 'art.jsonl');
    const written = await writeDataset(art, [t, other, t], [0.5, 1.25, 1.25], { format: 'art', u: 0.3 });
    expect(Array.from(written.written)).toEqual([0, 2, 1]);
    expect(lines(art)).toHaveLength(3);
  });

  it('refuses fractional counts without u, an unknown format and a length mismatch, leaving no file', async () => {
    const path = join(dir, 'bad.jsonl');
    await expect(writeDataset(path, [t], [0.5], { format: 'openai' })).rejects.toThrow(
      /u \(a uniform on \[0, 1\)\) is required/,
    );
    await expect(writeDataset(path, [t], [1], { format: 'csv' as never })).rejects.toThrow(
      /format must be one of openai, trl, art/,
    );
    await expect(writeDataset(path, [t], [1, 2], { format: 'openai' })).rejects.toThrow(
      /one entry per item \(1\), got 2/,
    );
    expect(() => readFileSync(path)).toThrow();
  });
});
