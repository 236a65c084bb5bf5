export {
  ASK_USER_GUIDANCE,
  ASK_USER_TOOL,
  askUserTool,
  hasAskPort,
  NO_ASK_PORT_MESSAGE,
  withQuestionTimeout,
} from './ask-user.js';
export { COMPACTION_KEPT_MESSAGES } from './compact-executor.js';
export { toLlmMessages, toLlmTools } from './conversation.js';
export { QuestionCapError } from './infer-executor.js';
export type { ParkedAt, ParkMode, QuestionAnswer, QuestionHandler, RunResult, RunUsage } from './run-result.js';
export {
  ControlInbox,
  type InterruptOptions,
  type AttachedSteerOptions,
  type SteerOptions,
  type SteerReceipt,
  type SteerRefusal,
} from './control-inbox.js';
export { ResumeError } from './resume-error.js';
export type { HistoryTurn, RunCheckpoint, RunCheckpointStore } from './run-checkpoint.js';
export { STEP_LIMIT } from './run-execution.js';
export type { ResumeRunOptions } from './run-binding.js';
export { streamRun, type RunEventStream, type StreamOptions, type StreamResumeOptions } from './stream-run.js';
