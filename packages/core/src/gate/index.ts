export { CHANGE_RECORD_KEY, isInterruptedChange, UNKNOWN_PATH, type ChangeRecordEntry } from './change-record.js';
export {
  VerificationLedger,
  type Completion,
  type CompletionAttestor,
  type CompletionWaiver,
  type GateDecision,
} from './completion-gate.js';
export {
  effectDigest,
  ledgerOf,
  runStartIndex,
  type LedgerEntry,
  type MutationLedger,
  type TierOf,
} from './mutation-ledger.js';
export { runRefusals, type RefusedRerun, type RunRefusals } from './run-refusals.js';
export {
  CompletionIncompleteError,
  continuationText,
  SessionGate,
  type GateOptions,
  type RequiredCheck,
} from './session-gate.js';
export {
  reportStatus,
  type CheckEvidence,
  type VerificationCheck,
  type VerificationCheckStatus,
  type VerificationReport,
  type VerificationStatus,
} from './verification-report.js';
export {
  runVerification,
  validateVerification,
  VERIFICATION_PRESETS,
  type CommandRunner,
  type VerificationCommand,
  type VerifyOptions,
} from './verify-commands.js';
export { createVerifyTool } from './verify-tool.js';
