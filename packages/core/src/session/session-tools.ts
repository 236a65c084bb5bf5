/**
 * The packs every session plugs in, in surface order: core's runtime pack (`batch`, `program`,
 * `ask_user`, `verify`, `generate_object`), the host's packs (workspace, web, its own), then
 * core's delegation pack (`task`, `parallel_task`, `task_result`), skills pack
 * (`search_skills`, `Skill`), memory pack (`remember`, `recall`) and workflow pack
 * (`dynamic_workflow`, on the surface only when a host pack provides `resource.workflow`); tool
 * sources (MCP) attach after them. Each pack goes through {@link SessionResources.addPack}, the one path
 * every pack takes: what a session can offer (an ask port, manual delegation) is a resource the
 * core pack attaches, and a tool requiring it is on the surface only when it is attached.
 * Used by the session build and by {@link describeSessionTools}, so the two cannot drift apart.
 */
import type { DelegationPort } from '../delegation/task-tools.js';
import { createDelegationTools } from '../delegation/task-tools.js';
import type { SessionGate } from '../gate/session-gate.js';
import { createVerifyTool } from '../gate/verify-tool.js';
import { createGenerateObjectTool } from '../generate-object/generate-object-tool.js';
import type { LlmClient } from '../llm/llm-client.js';
import { createProgramTool } from '../program/program-tool.js';
import type { SessionResources } from '../registry/session-resources.js';
import { askUserTool } from '../run/ask-user.js';
import { createBatchTool } from '../runtime-tools/batch-tool.js';
import type { SkillDefinition } from '../skills/skill-definition.js';
import { createSkillTools } from '../skills/skill-tools.js';
import { ToolDefinitionError } from '../errors/tool-errors.js';
import { defineToolPack, type ToolPack } from '../tools/tool-pack.js';
import type { ResourceCapability, ToolResource } from '../tools/tool-resource.js';
import type { ToolSource } from '../registry/tool-source.js';
import { flowNamesOf } from '../workflow/workflow-pack.js';
import type { WorkflowStore } from '../workflow/workflow-store.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import { createDynamicWorkflowTool } from '../workflow/workflow-tool.js';
import type { MemoryStore } from '../memory/memory-store.js';
import { memoryToolPack } from '../memory/memory-tools.js';

/** Version of core's own packs. */
const CORE_PACK_VERSION = '0.1.0';

/** What {@link sessionPacks} builds core's packs from. */
export interface SessionPacksInput {
  readonly clock: () => number;
  readonly gate: SessionGate;
  /** The host's packs, plugged in after core's runtime pack. */
  readonly packs: readonly ToolPack[];
  /** The session has an ask port (see `hasAskPort`): attaches `resource.ask`. */
  readonly askUser: boolean;
  /** The governed LLM of a run, for `generate_object` (`undefined` outside a session). */
  readonly llmFor: (runId: string) => LlmClient | undefined;
  /** The delegation port the delegation tools run through. */
  readonly delegation: DelegationPort;
  /** Manual delegation is on: attaches `resource.delegation`. */
  readonly manualDelegation: boolean;
  /** The effective skill registry. */
  readonly skills: ReadonlyMap<string, SkillDefinition>;
  /** Where `dynamic_workflow` runs record their steps. */
  readonly workflowStore: WorkflowStore;
  /** The session's permission rules (a recorded workflow step is recovered only under the rules it ran under). */
  readonly permissions: PermissionPolicyConfig;
  /** The session's memory store: `remember` and `recall` are on the surface when there is one. */
  readonly memory?: MemoryStore;
}

/** A resource the session itself provides, already open: its presence is what the tools require. */
function present(capability: ResourceCapability): ToolResource {
  return { capability, open: async () => ({ close: async () => undefined }) };
}

/** Every pack of a session, in surface order. */
export function sessionPacks(input: SessionPacksInput): readonly ToolPack[] {
  const runtime = defineToolPack({
    name: '@a3s-code/core/runtime',
    version: CORE_PACK_VERSION,
    tools: [
      createBatchTool(),
      createProgramTool({
        clock: input.clock,
        modelChanges: () => input.gate.modelChanges(),
        modelRanPrograms: () => input.gate.modelRanPrograms(),
      }),
      askUserTool,
      createVerifyTool(input.gate, input.clock),
      // generate_object calls the model through the calling run's LLM invoker.
      createGenerateObjectTool((ctx) => input.llmFor(ctx.runId)),
    ],
    resources: input.askUser ? [present('resource.ask')] : [],
  });
  const delegation = defineToolPack({
    name: '@a3s-code/core/delegation',
    version: CORE_PACK_VERSION,
    tools: createDelegationTools(input.delegation),
    resources: input.manualDelegation ? [present('resource.delegation')] : [],
  });
  const skills = defineToolPack({
    name: '@a3s-code/core/skills',
    version: CORE_PACK_VERSION,
    tools: createSkillTools(input.skills),
  });
  // dynamic_workflow requires `resource.workflow`: on the surface once a host plugs in its pack.
  const workflow = defineToolPack({
    name: '@a3s-code/core/workflow',
    version: CORE_PACK_VERSION,
    tools: [
      createDynamicWorkflowTool({
        store: input.workflowStore,
        llmFor: input.llmFor,
        clock: input.clock,
        flows: flowNamesOf(input.packs),
        permissions: input.permissions,
      }),
    ],
  });
  return [runtime, ...input.packs, delegation, skills, memoryToolPack(input.memory, CORE_PACK_VERSION), workflow];
}

const isCorePack = (pack: ToolPack): boolean => pack.name.startsWith('@a3s-code/core/');

/**
 * Refuses two packs that register one tool name, naming the pack that takes a name another
 * registers: a host pack using a name of core's own tools (`task`, `Skill`, `remember`, ...) is
 * the one at fault, even when core's pack is plugged in after it.
 * @throws ToolDefinitionError naming the pack, the tool and the pack that holds the name.
 */
function checkToolNames(packs: readonly ToolPack[]): void {
  const owner = new Map<string, ToolPack>();
  for (const pack of packs)
    for (const tool of pack.tools) {
      const first = owner.get(tool.name);
      if (first === undefined) {
        owner.set(tool.name, pack);
        continue;
      }
      const [culprit, holder] = isCorePack(pack) && !isCorePack(first) ? [first, pack] : [pack, first];
      throw new ToolDefinitionError(
        `tool pack '${culprit.name}'`,
        'tools',
        `tool '${tool.name}' is already registered by pack '${holder.name}'; a pack cannot replace or shadow another's tool (give it another name)`,
      );
    }
}

/**
 * Plugs `packs` into a session, in order, then attaches the tool `sources` (MCP), whose tools
 * follow (nothing is opened yet: the async build then calls `openAtBuild`). A pack that cannot be
 * plugged in (a capability or tool name already taken) throws before any of its parts is attached.
 */
export function plugInPacks(
  resources: SessionResources,
  packs: readonly ToolPack[],
  sources: readonly ToolSource[],
): void {
  checkToolNames(packs);
  for (const pack of packs) resources.addPack(pack);
  for (const source of sources) resources.addSource(source);
}
