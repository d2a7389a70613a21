import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type LineWarning, openTrajectories } from './open-trajectories.js';
import { runWarnings } from './run-warnings.js';
import type { ChatMessage, Trajectory } from './trajectory-schema.js';

const call = (id: string, name = 'add'): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }],
});
const tools = [{ type: 'function' as const, function: { name: 'add' } }];
const run = (messages: ChatMessage[], extra: Partial<Trajectory> = {}): Trajectory => ({
  id: 'r',
  task: 't',
  reward: 1,
  tools,
  messages: [{ role: 'user', content: '2+2?' }, ...messages],
  ...extra,
});
const answered = [
  call('c1'),
  { role: 'tool', tool_call_id: 'c1', content: '4' },
  { role: 'assistant', content: '4' },
] as ChatMessage[];

describe('runWarnings', () => {
  it('finds nothing in a run that declares its tools, uses distinct ids and ends with an answer', () => {
    expect(runWarnings(run(answered))).toEqual([]);
  });

  it('warns of a run ending on a tool call, on a tool result, or on a user message', () => {
    expect(runWarnings(run([call('c1')]))).toEqual([
      { kind: 'no-final-answer', detail: 'messages[1] (the last) calls add and no answer follows' },
    ]);
    expect(runWarnings(run(answered.slice(0, 2)))).toEqual([
      {
        kind: 'no-final-answer',
        detail: 'messages[2] (the last) is a tool message, not an assistant answer',
      },
    ]);
    expect(runWarnings(run([]))[0]!.detail).toBe(
      'messages[0] (the last) is a user message, not an assistant answer',
    );
  });

  it('warns of a tool that is called but not declared, naming what is declared', () => {
    expect(runWarnings(run([call('c0', 'mul'), ...answered]))).toEqual([
      { kind: 'undeclared-tool', detail: 'messages[1].tool_calls[0] calls "mul", but the run declares add' },
    ]);
    const { tools: _tools, ...bare } = run(answered);
    expect(runWarnings(bare)).toEqual([
      {
        kind: 'undeclared-tool',
        detail: 'messages[1].tool_calls[0] calls "add", but the run declares no tools',
      },
    ]);
  });

  it('warns of a tool-call id used twice, and checks every conversation of the run', () => {
    expect(runWarnings(run([...answered.slice(0, 2), ...answered]))).toEqual([
      {
        kind: 'duplicate-tool-call-id',
        detail: 'messages[3].tool_calls[0].id "c1" is also messages[1].tool_calls[0].id',
      },
    ]);
    // A sub-agent's conversation without its own tools is checked against the run's.
    const sub = run(answered, {
      additionalHistories: [{ messages: [{ role: 'user', content: 'x' }, call('s1', 'add')] }],
    });
    expect(runWarnings(sub)).toEqual([
      {
        kind: 'no-final-answer',
        detail: 'additionalHistories[0].messages[1] (the last) calls add and no answer follows',
      },
    ]);
  });
});

describe('openTrajectories warnings', () => {
  const lines = [run(answered), run([call('c1')]), run(answered), run([])]
    .map((t, i) => JSON.stringify({ ...t, id: `r${i}` }))
    .join('\n');

  it('counts the runs with each warning and keeps their lines', async () => {
    const warnings: LineWarning[] = [];
    const stream = openTrajectories(Readable.from([lines]), {
      name: 'runs.jsonl',
      onWarning: (w) => warnings.push(w),
    });
    const ids: string[] = [];
    for await (const { trajectory } of stream) ids.push(trajectory.id);
    expect(ids).toEqual(['r0', 'r1', 'r2', 'r3']);
    expect(stream.stats.warnings).toEqual({
      'no-final-answer': { count: 2, lines: [2, 4] },
      'undeclared-tool': { count: 0, lines: [] },
      'duplicate-tool-call-id': { count: 0, lines: [] },
    });
    expect(warnings.map((w) => `${w.line} ${w.kind}`)).toEqual(['2 no-final-answer', '4 no-final-answer']);
  });

  it('stops at the first warning in strict mode, naming the file, the line, the path and the value', async () => {
    await expect(
      (async () => {
        for await (const _ of openTrajectories(Readable.from([lines]), { name: 'runs.jsonl', strict: true }));
      })(),
    ).rejects.toMatchObject({
      code: 'RUN_WARNING',
      message: 'runs.jsonl:2: no-final-answer: messages[1] (the last) calls add and no answer follows',
    });
  });
});
