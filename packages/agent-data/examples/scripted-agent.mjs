#!/usr/bin/env node
// A scripted arithmetic agent that needs no network and no model: it solves "(a + b) × c" through
// calls to a `calculator` tool, makes a mistake with probability 1 − successRate (a wrong operand, so the
// answer is wrong and the reward is 0), sometimes re-checks an intermediate result (an extra turn), and
// records per-token log-probabilities and the policy version of every assistant turn. It writes the runs
// as a realistic log in any of the shapes @ftw/agent-data reads:
//
//   node examples/scripted-agent.mjs --shape ai-sdk --runs 500 --success-rate 0.3 --seed 1 --out runs.jsonl
//   (--tasks 20: 20 fixed problems attempted repeatedly, for per-task selection)
//
// Shapes: ftw | openai | ai-sdk | ai-sdk-ui | agents | art. Each line is one run. The same seed writes the same file.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'calculator',
      description: 'Evaluate an arithmetic expression with + and *',
      parameters: {
        type: 'object',
        properties: { expression: { type: 'string' } },
        required: ['expression'],
        additionalProperties: false,
      },
    },
  },
];
const SYSTEM = 'You are a careful calculator agent. Use the calculator tool, then state the answer.';
const START = Date.UTC(2026, 10, 1);

/** mulberry32: a tiny seeded generator (the example only; the packages take injected randomness). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function evaluate(expression) {
  return expression
    .split('+')
    .map((term) => term.split('*').reduce((p, x) => p * Number(x), 1))
    .reduce((s, x) => s + x, 0);
}

/** Token log-probabilities of a turn: one per whitespace-separated token, lower after a mistake. */
function logprobs(text, random, unsure) {
  const tokens = Math.max(1, text.split(/\s+/).length);
  return Array.from({ length: tokens }, () =>
    Math.log(unsure ? 0.2 + 0.5 * random() : 0.6 + 0.39 * random()),
  );
}

/** One run: chat messages (assistant turns carry a trace) and its reward. */
function playRun(index, random, successRate, versionEvery, tasks) {
  // With `tasks` > 0 the runs repeat that many fixed problems (several attempts per task); else each is new.
  const pick = tasks > 0 ? generator(1 + Math.floor(random() * tasks)) : random;
  const a = 2 + Math.floor(pick() * 40);
  const b = 2 + Math.floor(pick() * 40);
  const c = 2 + Math.floor(pick() * 9);
  const task = `Compute (${a} + ${b}) * ${c}.`;
  const mistake = random() >= successRate;
  const recheck = random() < 0.35;
  const policyVersion = Math.floor(index / versionEvery);
  const messages = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: task },
  ];
  let call = 0;
  const useTool = (expression, unsure) => {
    const id = `call_${index}_${call++}`;
    const args = JSON.stringify({ expression });
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'calculator', arguments: args } }],
      trace: { logprobs: logprobs(args, random, unsure), policyVersion },
    });
    const value = evaluate(expression);
    messages.push({ role: 'tool', tool_call_id: id, content: String(value) });
    return value;
  };
  const sum = useTool(`${a} + ${mistake ? b + 1 + Math.floor(random() * 5) : b}`, mistake);
  if (recheck) useTool(`${sum} + 0`, false);
  const product = useTool(`${sum} * ${c}`, false);
  const answer = `The answer is ${product}.`;
  messages.push({
    role: 'assistant',
    content: answer,
    trace: { logprobs: logprobs(answer, random, mistake), policyVersion },
  });
  const correct = product === (a + b) * c;
  return {
    id: `run-${String(index).padStart(6, '0')}`,
    task,
    sequence: index,
    createdAt: new Date(START + index * 60_000).toISOString(),
    messages,
    tools: TOOLS,
    reward: correct ? 1 : 0,
    rewardComponents: {
      correct: correct ? 1 : 0,
      turns: messages.filter((m) => m.role === 'assistant').length,
    },
    policyVersion,
  };
}

const strip = ({ trace, ...m }) => m;
const choice = (m) => ({
  finish_reason: m.tool_calls ? 'tool_calls' : 'stop',
  index: 0,
  logprobs: {
    content: m.trace.logprobs.map((logprob, k) => ({
      token: `t${k}`,
      logprob,
      bytes: null,
      top_logprobs: [],
    })),
  },
  message: { role: 'assistant', content: m.content, ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}) },
});

/** The run in the shape its SDK's logs have (see the importers' documentation for each). */
const SHAPES = {
  ftw: (run) => {
    const { policyVersion, ...trajectory } = run;
    return trajectory;
  },
  // A logged Chat Completions call: the request's messages and the response's choice with logprobs.
  openai: (run) => {
    const last = run.messages.at(-1);
    return {
      id: run.id,
      task: run.task,
      sequence: run.sequence,
      reward: run.reward,
      policyVersion: run.policyVersion,
      request: {
        model: 'scripted-calculator',
        messages: run.messages.slice(0, -1).map(strip),
        tools: run.tools,
      },
      response: {
        id: `chatcmpl-${run.id}`,
        object: 'chat.completion',
        model: 'scripted-calculator',
        choices: [choice(last)],
      },
    };
  },
  // generateText's result: response.messages (ModelMessage parts) and steps.
  'ai-sdk': (run) => {
    const generated = [];
    const steps = [];
    for (let i = 2; i < run.messages.length; i++) {
      const m = run.messages[i];
      if (m.role === 'assistant' && m.tool_calls) {
        const call = m.tool_calls[0];
        const input = JSON.parse(call.function.arguments);
        const result = run.messages[i + 1];
        generated.push({
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: call.id, toolName: 'calculator', input }],
        });
        generated.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: call.id,
              toolName: 'calculator',
              output: { type: 'json', value: Number(result.content) },
            },
          ],
        });
        steps.push({
          text: '',
          toolCalls: [{ type: 'tool-call', toolCallId: call.id, toolName: 'calculator', input }],
          toolResults: [
            {
              type: 'tool-result',
              toolCallId: call.id,
              toolName: 'calculator',
              input,
              output: Number(result.content),
            },
          ],
          finishReason: 'tool-calls',
        });
        i++;
      } else if (m.role === 'assistant') {
        generated.push({ role: 'assistant', content: [{ type: 'text', text: m.content }] });
        steps.push({ text: m.content, toolCalls: [], toolResults: [], finishReason: 'stop' });
      }
    }
    return {
      id: run.id,
      task: run.task,
      createdAt: run.createdAt,
      reward: run.reward,
      system: SYSTEM,
      prompt: run.task,
      // The call's tools as logged: name → { description, inputSchema } (the JSON Schema of jsonSchema()).
      tools: {
        calculator: {
          description: TOOLS[0].function.description,
          inputSchema: { jsonSchema: TOOLS[0].function.parameters },
        },
      },
      text: run.messages.at(-1).content,
      finishReason: 'stop',
      steps,
      response: { id: `resp-${run.id}`, modelId: 'scripted-calculator', messages: generated },
    };
  },
  // AI SDK 5 UIMessages as useChat keeps them: each model call a step-start, tools as tool-<name> parts.
  'ai-sdk-ui': (run) => {
    const parts = [];
    for (let i = 2; i < run.messages.length; i++) {
      const m = run.messages[i];
      if (m.role !== 'assistant') continue;
      parts.push({ type: 'step-start' });
      if (m.tool_calls) {
        const call = m.tool_calls[0];
        parts.push({
          type: 'tool-calculator',
          toolCallId: call.id,
          state: 'output-available',
          input: JSON.parse(call.function.arguments),
          output: Number(run.messages[i + 1].content),
        });
      } else {
        parts.push({ type: 'text', text: m.content, state: 'done' });
      }
    }
    return {
      id: run.id,
      task: run.task,
      createdAt: run.createdAt,
      reward: run.reward,
      tools: {
        calculator: { description: TOOLS[0].function.description, inputSchema: TOOLS[0].function.parameters },
      },
      messages: [
        { id: `${run.id}-s`, role: 'system', parts: [{ type: 'text', text: SYSTEM }] },
        { id: `${run.id}-u`, role: 'user', parts: [{ type: 'text', text: run.task }] },
        { id: `${run.id}-a`, role: 'assistant', parts },
      ],
    };
  },
  // RunResult.history: input items, then function_call / function_call_result / assistant message items.
  agents: (run) => {
    const history = [{ role: 'user', content: run.task }];
    for (const m of run.messages.slice(2)) {
      if (m.role === 'assistant' && m.tool_calls) {
        const call = m.tool_calls[0];
        history.push({
          type: 'function_call',
          id: `fc_${call.id}`,
          callId: call.id,
          name: 'calculator',
          arguments: call.function.arguments,
          status: 'completed',
        });
      } else if (m.role === 'tool') {
        history.push({
          type: 'function_call_result',
          name: 'calculator',
          callId: m.tool_call_id,
          status: 'completed',
          output: { type: 'text', text: m.content },
        });
      } else {
        history.push({
          type: 'message',
          id: `msg_${run.id}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: m.content }],
        });
      }
    }
    const { name, ...fn } = TOOLS[0].function;
    return {
      id: run.id,
      task: run.task,
      sequence: run.sequence,
      reward: run.reward,
      // The agent's instructions and function tools, logged beside RunResult.history and finalOutput.
      instructions: SYSTEM,
      tools: [{ type: 'function', name, ...fn }],
      finalOutput: run.messages.at(-1).content,
      history,
    };
  },
  // A serialised art.Trajectory: assistant turns as Choices with logprobs.
  art: (run) => ({
    messages_and_choices: run.messages.map((m) => (m.role === 'assistant' ? choice(m) : m)),
    tools: run.tools,
    reward: run.reward,
    initial_policy_version: run.policyVersion,
    final_policy_version: run.policyVersion,
    metrics: { correct: run.reward, turns: run.rewardComponents.turns },
    metadata: { id: run.id, task: run.task, sequence: run.sequence },
    logs: [],
  }),
};

/**
 * Plays `runs` episodes and returns the log text in `shape`.
 * @param {{ shape?: string, runs?: number, successRate?: number, seed?: number, versionEvery?: number, first?: number }} options
 *   (`first`: index of the first run, so that logs written in parts have distinct ids and sequences;
 *   `tasks`: repeat that many fixed problems, several attempts each, instead of a new problem per run)
 * @returns {string} JSONL, one run per line
 */
export function scriptedLog({
  shape = 'ftw',
  runs = 200,
  successRate = 0.5,
  seed = 0,
  versionEvery = 100,
  first = 0,
  tasks = 0,
} = {}) {
  const toShape = SHAPES[shape];
  if (toShape === undefined)
    throw new RangeError(`shape must be one of ${Object.keys(SHAPES).join(', ')}, got ${shape}`);
  const random = generator(seed);
  let text = '';
  for (let i = first; i < first + runs; i++)
    text += `${JSON.stringify(toShape(playRun(i, random, successRate, versionEvery, tasks)))}\n`;
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      shape: { type: 'string', default: 'ftw' },
      runs: { type: 'string', default: '200' },
      'success-rate': { type: 'string', default: '0.5' },
      tasks: { type: 'string', default: '0' },
      seed: { type: 'string', default: '0' },
      out: { type: 'string' },
    },
  });
  const text = scriptedLog({
    shape: values.shape,
    runs: Number(values.runs),
    successRate: Number(values['success-rate']),
    tasks: Number(values.tasks),
    seed: Number(values.seed),
  });
  if (values.out === undefined) process.stdout.write(text);
  else writeFileSync(values.out, text);
}
