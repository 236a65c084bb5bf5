/**
 * `@a3s-code/effect`: the pure fact-log engine of A3S Code. No I/O, no clock, no randomness:
 * hosts supply facts (with any timestamps inside them) and executors; this package decides.
 */
export {
  A3sError,
  DuplicateFactError,
  FactParseError,
  FactSequenceError,
  FactValidationError,
  InvalidTransitionError,
  RecipeError,
  StepLimitError,
  type A3sErrorOptions,
} from './errors.js';
export { sha256Hex } from './sha256.js';
export {
  ATTACHMENT_MEDIA_TYPES,
  isImageMediaType,
  MAX_ATTACHMENT_NAME,
  MAX_ATTACHMENTS,
  type AttachmentMediaType,
  type AttachmentRef,
} from './attachment-ref.js';
export { effectLogPath, threadIdFor } from './thread.js';
export type {
  BudgetDeniedPayload,
  CompactionDonePayload,
  ConfirmationAnsweredPayload,
  ContinuationOrigin,
  Decision,
  ModelTurnPayload,
  PayloadBase,
  PayloadOf,
  QuestionAnsweredPayload,
  QuestionOption,
  ReasoningBlock,
  RunCapabilityBindingV1,
  RunEndedPayload,
  RunReboundPayload,
  RunStartedPayload,
  RunStatus,
  ToolCall,
  ToolResultPayload,
  ToolSpec,
  Usage,
  UserMessagePayload,
  UserMessageSource,
} from './kinds.js';
export { encodeFact, parseLog } from './fact.js';
export type { Fact, FactDraft, LogTail, LogText, ParsedLog, TornLine } from './fact.js';
export { FactLog, type LogDigest, type ParsedFactLog } from './fact-log.js';
export { resolveRecipe, type Recipe, type ResolvedRecipe } from './recipe.js';
export {
  PHASES,
  type Counters,
  type FoldState,
  type FoldView,
  type Message,
  type PendingCall,
  type PendingQuestion,
  type Phase,
  type RunInfo,
} from './state.js';
export { Folder, fold } from './folder.js';
export { QUESTION_CARRY_ON } from './fold-parts.js';
export { createHarness, type Harness, type HarnessComponent, type Transition } from './harness.js';
export {
  advance,
  sync,
  type AdvanceOptions,
  type AdvanceResult,
  type AdvanceStop,
  type TransitionExecutor,
} from './advance.js';
export { drafts, checkHostFact, type TypedDraft } from './drafts.js';
export {
  summarizeLog,
  type AttachmentSummary,
  type ContinuationSummary,
  type LogSummary,
  type RunSummary,
  type UnfinishedCallSummary,
  type ToolStats,
} from './summary.js';
export { formatSummary } from './format.js';
