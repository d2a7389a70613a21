import { describeValue } from '@ftw/internal';
import { fromAgentsSdk } from './from-agents-sdk.js';
import { fromAiSdk } from './from-ai-sdk.js';
import { fromAiSdkUi } from './from-ai-sdk-ui.js';
import { fromArt } from './from-art.js';
import { fromFtw } from './from-ftw.js';
import { fromOpenAIChat } from './from-openai-chat.js';

/** The log shapes `@ftw/agent-data` reads. */
export const INPUT_FORMATS = ['ftw', 'openai', 'ai-sdk', 'ai-sdk-ui', 'agents', 'art'] as const;

/**
 * A log shape: `ftw` (the trajectory schema itself), `openai` (chat JSONL with a reward), `ai-sdk`
 * (Vercel AI SDK results), `ai-sdk-ui` (AI SDK 5 `UIMessage[]` chats), `agents` (OpenAI Agents SDK run results), `art` (OpenPipe ART trajectories).
 */
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** Turns one parsed JSON line into a candidate trajectory (validated afterwards). */
export type Importer = (record: unknown, line: number) => unknown;

const IMPORTERS: Record<InputFormat, Importer> = {
  ftw: fromFtw,
  openai: fromOpenAIChat,
  'ai-sdk': fromAiSdk,
  'ai-sdk-ui': fromAiSdkUi,
  agents: fromAgentsSdk,
  art: fromArt,
};

/**
 * The importer of a log shape.
 *
 * @param format - one of {@link INPUT_FORMATS}
 * @returns the importer function
 * @throws RangeError when `format` is not a known shape
 * @example
 * ```ts
 * importerFor('ai-sdk')(record, 12); // a candidate trajectory
 * ```
 */
export function importerFor(format: InputFormat): Importer {
  const importer = (IMPORTERS as Record<string, Importer>)[format as string];
  if (importer === undefined || !Object.hasOwn(IMPORTERS, format)) {
    throw new RangeError(`format must be one of ${INPUT_FORMATS.join(', ')}, got ${describeValue(format)}`);
  }
  return importer;
}
