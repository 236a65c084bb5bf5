/**
 * `ToolDescriptor`: what a host may know about a tool on a surface — its definition plus the
 * static scheduling capabilities and the workspace capabilities it requires (for `a3s tools`,
 * the SDK's `toolInfo`). A descriptor never carries `execute`: handing out the tool object would
 * let a host run it outside the kernel.
 */
import type { Tool } from '../tools/tool.js';
import { DEFAULT_TOOL_CAPABILITIES, type ToolCapabilities } from '../tools/tool-capabilities.js';
import type { WorkspaceCapability } from '../workspace/capabilities.js';
import type { ToolDefinition } from './tool-registry.js';

/** A tool on a surface, described. */
export interface ToolDescriptor extends ToolDefinition {
  /** Static scheduling capabilities (defaults filled in). Some tools refine them per call (`edit` with `dry_run`). */
  readonly capabilities: ToolCapabilities;
  /** Workspace or resource capabilities the tool requires (`fs.read`, `exec`, ...); empty when none. */
  readonly requires: readonly WorkspaceCapability[];
}

/** Describes one tool (a frozen copy; no function of the tool is exposed). */
export function describeTool(tool: Tool): ToolDescriptor {
  return Object.freeze({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    tier: tool.tier,
    capabilities: Object.freeze({ ...DEFAULT_TOOL_CAPABILITIES, ...tool.capabilities }),
    requires: Object.freeze([...(tool.requires ?? [])]),
  });
}
