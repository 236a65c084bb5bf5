/**
 * The dynamic workflows `a3s code` ships, and the pack that registers `dynamic_workflow` with
 * them on its sessions.
 */
import {
  createDynamicWorkflowPack,
  type ToolPack,
  type WorkflowDefinition,
  type WorkflowProgressEvent,
} from '@a3s-code/core';
import { RESEARCH_FLOW } from './research.js';
import { ULTRACODE_FLOW } from './ultracode.js';

/** The flows, by the slash command that runs each. */
export const CLI_FLOWS: Readonly<Record<'ultracode' | 'research', WorkflowDefinition>> = Object.freeze({
  ultracode: ULTRACODE_FLOW,
  research: RESEARCH_FLOW,
});

/** The pack registering `dynamic_workflow` with the CLI's flows; progress goes to `onProgress`. */
export function cliWorkflowPack(onProgress: (event: WorkflowProgressEvent) => void): ToolPack {
  return createDynamicWorkflowPack({ flows: CLI_FLOWS, onProgress });
}
