import { z } from 'zod';
import { trajectorySchema } from './trajectory-schema.js';

/**
 * The trajectory schema as JSON Schema (draft 2020-12), for validating logs outside TypeScript. The
 * package ships the same document as `trajectory.schema.json`; a test keeps the two identical.
 *
 * @returns a fresh JSON Schema object
 * @example
 * ```ts
 * trajectoryJsonSchema().required;
 * // ['id', 'task', 'messages', 'reward']
 * ```
 */
export function trajectoryJsonSchema(): Record<string, unknown> {
  return {
    title: 'FTW agent trajectory',
    ...z.toJSONSchema(trajectorySchema),
  } as Record<string, unknown>;
}
