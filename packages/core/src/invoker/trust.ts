/**
 * Trusted built-in orchestrators. When the host calls one of these directly, the
 * children it runs get the `host_nested` source. Trust is by object identity and this module is
 * not exported from the package entry, so no extension code can mark a tool trusted.
 */
import type { Tool } from '../tools/tool.js';

const trusted = new WeakSet<object>();

/** Marks a built-in orchestrator (core-internal). */
export function markTrustedOrchestrator<T extends Tool>(tool: T): T {
  trusted.add(tool);
  return tool;
}

/** True for a tool object marked by core itself. */
export function isTrustedOrchestrator(tool: Tool): boolean {
  return trusted.has(tool);
}
