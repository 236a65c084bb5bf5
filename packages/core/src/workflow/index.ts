/**
 * Dynamic workflows: definitions, their validation, the recorded and recoverable runs, the
 * `dynamic_workflow` tool and the pack a host registers it with.
 */
export {
  WORKFLOW_BLOCKED_TOOLS,
  WORKFLOW_LIMITS,
  WORKFLOW_STEP_KINDS,
  type WorkflowDefinition,
  type WorkflowGenerateObjectStep,
  type WorkflowLimits,
  type WorkflowParallelTaskStep,
  type WorkflowProgramLimits,
  type WorkflowProgramStep,
  type WorkflowStep,
  type WorkflowStepBase,
  type WorkflowStepKind,
  type WorkflowTaskTemplate,
} from './workflow-definition.js';
export { WorkflowDefinitionError, WorkflowRunForeignError, WorkflowStepError } from './workflow-errors.js';
export { defineWorkflow, validateWorkflow, type ValidatedWorkflow } from './workflow-graph.js';
export {
  recoverDynamicWorkflowStepOutput,
  WORKFLOW_FACT,
  type RecoveredStep,
  type StepChanges,
  type WorkflowStepKey,
} from './step-record.js';
export {
  fileWorkflowStore,
  memoryWorkflowStore,
  workflowLogPath,
  type WorkflowRunLog,
  type WorkflowStore,
} from './workflow-store.js';
export type {
  WorkflowProgressEvent,
  WorkflowRunReport,
  WorkflowStepReport,
  WorkflowStepStatus,
} from './workflow-runner.js';
export {
  createDynamicWorkflowPack,
  flowNamesOf,
  WORKFLOW_RESOURCE,
  type DynamicWorkflowPackOptions,
  type WorkflowResourceHandle,
} from './workflow-pack.js';
export {
  createDynamicWorkflowTool,
  DYNAMIC_WORKFLOW_TOOL_NAME,
  dynamicWorkflowInput,
  type DynamicWorkflowArgs,
  type WorkflowServices,
} from './workflow-tool.js';
export { createHostRuntimeTools, type HostRuntimeTools } from './host-runtime.js';
