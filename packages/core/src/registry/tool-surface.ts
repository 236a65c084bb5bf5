/**
 * The surface a model-side caller sees (PERM hiding): the registry filtered by the
 * tiers its governance allows and without tools a deny rule covers entirely. Visibility grants
 * no authority: the invoker checks every call again.
 */
import type { GovernanceSnapshot } from '../invoker/governance.js';
import { visibleTiers } from '../invoker/governance.js';
import { restrictionHiding } from '../invoker/restrictions.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { Tool } from '../tools/tool.js';
import type { ToolDefinition } from './tool-registry.js';
import type { ToolSet } from './tool-set.js';

/** A filtered, read-only view of a registry. */
export interface ToolSurface {
  toolNames(): readonly string[];
  toolDefinitions(): readonly ToolDefinition[];
  /** The tool if it is on this surface. */
  get(name: string): Tool | undefined;
}

/** Why a tool is not on a model-side surface, or `undefined` when it is. */
export function hiddenReason(
  tool: Tool,
  governance: GovernanceSnapshot,
  policy: PermissionPolicy | undefined,
): string | undefined {
  if (!visibleTiers(governance).has(tool.tier)) {
    if (governance.mode === 'plan') return `plan mode hides '${tool.tier}' tools`;
    return governance.readOnly === true
      ? `read-only agent hides '${tool.tier}' tools`
      : `this agent's tiers hide '${tool.tier}' tools`;
  }
  const restricted = restrictionHiding(governance, tool);
  if (restricted !== undefined) return restricted;
  if (policy?.deniesEveryCall(tool.name) === true) return 'denied by policy';
  return undefined;
}

/** The model-side surface of `registry` (or a pinned generation) under `governance` and `policy`; definitions cached per version. */
export function modelSurface(
  registry: ToolSet,
  governance: GovernanceSnapshot,
  policy?: PermissionPolicy,
): ToolSurface {
  let cachedVersion = -1;
  let cached: readonly ToolDefinition[] = [];
  const visible = (t: Tool): boolean => hiddenReason(t, governance, policy) === undefined;
  return Object.freeze({
    toolNames: () =>
      registry
        .tools()
        .filter(visible)
        .map((t) => t.name),
    toolDefinitions: () => {
      if (cachedVersion !== registry.version) {
        const names = new Set(
          registry
            .tools()
            .filter(visible)
            .map((t) => t.name),
        );
        cached = Object.freeze(registry.toolDefinitions().filter((d) => names.has(d.name)));
        cachedVersion = registry.version;
      }
      return cached;
    },
    get: (name: string) => {
      const t = registry.get(name);
      return t !== undefined && visible(t) ? t : undefined;
    },
  });
}
