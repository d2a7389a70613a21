import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AgentDataError } from './agent-data-error.js';
import { formatIssue, type LineIssue, openTrajectories } from './open-trajectories.js';

const good = (id: string, reward = 1) =>
  JSON.stringify({
    id,
    task: 't',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ],
    reward,
  });

const log = [
  good('a'),
  '{"id": "b", "task": "t", "messages": [{"role": "user", "content": "hi"}], "reward": 1',
  good('c'),
  JSON.stringify({ id: 'd', task: 't', messages: [{ role: 'user', content: 'hi' }], reward: 'high' }),
  '',
  JSON.stringify({ id: 'e', task: 't', messages: [], reward: 0 }),
  good('f', 0),
].join('\n');

describe('openTrajectories', () => {
  it('reports each bad line as file:line with its reason, skips and counts it', async () => {
    const issues: LineIssue[] = [];
    const stream = openTrajectories(Readable.from([log]), {
      name: 'runs.jsonl',
      onIssue: (i) => issues.push(i),
    });
    const ids: string[] = [];
    for await (const { trajectory, line } of stream) ids.push(`${trajectory.id}@${line}`);
    expect(ids).toEqual(['a@1', 'c@3', 'f@7']);
    expect(issues.map(formatIssue)).toEqual([
      expect.stringMatching(/^runs\.jsonl:2: invalid JSON: /),
      // The file, the line, the field path and the value.
      expect.stringMatching(/^runs\.jsonl:4: reward: .*, got the string "high"$/),
      expect.stringMatching(/^runs\.jsonl:6: messages: .*, got an array$/),
    ]);
    expect(stream.stats).toMatchObject({ lines: 7, valid: 3, skipped: 3 });
  });

  it('stops at the first bad line in strict mode', async () => {
    const stream = openTrajectories(Readable.from([log]), { name: 'runs.jsonl', strict: true });
    const read = async () => {
      for await (const _ of stream);
    };
    await expect(read()).rejects.toThrow(AgentDataError);
    await expect(
      (async () => {
        for await (const _ of openTrajectories(Readable.from([log]), { name: 'runs.jsonl', strict: true }));
      })(),
    ).rejects.toMatchObject({
      code: 'BAD_LINE',
      message: expect.stringMatching(/^runs\.jsonl:2: invalid JSON/),
    });
  });

  it('names the line, the field path and the value of a bad OpenAI weight', async () => {
    const issues: LineIssue[] = [];
    const line = {
      reward: 1,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: 'y', weight: 0.5 },
      ],
    };
    for await (const _ of openTrajectories(Readable.from([`\n${JSON.stringify(line)}\n`]), {
      from: 'openai',
      name: 'chat.jsonl',
      onIssue: (i) => issues.push(i),
    }));
    expect(issues.map(formatIssue)).toEqual([
      'chat.jsonl:2: messages[1].weight must be 0 or 1, got number 0.5',
    ]);
  });

  it('names the importer field that is missing', async () => {
    const issues: LineIssue[] = [];
    const stream = openTrajectories(Readable.from(['{"messages": [{"role": "user", "content": "x"}]}\n']), {
      from: 'openai',
      name: 'chat.jsonl',
      onIssue: (i) => issues.push(i),
    });
    for await (const _ of stream);
    expect(issues.map(formatIssue)).toEqual(['chat.jsonl:1: reward is missing']);
  });

  it('refuses an unknown input format at once', () => {
    expect(() => openTrajectories('x.jsonl', { from: 'csv' as never })).toThrow(RangeError);
  });
});
