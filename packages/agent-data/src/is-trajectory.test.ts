import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { isTrajectory } from './is-trajectory.js';
import { trajectorySchema } from './trajectory-schema.js';

const text = fc.string({ maxLength: 8 });
const id = fc.string({ minLength: 1, maxLength: 6 });
const count = fc.nat({ max: 1000 });
const content = fc.oneof(
  text,
  fc.array(fc.record({ type: fc.constantFrom('text', 'image_url'), text }), { maxLength: 2 }),
);
const toolCall = fc.record({
  id,
  type: fc.constant('function'),
  function: fc.record({ name: id, arguments: text }),
});
const trace = fc.record(
  {
    logprobs: fc.array(fc.double({ min: -50, max: 0, noNaN: true }), { maxLength: 4 }),
    tokenIds: fc.array(count, { maxLength: 4 }),
    tokens: fc.array(text, { maxLength: 4 }),
    policyVersion: count,
  },
  { requiredKeys: ['logprobs'] },
);
const message = fc.oneof(
  fc.record(
    { role: fc.constantFrom('system', 'user'), content, name: text },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record(
    {
      role: fc.constant('assistant'),
      content: fc.oneof(content, fc.constant(null)),
      tool_calls: fc.array(toolCall, { maxLength: 2 }),
      name: text,
      weight: fc.constantFrom(0, 1),
      trace,
    },
    { requiredKeys: ['role'] },
  ),
  fc.record({ role: fc.constant('tool'), tool_call_id: id, content }),
);
const tool = fc.record({
  type: fc.constant('function'),
  function: fc.record(
    {
      name: id,
      description: text,
      parameters: fc.dictionary(text, fc.jsonValue(), { maxKeys: 2 }),
      strict: fc.boolean(),
    },
    { requiredKeys: ['name'] },
  ),
});
const trajectory = fc.record(
  {
    id,
    task: text,
    sequence: count,
    createdAt: fc.constantFrom('2026-11-30T12:00:00Z', '2026-11-30T12:00:00.123+01:00'),
    messages: fc.array(message, { minLength: 1, maxLength: 4 }),
    tools: fc.array(tool, { maxLength: 2 }),
    reward: fc.double({ min: -10, max: 10, noNaN: true }),
    rewardComponents: fc.dictionary(text, fc.double({ min: -1, max: 1, noNaN: true }), { maxKeys: 2 }),
    metadata: fc.dictionary(text, fc.jsonValue(), { maxKeys: 2 }),
    additionalHistories: fc.array(
      fc.record(
        {
          messages: fc.array(message, { minLength: 1, maxLength: 3 }),
          tools: fc.array(tool, { maxLength: 1 }),
        },
        { requiredKeys: ['messages'] },
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ['id', 'task', 'messages', 'reward'] },
);

/** Replaces the value at a random path of a JSON value by another (possibly invalid) value, or adds a key. */
function corrupt(value: unknown, path: number[], replacement: unknown, addKey: boolean): unknown {
  const copy = structuredClone(value);
  let node: unknown = copy;
  for (let depth = 0; depth < path.length; depth++) {
    const keys = node !== null && typeof node === 'object' ? Object.keys(node) : [];
    if (keys.length === 0) break;
    const key = keys[path[depth]! % keys.length]!;
    const child = (node as Record<string, unknown>)[key];
    const last = depth === path.length - 1 || child === null || typeof child !== 'object';
    if (last) {
      if (addKey && !Array.isArray(node)) (node as Record<string, unknown>)['extra'] = replacement;
      else (node as Record<string, unknown>)[key] = replacement;
      break;
    }
    node = child;
  }
  return copy;
}

describe('isTrajectory', () => {
  test.prop([trajectory])('accepts generated valid trajectories, which zod returns unchanged', (t) => {
    expect(isTrajectory(t)).toBe(true);
    expect(trajectorySchema.parse(t)).toEqual(t);
  });

  test.prop(
    [
      trajectory,
      fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
      fc.oneof(fc.jsonValue(), fc.constant(undefined)),
      fc.boolean(),
    ],
    {
      numRuns: 2000,
    },
  )(
    'whenever it accepts a corrupted record, zod accepts it and returns it unchanged',
    (t, path, replacement, addKey) => {
      const candidate = corrupt(t, path, replacement, addKey);
      if (isTrajectory(candidate)) {
        const parsed = trajectorySchema.safeParse(candidate);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(candidate);
      }
    },
  );
  const base = {
    id: 'a',
    task: 't',
    messages: [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
        trace: { logprobs: [-0.5], tokenIds: [1], policyVersion: 0 },
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ],
    reward: 0,
  };
  const assistant = base.messages[1]!;
  it.each([
    [
      'a positive log-probability',
      { ...base, messages: [base.messages[0], { ...assistant, trace: { logprobs: [0.1] } }] },
    ],
    [
      'a fractional token id',
      { ...base, messages: [base.messages[0], { ...assistant, trace: { logprobs: [], tokenIds: [1.5] } }] },
    ],
    [
      'a negative policy version',
      { ...base, messages: [base.messages[0], { ...assistant, trace: { logprobs: [], policyVersion: -1 } }] },
    ],
    ['a tool message without content', { ...base, messages: [{ role: 'tool', tool_call_id: 'c' }] }],
    [
      'an empty tool-call name',
      {
        ...base,
        messages: [
          {
            ...assistant,
            tool_calls: [{ id: 'c', type: 'function', function: { name: '', arguments: '' } }],
          },
        ],
      },
    ],
    ['a non-integer sequence', { ...base, sequence: 1.5 }],
    ['a bad createdAt', { ...base, createdAt: '30/11/2026' }],
    ['a non-finite reward component', { ...base, rewardComponents: { a: null } }],
    ['an array as metadata', { ...base, metadata: [] }],
    ['a missing reward', { id: 'a', task: 't', messages: base.messages }],
  ])('rejects a record with %s, as zod does', (_, record) => {
    expect(isTrajectory(record)).toBe(false);
    expect(trajectorySchema.safeParse(record).success).toBe(false);
  });

  it.each([
    ['an unknown message key', { ...base, messages: [{ role: 'user', content: 'x', extra: 1 }] }],
    ['tool_calls on a user message', { ...base, messages: [{ role: 'user', content: 'x', tool_calls: [] }] }],
    [
      'a tool call with an extra key',
      {
        ...base,
        messages: [
          {
            ...assistant,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' }, x: 1 }],
          },
        ],
      },
    ],
  ])('rejects a record with %s, which zod accepts but returns stripped', (_, record) => {
    expect(isTrajectory(record)).toBe(false);
    const parsed = trajectorySchema.safeParse(record);
    expect(parsed.success).toBe(true);
    expect(parsed.data).not.toEqual(record);
  });

  it('accepts the base record', () => {
    expect(isTrajectory(base)).toBe(true);
  });
});
