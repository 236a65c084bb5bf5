/**
 * The tool surface with tiers and scheduling capabilities, for hosts that show it (`a3s tools`).
 * Everything comes from core's tool descriptors (`AgentSession.toolDescriptors()`,
 * `describeSessionTools`): the tools the session really registered, described by core.
 */
import type { JsonSchema, ToolCapabilities, ToolDescriptor, ToolTier } from '@a3s-code/core';

/** One tool of the surface. */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's arguments, as the model is offered it. */
  readonly inputSchema: JsonSchema;
  /** `read`, `write` or `exec`. */
  readonly tier: ToolTier;
  /** Static scheduling capabilities (some tools refine them per call: `edit` with `dry_run` is read-only). */
  readonly capabilities: ToolCapabilities;
  /** Workspace capabilities the tool requires (`fs.read`, `exec`, ...); empty when none. */
  readonly requires: readonly string[];
}

/** Core's descriptors as `ToolInfo`s. */
export function toolInfos(descriptors: readonly ToolDescriptor[]): ToolInfo[] {
  return descriptors.map((d) => ({
    name: d.name,
    description: d.description,
    inputSchema: d.inputSchema,
    tier: d.tier,
    capabilities: d.capabilities,
    requires: [...d.requires],
  }));
}
