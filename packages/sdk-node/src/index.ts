/**
 * `@a3s-code/sdk`: the public Node SDK of A3S Code (ARCHITECTURE §7).
 *
 * ```ts
 * const agent = await Agent.create({ model: 'openai/gpt-4o' });
 * const session = await agent.session('/repo');
 * const result = await session.send('Fix the failing test');
 * ```
 */
export { Agent, type AgentConfig, type ResumeSessionOptions, type SessionOptions } from './agent.js';
export type { ResourcePacks } from './default-packs.js';
export type { ModelSpec } from './model.js';
// Types the SDK's signatures use (`session.state`, `session.core`, `git()`, `addMcpServer`, options).
export type { FoldState } from '@a3s-code/effect';
export type { GitOperation } from '@a3s-code/tools-workspace';
export type { McpServerStepOptions } from '@a3s-code/mcp';
export type { AgentSession, ModelEnvironment, ToolErrorKind, VerifyOptions, WorkspaceServices } from '@a3s-code/core';
export { READ_TOOL_RULES, type ApprovalOptions, type ConfirmHandler } from './approver.js';
export { mcpWarnings, type McpWarning } from './mcp.js';
export type { ProgramLimits, ProgramOptions } from './program.js';
export { Session, type EventStream } from './session.js';
export type { LogRepair } from './log-info.js';
export { AgentClosedError, DirectToolError, ModelNotConfiguredError, WorkspaceUntrustedError } from './errors.js';
export { folderAgentNeeds, trustNeeds, type ChosenModel, type FolderAgentNeed } from './workspace-trust-needs.js';
export type { ToolResult } from './tool-result.js';
export type { BashOptions, EditFileOptions, GlobOptions, GrepOptions, ReadFileOptions } from './direct-tools.js';
export type { ToolInfo } from './tool-info.js';
export type { RecallOptions, RecalledMemory, RememberOptions } from './memory.js';
export type { ResourceInfo } from './resource-info.js';
export type { VibeOptions } from './vibe.js';
export { VibeError } from '@a3s-code/tools-resource/vibe';
export type { VibeErrorCode, VibeTier, VibeWorkerStatus, VibeWorkerView } from '@a3s-code/tools-resource/vibe';
export type { TaskOptions, TaskResult, TaskSpec, TasksOptions, TasksResult } from '@a3s-code/core';

// The error an answer to a run that is not waiting for it throws (`confirmToolUse`, `answerQuestion`).
export { InvalidTransitionError } from '@a3s-code/effect';

// Core's vocabulary a host needs, re-exported so one import suffices.
export {
  A3sError,
  ATTACHMENT_LIMITS,
  AttachmentError,
  AttachmentMissingError,
  AsyncSessionBuildRequiredError,
  CancelledError,
  CapabilityDriftError,
  CatalogPreparationError,
  CatalogValidationError,
  FileMemoryStore,
  InMemoryMemoryStore,
  CompletionIncompleteError,
  EventEnvelopeError,
  EventStreamOptionsError,
  FactLogLockedError,
  InvalidPromptError,
  InvalidToolArgsError,
  ModelConfigurationError,
  NothingToResumeError,
  PermissionDeniedError,
  ResourceOpenError,
  ResourceUnavailableError,
  ResumeError,
  RunEndedError,
  SessionNotFoundError,
  SessionBusyError,
  SessionClosedError,
  SessionConfigurationError,
  SessionInitializationError,
  StepLimitError,
  StreamConsumedError,
  ToolBlockedError,
  ToolNotFoundError,
  ToolTimeoutError,
  EVENT_CATALOG_V1,
  isEventTypeV1,
  isEventV1,
  parseEventEnvelopeV1,
  projectEventV1,
  NO_APPROVER_REASON,
  noApprover,
  defineTool,
  defineToolPack,
} from '@a3s-code/core';
export type {
  ActiveToolCall,
  AttachmentInput,
  AttachmentLimits,
  AttachmentProblem,
  CapabilityContribution,
  CatalogGeneration,
  CodeConfig,
  MemoryRecord,
  MemoryStore,
  PreparationStep,
  PrepareOptions,
  ResumeRunOptions,
  RunCapabilityBindingV1,
  SecurityProvider,
  SessionCapabilityCatalog,
  ToolQueueConfig,
  SessionListing,
  SessionSnapshotV1,
  ToolDescriptor,
  ConfirmationAnswer,
  ConfirmationManager,
  DefineToolOptions,
  ConfirmationRequest,
  DeniedBy,
  EventEnvelopeV1,
  EventMetadataV1,
  EventPayloadsV1,
  EventTypeV1,
  KnownEventEnvelopeV1,
  InterruptOptions,
  HostToolOptions,
  LlmClient,
  MutationLedger,
  NothingToResumeReason,
  ParkedAt,
  PermissionPolicyConfig,
  ProjectedEventV1,
  QuestionAnswer,
  QuestionHandler,
  RunResult,
  RunUsage,
  SendOptions,
  StreamOptions,
  StreamResumeOptions,
  EventStreamBounds,
  AttachedSteerOptions,
  SteerOptions,
  SteerReceipt,
  UndeliveredSteer,
  ToolDefinition,
  ToolPack,
  Tool,
  ToolContext,
  ToolResource,
  ToolResourceContext,
  RecordedToolResult,
  OpenedResource,
  ResourceCapability,
  ResourceState,
  ResourceStatus,
  ToolTier,
  ToolCapabilities,
  VerificationCommand,
  VerificationReport,
} from '@a3s-code/core';
export { ScriptError } from '@a3s-code/core';
// Dynamic workflows: a host's named multi-step flows, run by the `dynamic_workflow` tool
// (`Agent.create({ tools: [createDynamicWorkflowPack({ flows })] })`).
export {
  createDynamicWorkflowPack,
  defineWorkflow,
  WorkflowDefinitionError,
  WorkflowStepError,
  type DynamicWorkflowPackOptions,
  type WorkflowDefinition,
  type WorkflowProgressEvent,
  type WorkflowStep,
} from '@a3s-code/core';
// What a host needs to write its own `LlmClient` (`Agent.create({ model: client })`).
export { LlmError, collectResponse } from '@a3s-code/core';
export type {
  LlmCapabilities,
  LlmErrorKind,
  LlmFinishReason,
  LlmForkIdentity,
  LlmImage,
  LlmMessage,
  LlmRequest,
  LlmResponse,
  LlmResponseFormat,
  LlmStreamEvent,
  LlmToolCall,
  LlmToolChoice,
  LlmToolSpec,
  LlmUsage,
  ReasoningBlock,
} from '@a3s-code/core';
export type { ModelResolver } from '@a3s-code/core';
// The providers the SDK composes by default, re-exported for hosts (the CLI lists them).
export { describeProviders, providerModelResolver, type ProviderDescription } from '@a3s-code/providers';
export {
  McpConfigError,
  McpConnectionError,
  McpManager,
  McpOwnershipError,
  McpServerClosedError,
  mcpReadOnlyChecker,
  parseMcpServers,
} from '@a3s-code/mcp';
export type { McpServerConfig, McpServerStatus, McpSessionServerStatus, McpSource } from '@a3s-code/mcp';
export { WebError } from '@a3s-code/tools-web';
export type { WebToolsOptions } from '@a3s-code/tools-web';
export { AstError } from '@a3s-code/tools-resource/ast';
export type { AstErrorCode } from '@a3s-code/tools-resource/ast';
export { LspError } from '@a3s-code/tools-resource/lsp';
export type { LspErrorCode } from '@a3s-code/tools-resource/lsp';
export { EvalToolError } from '@a3s-code/tools-resource/eval';
export type { EvalToolErrorCode } from '@a3s-code/tools-resource/eval';
export { DebugToolError } from '@a3s-code/tools-resource/debug';
export type { DebugToolErrorCode } from '@a3s-code/tools-resource/debug';
