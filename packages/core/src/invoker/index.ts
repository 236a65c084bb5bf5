export type {
  ActiveToolCall,
  InvocationSource,
  PermissionOutcome,
  ScopedInvoker,
  NestedInvokeOptions,
  ToolCallRequest,
  ToolErrorKind,
  ToolInvocationResult,
  HostToolOptions,
  TopLevelSource,
} from './invocation-types.js';
export type { InvocationContext } from './invocation-context.js';
export { createToolCallBudget, visibleTiers } from './governance.js';
export type {
  BudgetReservation,
  GovernanceSnapshot,
  SkillRestriction,
  ToolBudget,
  ToolRestriction,
  ToolCallBudgetOptions,
} from './governance.js';
export type { HookCall, PostToolHook, PreHookDecision, PreToolHook, ToolHooks } from './hooks.js';
export { DEFAULT_SECRET_ENV_VARS, createDefaultSecurityProvider } from './security-provider.js';
export {
  holdCredentials,
  holdsCredentials,
  MODEL_CREDENTIAL_ENV_VARS,
  releaseCredentials,
  toolProcessEnv,
  withholdFromToolProcesses,
} from './tool-process-env.js';
export { processAlive } from './process-alive.js';
export { stripTerminalControls, terminalText, visibleText } from './terminal-controls.js';
export type { DefaultSecurityProviderOptions, SanitizeContext, SecurityProvider } from './security-provider.js';
export { DEFAULT_OUTPUT_CAP, InMemoryArtifactStore, capOutput, sha256Hex } from './artifact-store.js';
export type { ArtifactRef, ArtifactStore, OutputCapOptions } from './artifact-store.js';
export { InvalidInvocationError, ToolInvoker } from './tool-invoker.js';
export type { CallProjection, InvokeOptions, ToolInvokerOptions } from './tool-invoker.js';
export { refusedBeforeChange } from './change-collector.js';
export { describeDeniedWrites, mergeDeniedWrites } from './created-denied.js';
