export { AgentDataError, type AgentDataErrorCode } from './agent-data-error.js';
export {
  type BuildDatasetOptions,
  type BuiltDataset,
  buildDataset,
  type DatasetManifest,
  manifestPath,
} from './build-dataset.js';
export { collectWindow, orderKey, type TrajectoryWindow } from './collect-window.js';
export { fromAgentsSdk } from './from-agents-sdk.js';
export { fromAiSdk } from './from-ai-sdk.js';
export { fromAiSdkUi } from './from-ai-sdk-ui.js';
export { fromArt } from './from-art.js';
export { fromFtw } from './from-ftw.js';
export { fromOpenAIChat } from './from-openai-chat.js';
export { type ImportanceDiagnostics, importanceDiagnostics } from './importance-diagnostics.js';
export { type Importer, INPUT_FORMATS, type InputFormat, importerFor } from './input-format.js';
export { isTrajectory } from './is-trajectory.js';
export {
  type JsonlLine,
  type JsonlLinesOptions,
  type JsonlProgress,
  newJsonlProgress,
  readJsonlLines,
} from './jsonl-lines.js';
export {
  formatIssue,
  type LineIssue,
  type LineWarning,
  type LoggedTrajectory,
  type OpenOptions,
  openTrajectories,
  type ReadStats,
  type TrajectoryStream,
  WARNING_LINES_KEPT,
  type WarningTally,
} from './open-trajectories.js';
export { RUN_WARNINGS, type RunWarning, type RunWarningKind, runWarnings } from './run-warnings.js';
export {
  type DatasetSelection,
  type DatasetSelectionOptions,
  type RankBin,
  type SelectionReport,
  selectDataset,
} from './select-dataset.js';
export { systematicRound } from './systematic-round.js';
export { type RankValues, rankValues, TIE_BREAK_KEYS, type TieBreakKey } from './tie-break.js';
export { type ArtRecord, toArtRecord } from './to-art-record.js';
export { type OpenAIRecord, toOpenAIRecord } from './to-openai-record.js';
export { type TrlMessage, type TrlRecord, toTrlRecords } from './to-trl-record.js';
export { trajectoryJsonSchema } from './trajectory-json-schema.js';
export {
  assistantTurns,
  type ChatHistory,
  type ChatMessage,
  chatHistorySchema,
  chatMessageSchema,
  type Tool,
  type ToolCall,
  type Trajectory,
  type TurnTrace,
  toolCallSchema,
  toolSchema,
  trajectoryHistories,
  trajectorySchema,
  turnTraceSchema,
} from './trajectory-schema.js';
export {
  OUTPUT_FORMATS,
  type OutputFormat,
  type WriteOptions,
  type WrittenDataset,
  writeDataset,
} from './write-dataset.js';
