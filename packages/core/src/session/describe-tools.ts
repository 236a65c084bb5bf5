/**
 * The tool surface a session would have, listed without building one: no model, no fact log,
 * no session store. The agent's configuration and the session options are validated and merged
 * as a build does, the same {@link sessionPacks} are plugged in the same way on a registry
 * gated by the workspace's capabilities, tool sources (MCP) are attached for the listing, and the
 * model-side filter (plan mode, deny rules) applies. For hosts that show the surface before a
 * model is configured (`a3s tools`).
 */
import { resolve } from 'node:path';
import type { CodeConfig } from '../config/code-config.js';
import { validateConfigObject } from '../config/config-schema.js';
import { mergeLayers, normalizeLayer } from '../config/merge-config.js';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { SessionGate } from '../gate/session-gate.js';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { describeTool, type ToolDescriptor } from '../registry/tool-descriptor.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { modelSurface } from '../registry/tool-surface.js';
import { emptyWorkspace } from '../workspace/workspace-services.js';
import type { SessionOptions } from './session-options.js';
import { A3sError } from '@a3s-code/effect';
import type { AgentDefinition } from '../delegation/agent-definition.js';
import { loadAgentCatalog } from '../delegation/agent-catalog.js';
import { DEFAULT_DELEGATION, type DelegationSettings } from '../delegation/delegation-options.js';
import type { DelegationPort } from '../delegation/task-tools.js';
import { SessionResources } from '../registry/session-resources.js';
import { loadSkillCatalog } from '../skills/skill-catalog.js';
import { plugInPacks, sessionPacks } from './session-tools.js';
import { hasAskPort } from '../run/ask-user.js';
import { memoryWorkflowStore } from '../workflow/workflow-store.js';
import { memorySetting } from './session-build.js';
import type { MemoryStore } from '../memory/memory-store.js';

/** A memory store for listing only: its tools are described, never run. */
const LISTED_MEMORY: MemoryStore = {
  remember: () => Promise.reject(describeOnly()),
  recall: () => Promise.reject(describeOnly()),
  forget: () => Promise.reject(describeOnly()),
};

/**
 * Describes the model-side surface of a session on `dir` built from `config` and `options`
 * (tools in surface order), without a model.
 * @throws SessionConfigurationError naming a bad or conflicting option.
 */
export async function describeSessionTools(
  dir: string,
  config: CodeConfig = {},
  options: SessionOptions = {},
): Promise<readonly ToolDescriptor[]> {
  if (typeof dir !== 'string' || dir.length === 0)
    throw new SessionConfigurationError('dir', 'must be the workspace folder path');
  validateConfigObject(config);
  validateConfigObject(options);
  const m = mergeLayers(normalizeLayer(config, 'agent configuration'), normalizeLayer(options, 'session options'));
  const root = resolve(dir);
  const workspace = m.workspace ?? emptyWorkspace(root);
  const registry = new ToolRegistry({ capabilities: workspace.capabilities });
  const gate = new SessionGate(
    () => [],
    (name) => registry.get(name)?.tier,
    m.gate ?? {},
  );
  const closing = new AbortController();
  const resources = new SessionResources(registry, {
    sessionId: 'describe',
    clock: m.clock ?? Date.now,
    settings: m.web === undefined ? {} : { web: m.web },
    signal: closing.signal,
    workspaceRoot: workspace.root,
  });
  const manual = m.manualDelegation ?? DEFAULT_DELEGATION.manual;
  const settings = {
    manual,
    autoParallel: m.autoParallel ?? DEFAULT_DELEGATION.autoParallel,
    maxParallelTasks: m.maxParallelTasks ?? DEFAULT_DELEGATION.maxParallelTasks,
  };
  try {
    plugInPacks(
      resources,
      sessionPacks({
        clock: m.clock ?? Date.now,
        gate,
        packs: m.tools ?? [],
        askUser: hasAskPort(m),
        llmFor: () => undefined,
        delegation: listingOnly(
          loadAgentCatalog(
            root,
            (m.agentDirs ?? []).map((d) => resolve(root, d)),
            m.agents ?? [],
          ),
          settings,
        ),
        manualDelegation: manual,
        skills: loadSkillCatalog(
          root,
          (m.skillDirs ?? []).map((d) => resolve(root, d)),
        ),
        workflowStore: memoryWorkflowStore(),
        permissions: {},
        ...(memorySetting(m) === undefined ? {} : { memory: LISTED_MEMORY }),
      }),
      m.toolSources ?? [],
    );
    // Lazy resources are listed without being opened; those that open at build open, as in a build.
    await resources.openAtBuild();
    const surface = modelSurface(registry, m.governance ?? {}, new PermissionPolicy(m.permissions ?? {}));
    return surface.toolNames().map((name) => describeTool(surface.get(name)!));
  } finally {
    closing.abort('listed');
    await resources.closeAll();
  }
}

/**
 * A delegation port for listing only: the tools built on it are described and discarded, never
 * run (a listed surface has no session to run tasks in), so running one is a typed error.
 */
function describeOnly(): A3sError {
  return new A3sError('DESCRIBE_ONLY', 'this tool was built to describe a session surface; open a session to run it');
}

function listingOnly(agents: ReadonlyMap<string, AgentDefinition>, settings: DelegationSettings): DelegationPort {
  const refuse = (): never => {
    throw describeOnly();
  };
  return {
    agents,
    settings,
    childFor: refuse,
    run: refuse,
    start: refuse,
    adopt: refuse,
    result: refuse,
    backgroundTaskIds: refuse,
    runningBackgroundTaskIds: refuse,
  };
}
