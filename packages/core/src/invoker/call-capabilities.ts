/**
 * A call's effective capabilities. A tool without per-args capabilities resolves to the same
 * answer for every call, so that answer is made once per tool (and its `capabilities` object) and
 * shared, frozen, instead of a fresh merge for each call and each `capabilitiesOf` probe.
 */
import { resolveCapabilities, type Tool } from '../tools/tool.js';
import type { ToolCapabilities } from '../tools/tool-capabilities.js';

const resolved = new WeakMap<Tool, { readonly from: unknown; readonly caps: ToolCapabilities }>();

/** The capabilities of a call of `tool` with `args` (validated). */
export function callCapabilities<A>(tool: Tool<A>, args: A): ToolCapabilities {
  if (tool.capabilitiesFor !== undefined) return resolveCapabilities(tool, args);
  const t = tool as Tool;
  const hit = resolved.get(t);
  if (hit !== undefined && hit.from === t.capabilities) return hit.caps;
  const caps = Object.freeze(resolveCapabilities(t, undefined));
  resolved.set(t, { from: t.capabilities, caps });
  return caps;
}
