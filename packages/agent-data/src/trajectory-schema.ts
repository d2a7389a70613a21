import { z } from 'zod';

/**
 * The trajectory record of `@ftw/agent-data`, validated with zod 4: one logged agent run, as OpenAI chat
 * messages with its reward. Every importer produces it and every exporter reads it; `trajectory.schema.json`
 * (from {@link trajectoryJsonSchema}) is the same schema for other languages.
 */

const finite = z.number().describe('a finite number');

/** A content part (text, image, audio, file): kept as logged, only its `type` is checked. */
const contentPart = z.looseObject({ type: z.string() });
const content = z.union([z.string(), z.array(contentPart)]);

/** An assistant tool call, as in the OpenAI Chat Completions API. */
export const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    /** The arguments as the model wrote them: a JSON string. */
    arguments: z.string(),
  }),
});

/**
 * What the behaviour policy recorded for one assistant turn: the log-probability of each generated token,
 * optionally the token ids, and the policy version that generated it (the trajectory may span versions).
 */
export const turnTraceSchema = z.object({
  tokenIds: z.array(z.number().int().nonnegative()).optional(),
  /** The tokens' text as the API reported it (`logprobs.content[].token`), one per log-probability. */
  tokens: z.array(z.string()).optional(),
  logprobs: z.array(z.number().max(0)),
  policyVersion: z.number().int().nonnegative().optional(),
});

const systemMessage = z.object({
  role: z.literal('system'),
  content,
  name: z.string().optional(),
});
const userMessage = z.object({
  role: z.literal('user'),
  content,
  name: z.string().optional(),
});
const assistantMessage = z.object({
  role: z.literal('assistant'),
  content: z.union([content, z.null()]).optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  name: z.string().optional(),
  /**
   * OpenAI's per-turn training flag: 0 excludes the turn from training in every output, 1 (or absent) trains
   * on it with the run's count.
   */
  weight: z.union([z.literal(0), z.literal(1)]).optional(),
  /** The behaviour policy's record of this turn (importance diagnostics, ART's Choice log-probabilities). */
  trace: turnTraceSchema.optional(),
});
const toolMessage = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string().min(1),
  content,
});

/** One chat message: system, user, assistant (with `tool_calls`) or tool (with `tool_call_id`). */
export const chatMessageSchema = z.discriminatedUnion('role', [
  systemMessage,
  userMessage,
  assistantMessage,
  toolMessage,
]);

/** A tool the agent could call, as in the OpenAI Chat Completions API (`parameters` is a JSON Schema). */
export const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  }),
});

/**
 * A further conversation of a run, with its own messages and tools: a sub-agent's, or the agent's own after
 * its context was reset (OpenPipe ART's `additional_histories`). Trained on like the main conversation,
 * with the run's reward and count.
 */
export const chatHistorySchema = z.object({
  messages: z.array(chatMessageSchema).min(1),
  tools: z.array(toolSchema).optional(),
});

/**
 * One logged agent run. `sequence` (preferred) or `createdAt` orders the runs for the FIFO window; without
 * either, the order of the file is used. `task` groups runs of the same prompt or task id.
 */
export const trajectorySchema = z.object({
  id: z.string().min(1).describe('unique id of the run'),
  task: z.string().describe('prompt or task id, for grouping'),
  sequence: z.number().int().nonnegative().optional().describe('FIFO order: larger is newer'),
  createdAt: z.iso.datetime({ offset: true }).optional().describe('FIFO order when sequence is absent'),
  messages: z.array(chatMessageSchema).min(1),
  tools: z.array(toolSchema).optional(),
  reward: finite.describe('the return of the run'),
  rewardComponents: z.record(z.string(), finite).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  additionalHistories: z
    .array(chatHistorySchema)
    .optional()
    .describe("further conversations of the run (sub-agents; ART's additional_histories)"),
});

/** One chat message of a {@link Trajectory}. */
export type ChatMessage = z.infer<typeof chatMessageSchema>;
/** An assistant tool call. */
export type ToolCall = z.infer<typeof toolCallSchema>;
/** A tool definition. */
export type Tool = z.infer<typeof toolSchema>;
/** The behaviour policy's record of one assistant turn. */
export type TurnTrace = z.infer<typeof turnTraceSchema>;
/** One logged agent run, validated by {@link trajectorySchema}. */
export type Trajectory = z.infer<typeof trajectorySchema>;
/** A further conversation of a run (see {@link chatHistorySchema}); a trajectory is one too, its main one. */
export type ChatHistory = z.infer<typeof chatHistorySchema>;

/**
 * Every conversation of a run: the main one (the trajectory's own `messages` and `tools`), then its
 * additional histories in order.
 *
 * @param trajectory - a validated trajectory
 * @returns its conversations, the main one first
 * @example
 * ```ts
 * trajectoryHistories({ ...t, additionalHistories: [sub] }).length; // 2
 * ```
 */
export function trajectoryHistories(
  trajectory: Pick<Trajectory, 'messages' | 'tools' | 'additionalHistories'>,
): ChatHistory[] {
  const main: ChatHistory =
    trajectory.tools === undefined
      ? { messages: trajectory.messages }
      : { messages: trajectory.messages, tools: trajectory.tools };
  return [main, ...(trajectory.additionalHistories ?? [])];
}

/**
 * The assistant turns of every conversation of a run, in order (the main conversation's, then each
 * additional history's): the turns the behaviour policy generated.
 *
 * @param trajectory - a validated trajectory
 * @returns its assistant messages
 */
export function assistantTurns(
  trajectory: Pick<Trajectory, 'messages' | 'additionalHistories'>,
): Extract<ChatMessage, { role: 'assistant' }>[] {
  const turns: Extract<ChatMessage, { role: 'assistant' }>[] = [];
  for (const { messages } of trajectoryHistories(trajectory)) {
    for (const m of messages) if (m.role === 'assistant') turns.push(m);
  }
  return turns;
}
