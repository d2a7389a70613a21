import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trajectoryJsonSchema } from './trajectory-json-schema.js';
import { trajectorySchema } from './trajectory-schema.js';

const valid = {
  id: 'run-1',
  task: 'Compute (2 + 3) * 4.',
  sequence: 3,
  messages: [
    { role: 'system', content: 'Use the calculator.' },
    { role: 'user', content: 'Compute (2 + 3) * 4.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'calculator', arguments: '{"expression":"2 + 3"}' } },
      ],
      trace: { logprobs: [-0.1, -0.2], tokenIds: [5, 9], policyVersion: 2 },
    },
    { role: 'tool', tool_call_id: 'c1', content: '5' },
    { role: 'assistant', content: 'The answer is 20.' },
  ],
  tools: [{ type: 'function', function: { name: 'calculator', parameters: { type: 'object' } } }],
  reward: 1,
  rewardComponents: { correct: 1 },
  metadata: { model: 'x' },
};

describe('trajectorySchema', () => {
  it('accepts a run with tool calls, tool messages, traces and components', () => {
    expect(trajectorySchema.parse(valid)).toEqual(valid);
  });

  it("accepts a run's additional histories, each with its messages and tools", () => {
    const run = {
      ...valid,
      additionalHistories: [{ messages: valid.messages, tools: valid.tools }, { messages: valid.messages }],
    };
    expect(trajectorySchema.parse(run)).toEqual(run);
  });

  it.each([
    ['no id', { ...valid, id: '' }, 'id'],
    ['a reward that is not finite', { ...valid, reward: Number.POSITIVE_INFINITY }, 'reward'],
    ['no messages', { ...valid, messages: [] }, 'messages'],
    [
      'a tool message without its call id',
      { ...valid, messages: [{ role: 'tool', content: 'x' }] },
      'messages.0.tool_call_id',
    ],
    ['an unknown role', { ...valid, messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role'],
    [
      'a positive log-probability',
      { ...valid, messages: [{ role: 'assistant', content: 'x', trace: { logprobs: [0.5] } }] },
      'messages.0.trace.logprobs.0',
    ],
    ['a negative sequence', { ...valid, sequence: -1 }, 'sequence'],
    [
      'an empty additional history',
      { ...valid, additionalHistories: [{ messages: [] }] },
      'additionalHistories.0.messages',
    ],
    [
      'a bad message in an additional history',
      { ...valid, additionalHistories: [{ messages: [{ role: 'tool', content: 'x' }] }] },
      'additionalHistories.0.messages.0.tool_call_id',
    ],
    ['a createdAt that is not ISO 8601', { ...valid, createdAt: 'yesterday' }, 'createdAt'],
  ])('rejects %s, naming the path', (_, record, path) => {
    const result = trajectorySchema.safeParse(record);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});

describe('trajectoryJsonSchema', () => {
  it('equals the committed trajectory.schema.json (regenerate with `pnpm build && pnpm schema`)', () => {
    const committed = readFileSync(new URL('../trajectory.schema.json', import.meta.url), 'utf8');
    // Compared as JSON: the file is formatted by biome.
    expect(JSON.parse(committed)).toStrictEqual(trajectoryJsonSchema());
  });

  it('is draft 2020-12 with the required fields', () => {
    const schema = trajectoryJsonSchema();
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema['required']).toEqual(['id', 'task', 'messages', 'reward']);
  });
});
