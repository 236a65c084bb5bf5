/**
 * The capability catalog of one session: it projects the session's registry (tools on the
 * surface), its MCP servers (each `mcp.<server>` capability provided), the flows of its workflow
 * pack, skills, agents, hooks and system prompt, under the permission ceiling of the session's
 * policy and governance. The catalog takes the bindings already recorded in the session's log
 * (and in a restored snapshot) as its one history batch, so a reopened session continues the
 * numbering and, with unchanged capabilities, publishes under the same generation its runs were
 * bound to.
 */
import type { Fact, RunCapabilityBindingV1 } from '@a3s-code/effect';
import { SessionCapabilityCatalog } from '../catalog/session-capability-catalog.js';
import type { CapabilityContribution } from '../catalog/capability-kinds.js';
import { permissionCeiling } from '../catalog/permission-ceiling.js';
import type { AgentDefinition } from '../delegation/agent-definition.js';
import { hookDescriptor } from '../hooks/hook-identity.js';
import type { SessionResources } from '../registry/session-resources.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { SkillDefinition } from '../skills/skill-definition.js';
import { flowContributionsOf } from '../workflow/workflow-pack.js';
import type { ResolvedSessionConfig } from './resolved-session-config.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

/** What a session's catalog is projected from. */
export interface SessionCatalogInput {
  readonly config: ResolvedSessionConfig;
  readonly registry: ToolRegistry;
  readonly resources: SessionResources;
  readonly skills: ReadonlyMap<string, SkillDefinition>;
  readonly agents: ReadonlyMap<string, AgentDefinition>;
  readonly system: readonly string[];
  /** The snapshot the session was resumed from: its runs' bindings join the history. */
  readonly restored?: SessionSnapshotV1;
}

/**
 * The contributions that do not change while the session lives (skills, agents, hooks, context).
 * A hook is named by its event and position (`pre_tool_use:0`) and described as `hookDescriptor`
 * says (a command hook by its matcher, command and deadline).
 */
function fixedContributions(input: SessionCatalogInput): CapabilityContribution[] {
  const out: CapabilityContribution[] = [];
  for (const s of input.skills.values())
    out.push({
      kind: 'skill',
      name: s.name,
      source: 'skills',
      descriptor: {
        description: s.description,
        allowed_tools: [...(s.allowedTools ?? [])],
        instructions: s.instructions,
      },
    });
  for (const a of input.agents.values())
    out.push({
      kind: 'agent',
      name: a.name,
      source: a.source,
      descriptor: {
        description: a.description,
        instructions: a.instructions,
        tools: a.tools ? [...a.tools] : null,
        tiers: a.tiers ? [...a.tiers] : null,
        exec_tools: a.execTools ? [...a.execTools] : null,
        plan: a.plan === true,
        model: a.model ?? null,
      },
    });
  const hooks = input.config.hooks;
  const events = [
    ['pre_tool_use', hooks.pre],
    ['post_tool_use', hooks.post],
    ['user_prompt_submit', hooks.userPromptSubmit],
    ['stop', hooks.stop],
    ['pre_compact', hooks.preCompact],
  ] as const;
  for (const [event, list] of events)
    (list ?? []).forEach((h: unknown, i) => {
      out.push({ kind: 'hook', name: `${event}:${i}`, source: 'hooks', descriptor: hookDescriptor(h) });
    });
  out.push({ kind: 'context', name: 'system', source: 'session', descriptor: [...input.system] });
  return out;
}

/** The bindings recorded in a log (each run's start and rebinds) and a snapshot's run records. */
export function recordedBindings(facts: readonly Fact[], restored?: SessionSnapshotV1): RunCapabilityBindingV1[] {
  const out: RunCapabilityBindingV1[] = [];
  for (const r of restored?.runs ?? []) if (r.capability_binding) out.push(r.capability_binding);
  for (const f of facts) {
    if (f.type !== 'run.started' && f.type !== 'run.rebound') continue;
    const b = (f.payload as { capability_binding?: RunCapabilityBindingV1 }).capability_binding;
    if (b !== undefined) out.push(b);
  }
  return out;
}

/** Builds the catalog of a session and takes its history batch (nothing is published yet). */
export function createSessionCatalog(input: SessionCatalogInput): SessionCapabilityCatalog {
  const fixed = fixedContributions(input);
  const { registry, resources } = input;
  const catalog = new SessionCapabilityCatalog(
    {
      ceiling: permissionCeiling(input.config.permissions, input.config.governance),
      project: () => {
        const packOf = new Map<string, string>(resources.status().map((s) => [s.capability, s.pack]));
        const servers: CapabilityContribution[] = [...registry.capabilities()]
          .filter((c) => c.startsWith('mcp.'))
          .sort()
          .map((c) => ({ kind: 'mcp', name: c.slice('mcp.'.length), source: packOf.get(c) ?? 'registry' }));
        const flows = flowContributionsOf(resources.packs());
        return { tools: registry.tools(), contributions: [...fixed, ...servers, ...flows] };
      },
    },
    resources,
  );
  catalog.bootstrap(recordedBindings(input.config.factStore.log.facts, input.restored));
  registry.onChange(() => catalog.markChanged());
  return catalog;
}
