export { A3sError, StepLimitError } from '@a3s-code/effect';
export type { A3sErrorOptions } from '@a3s-code/effect';
export {
  AsyncSessionBuildRequiredError,
  InvalidPromptError,
  NothingToResumeError,
  SessionBusyError,
  SessionClosedError,
  SessionConfigurationError,
  SessionInitializationError,
  StreamConsumedError,
  type ConfigurationProblemDetail,
  type NothingToResumeReason,
} from './session-errors.js';
export { RunEndedError } from './run-errors.js';
export {
  BudgetExhaustedError,
  CancelledError,
  CapabilityUnavailableError,
  InvalidToolArgsError,
  PermissionDeniedError,
  PermissionRuleError,
  RecursionLimitError,
  ToolBlockedError,
  ToolDefinitionError,
  ToolExecutionError,
  ToolNotAllowedError,
  ToolNotFoundError,
  ToolTimeoutError,
  type ToolArgIssue,
} from './tool-errors.js';
export {
  SessionNotFoundError,
  SessionSnapshotError,
  SessionStoreError,
  StateFileError,
  StateFolderError,
} from './persistence-errors.js';
export { ModelConfigurationError } from './model-errors.js';
export { ResourceOpenError, ResourceUnavailableError } from './resource-errors.js';
export {
  CapabilityDriftError,
  CapabilityScopeError,
  CatalogBootstrapError,
  CatalogConflictError,
  CatalogPlanError,
  CatalogPreparationError,
  CatalogValidationError,
  type CapabilityDrift,
  type CatalogProblem,
} from './catalog-errors.js';
