export type {
  ActiveToolCall,
  InvocationSource,
  PermissionOutcome,
  ScopedInvoker,
  ToolCallRequest,
  ToolErrorKind,
  ToolInvocationResult,
  TopLevelSource,
} from './invocation-types.js';
