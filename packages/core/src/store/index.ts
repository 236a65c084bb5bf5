export type { FactStore } from './fact-store.js';
export { FileFactStore, FactStoreError, type OpenReport } from './file-fact-store.js';
export {
  FactLogFileError,
  FactLogTooLargeError,
  MAX_FACT_LOG_BYTES,
  readFactLogFile,
  type ReadFactLogOptions,
} from './log-file.js';
export { FACT_LOG_RESERVE_BYTES, FactLogFullError, type FactLogLimits } from './log-budget.js';
export { describeRestore, type ForeignChange, type LogRestore } from './log-guard.js';
export { factLogChange } from './log-seal.js';
export { MemoryFactStore } from './memory-fact-store.js';
export { recordedSessionId, recordSessionId, sessionIdPath } from './session-id-file.js';
export { acquireThreadLock, FactLogLockedError, type LockOwner, type ThreadLock } from './thread-lock.js';
export { mkdirState, STATE_FOLDER_NAME, STATE_GITIGNORE, STATE_SUBFOLDERS } from './state-folder.js';
