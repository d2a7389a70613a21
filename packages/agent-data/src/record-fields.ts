/**
 * Helpers shared by the importers (internal): reading the fields every log shape may carry around the
 * messages (id, task, order, reward, metadata), and a `RecordError` whose message the reader reports as
 * the reason a line was skipped.
 */

/** A record that cannot be imported; the message says which field and why. */
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordError';
  }
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new RecordError(`${what} must be an object, got ${kind(value)}`);
  return value;
}

export function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new RecordError(`${what} must be an array, got ${kind(value)}`);
  return value;
}

export function kind(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** JSON text of a tool call's arguments: kept when already a string, serialised otherwise. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? {});
}

/** Plain text of OpenAI-style or SDK-style content: a string, or the text of its text parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    return content === undefined || content === null ? '' : JSON.stringify(content);
  let text = '';
  for (const part of content) {
    if (typeof part === 'string') text += part;
    else if (isObject(part) && typeof part['text'] === 'string') text += part['text'];
    else if (isObject(part) && typeof part['refusal'] === 'string') text += part['refusal'];
  }
  return text;
}

/** The fields around the messages, read from the record (and, for missing ones, from its metadata). */
export interface Envelope {
  id: string;
  task: string | undefined;
  sequence: number | undefined;
  createdAt: string | undefined;
  reward: number;
  rewardComponents: Record<string, number> | undefined;
  metadata: JsonObject | undefined;
}

/**
 * Reads id, task, sequence/createdAt, reward (required), reward components and metadata. A missing id
 * becomes `line-<n>` so every run still has one (and the manifest can name it).
 */
export function readEnvelope(
  record: JsonObject,
  line: number,
  rewardKeys: readonly string[] = ['reward'],
): Envelope {
  const metadata = isObject(record['metadata']) ? record['metadata'] : undefined;
  const pick = (key: string): unknown => record[key] ?? metadata?.[key];
  let reward: unknown;
  for (const key of rewardKeys) {
    reward = pick(key);
    if (reward !== undefined) break;
  }
  if (typeof reward !== 'number') {
    throw new RecordError(
      reward === undefined ? 'reward is missing' : `reward must be a number, got ${kind(reward)}`,
    );
  }
  const id = pick('id');
  const task = pick('task');
  const sequence = pick('sequence');
  const createdAt = pick('createdAt') ?? pick('created_at');
  const components = pick('rewardComponents') ?? pick('reward_components');
  return {
    id: typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : `line-${line}`,
    task: typeof task === 'string' ? task : typeof task === 'number' ? String(task) : undefined,
    sequence: typeof sequence === 'number' ? sequence : undefined,
    createdAt:
      typeof createdAt === 'string'
        ? createdAt
        : typeof createdAt === 'number'
          ? new Date(createdAt * (createdAt < 1e12 ? 1000 : 1)).toISOString()
          : undefined,
    reward,
    rewardComponents: isObject(components) ? (components as Record<string, number>) : undefined,
    metadata,
  };
}

/** Assembles the candidate trajectory (validated afterwards by the schema). */
export function assemble(envelope: Envelope, messages: unknown[], tools: unknown): JsonObject {
  const out: JsonObject = { id: envelope.id, task: envelope.task ?? firstUserText(messages) };
  if (envelope.sequence !== undefined) out['sequence'] = envelope.sequence;
  if (envelope.createdAt !== undefined) out['createdAt'] = envelope.createdAt;
  out['messages'] = messages;
  if (Array.isArray(tools) && tools.length > 0) out['tools'] = tools;
  out['reward'] = envelope.reward;
  if (envelope.rewardComponents !== undefined) out['rewardComponents'] = envelope.rewardComponents;
  if (envelope.metadata !== undefined) out['metadata'] = envelope.metadata;
  return out;
}

function firstUserText(messages: unknown[]): string {
  for (const m of messages) if (isObject(m) && m['role'] === 'user') return contentText(m['content']);
  return '';
}

/** Tool definitions given as OpenAI `{ type: 'function', function }` objects or an AI SDK-like name map. */
export function readTools(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) {
    return value.map((tool) => {
      if (isObject(tool) && tool['type'] === 'function' && !isObject(tool['function'])) {
        // Responses API / Agents SDK flat shape: { type: 'function', name, description, parameters }.
        const { type: _type, strict, ...rest } = tool;
        return {
          type: 'function',
          function: strict === undefined || strict === null ? rest : { ...rest, strict },
        };
      }
      return tool;
    });
  }
  if (isObject(value)) {
    return Object.entries(value).map(([name, tool]) => {
      const t = isObject(tool) ? tool : {};
      const parameters = t['parameters'] ?? t['inputSchema'];
      const fn: JsonObject = { name };
      if (typeof t['description'] === 'string') fn['description'] = t['description'];
      if (isObject(parameters))
        fn['parameters'] = isObject(parameters['jsonSchema']) ? parameters['jsonSchema'] : parameters;
      return { type: 'function', function: fn };
    });
  }
  return undefined;
}
