/**
 * The tool surface with tiers and scheduling capabilities, for hosts that show it (`a3s tools`).
 * Names, descriptions and tiers come from the session's own surface; capabilities come from the
 * tool objects the SDK handed to core (its packs and core's exported runtime tools). A tool whose
 * object the SDK never held (core's `verify`) has `capabilities: undefined`, never a guess.
 */
import { askUserTool, createBatchTool, DEFAULT_TOOL_CAPABILITIES, type Tool, type ToolCapabilities, type ToolDefinition, type ToolPack, type ToolTier } from '@a3s-code/core';

/** One tool of the surface. */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  /** `read`, `write` or `exec`. */
  readonly tier: ToolTier;
  /** Static scheduling capabilities, when the SDK knows the tool's object. */
  readonly capabilities: ToolCapabilities | undefined;
  /** Workspace capabilities the tool requires (`fs.read`, `exec`, ...); empty when none or unknown. */
  readonly requires: readonly string[];
}

/** The tool objects the SDK knows for a session: its packs, then core's runtime tools. */
export function knownTools(packs: readonly ToolPack[]): ReadonlyMap<string, Tool> {
  const map = new Map<string, Tool>();
  for (const t of [createBatchTool(), askUserTool as Tool]) map.set(t.name, t);
  for (const pack of packs) for (const t of pack.tools) map.set(t.name, t);
  return map;
}

/** Joins the surface's definitions with the known tool objects. */
export function toolInfos(definitions: readonly ToolDefinition[], known: ReadonlyMap<string, Tool>): ToolInfo[] {
  return definitions.map((d) => {
    const tool = known.get(d.name);
    return {
      name: d.name,
      description: d.description,
      tier: d.tier,
      // Static capabilities only: some tools refine them per call (`edit` with `dry_run` is read-only).
      capabilities: tool ? { ...DEFAULT_TOOL_CAPABILITIES, ...tool.capabilities } : undefined,
      requires: tool?.requires ? [...tool.requires] : [],
    };
  });
}
