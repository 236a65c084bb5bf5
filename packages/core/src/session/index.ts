export { Agent, type AgentConfig } from './agent.js';
export { AgentSession, type SessionParts } from './agent-session.js';
export { ControlInbox, type SteerOptions, type SteerReceipt, type SteerRefusal } from './control-inbox.js';
export { ResumeError } from './resume-error.js';
export { STEP_LIMIT } from './run-execution.js';
export { validateSessionOptions, type HistoryTurn, type RunCheckpoint, type RunCheckpointStore, type SessionOptions, type ToolSource } from './session-options.js';
