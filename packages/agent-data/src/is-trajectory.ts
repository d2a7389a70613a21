import { z } from 'zod';
import type { Trajectory } from './trajectory-schema.js';

/**
 * A fast structural check that a value is a trajectory exactly as {@link trajectorySchema} would return
 * it: every field valid and no key the schema does not know (which zod would strip). When it returns
 * true, `trajectorySchema.parse(value)` succeeds and returns a value deep-equal to `value` (a property
 * test checks this on generated and corrupted records), so the reader can skip zod's copy. When it
 * returns false the value may still be valid: the reader then asks zod, for the result and the message.
 *
 * It exists for speed: zod's parse costs about as much as `JSON.parse` of the line, and the hot path of
 * reading 10^5 logged runs is nearly always a valid record.
 *
 * @param value - a parsed JSON value
 * @returns whether it is a trajectory that zod would return unchanged
 * @example
 * ```ts
 * isTrajectory({ id: 'a', task: 't', messages: [{ role: 'user', content: 'hi' }], reward: 1 }); // true
 * isTrajectory({ id: 'a', task: 't', messages: [], reward: 1 }); // false (messages must not be empty)
 * ```
 */
export function isTrajectory(value: unknown): value is Trajectory {
  if (!isPlain(value)) return false;
  for (const key in value) {
    const v = value[key];
    switch (key) {
      case 'id':
        if (!isNonEmptyString(v)) return false;
        break;
      case 'task':
        if (typeof v !== 'string') return false;
        break;
      case 'sequence':
        if (!isCount(v)) return false;
        break;
      case 'createdAt':
        if (typeof v !== 'string' || !DATETIME.safeParse(v).success) return false;
        break;
      case 'messages':
        if (!isMessages(v)) return false;
        break;
      case 'tools':
        if (!isTools(v)) return false;
        break;
      case 'additionalHistories':
        if (!Array.isArray(v)) return false;
        for (const h of v) if (!isHistory(h)) return false;
        break;
      case 'reward':
        if (!isFiniteNumber(v)) return false;
        break;
      case 'rewardComponents':
        if (!isPlain(v)) return false;
        for (const k in v) if (!isFiniteNumber(v[k])) return false;
        break;
      case 'metadata':
        if (!isPlain(v)) return false;
        break;
      default:
        return false;
    }
  }
  return 'id' in value && 'task' in value && 'messages' in value && 'reward' in value;
}

const DATETIME = z.iso.datetime({ offset: true });

type Plain = Record<string, unknown>;

function isPlain(v: unknown): v is Plain {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isMessages(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  for (const m of v) if (!isMessage(m)) return false;
  return true;
}

function isTools(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const t of v) if (!isTool(t)) return false;
  return true;
}

/** A further conversation: `messages` (required) and `tools`, nothing else. */
function isHistory(h: unknown): boolean {
  if (!isPlain(h) || !isMessages(h['messages'])) return false;
  for (const key in h) if (key !== 'messages' && !(key === 'tools' && isTools(h[key]))) return false;
  return true;
}

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isContent(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (!Array.isArray(v)) return false;
  for (const part of v) if (!isPlain(part) || typeof part['type'] !== 'string') return false;
  return true;
}

function isMessage(m: unknown): boolean {
  if (!isPlain(m)) return false;
  const role = m['role'];
  for (const key in m) {
    const v = m[key];
    switch (key) {
      case 'role':
        break;
      case 'content':
        if (role === 'assistant' ? v !== null && !isContent(v) : !isContent(v)) return false;
        break;
      case 'name':
        if (role === 'tool' || typeof v !== 'string') return false;
        break;
      case 'tool_calls':
        if (role !== 'assistant' || !Array.isArray(v)) return false;
        for (const c of v) if (!isToolCall(c)) return false;
        break;
      case 'trace':
        if (role !== 'assistant' || !isTrace(v)) return false;
        break;
      case 'weight':
        if (role !== 'assistant' || (v !== 0 && v !== 1)) return false;
        break;
      case 'tool_call_id':
        if (role !== 'tool' || !isNonEmptyString(v)) return false;
        break;
      default:
        return false;
    }
  }
  switch (role) {
    case 'system':
    case 'user':
      return 'content' in m;
    case 'assistant':
      return true;
    case 'tool':
      return 'content' in m && 'tool_call_id' in m;
    default:
      return false;
  }
}

function isToolCall(c: unknown): boolean {
  if (!isPlain(c) || !isNonEmptyString(c['id']) || c['type'] !== 'function') return false;
  const fn = c['function'];
  if (!isPlain(fn) || !isNonEmptyString(fn['name']) || typeof fn['arguments'] !== 'string') return false;
  return Object.keys(c).length === 3 && Object.keys(fn).length === 2;
}

function isTrace(t: unknown): boolean {
  if (!isPlain(t) || !Array.isArray(t['logprobs'])) return false;
  for (const key in t) {
    const v = t[key];
    switch (key) {
      case 'logprobs':
        for (const x of v as unknown[]) if (!isFiniteNumber(x) || x > 0) return false;
        break;
      case 'tokenIds':
        if (!Array.isArray(v)) return false;
        for (const x of v) if (!isCount(x)) return false;
        break;
      case 'tokens':
        if (!Array.isArray(v)) return false;
        for (const x of v) if (typeof x !== 'string') return false;
        break;
      case 'policyVersion':
        if (!isCount(v)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isTool(t: unknown): boolean {
  if (!isPlain(t) || t['type'] !== 'function' || Object.keys(t).length !== 2) return false;
  const fn = t['function'];
  if (!isPlain(fn) || !isNonEmptyString(fn['name'])) return false;
  for (const key in fn) {
    const v = fn[key];
    switch (key) {
      case 'name':
        break;
      case 'description':
        if (typeof v !== 'string') return false;
        break;
      case 'parameters':
        if (!isPlain(v)) return false;
        break;
      case 'strict':
        if (typeof v !== 'boolean') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
