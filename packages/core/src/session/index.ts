export { Agent, type AgentConfig, type ResumeSessionOptions } from './agent.js';
export { AgentSession, type SessionParts } from './agent-session.js';
export { validateSessionOptions, type SessionOptions } from './session-options.js';
export { writeFileAtomic } from './atomic-file.js';
export { FileSessionStore, sessionSnapshotPath } from './file-session-store.js';
export { MemorySessionStore } from './memory-session-store.js';
export { DEFAULT_SNAPSHOT_ARTIFACT_BYTES, SessionArtifactStore } from './session-artifacts.js';
export {
  assertSessionStore,
  checkpointFromSnapshot,
  historyFromSnapshot,
  type SessionListing,
  type SessionStore,
  type SessionStoreSetting,
} from './session-store.js';
export { buildSnapshot, runRecordsFromFacts, type SnapshotInput } from './snapshot-builder.js';
export { migrateLegacySession } from './legacy-session.js';
export { checkIntegrity, parseSessionSnapshot } from './snapshot-parse.js';
export {
  SESSION_SNAPSHOT_VERSION,
  type LegacySessionData,
  type RunRecord,
  type RunRecordStatus,
  type SessionSnapshotV1,
  type SnapshotArtifact,
  type SubagentTaskSnapshot,
} from './snapshot-types.js';
export { DEFAULT_TRACE_EVENTS, TraceRecorder } from './trace-recorder.js';
export { describeSessionTools } from './describe-tools.js';
export type { TaskOptions, TaskResult, TaskSpec, TasksOptions, TasksResult } from './session-delegation.js';
export type { ResolvedSessionConfig } from './resolved-session-config.js';
export {
  initializeSession,
  planSessionBuild,
  resolveSync,
  type AgentBuildContext,
  type PendingResource,
  type SessionBuildPlan,
} from './session-build.js';
