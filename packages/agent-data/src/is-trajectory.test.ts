import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
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
});
