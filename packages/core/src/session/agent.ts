/**
 * `Agent`: holds the `CodeConfig` every session starts from and builds sessions through one
 * kernel: options are validated and merged before any I/O, resources are
 * initialised (async) or required to be ready (sync), and one `ResolvedSessionConfig` is
 * assembled into a session: tool registry and invoker, history restored into an empty log.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { SessionNotFoundError } from '../errors/persistence-errors.js';
import type { CodeConfig } from '../config/code-config.js';
import { validateConfigObject } from '../config/config-schema.js';
import { loadCodeConfig } from '../config/load-config.js';
import { openScriptedModel } from '../llm/file-scripted-model.js';
import { normalizeLayer } from '../config/merge-config.js';
import type { ResolvedSessionConfig } from './resolved-session-config.js';
import { initializeSession, planSessionBuild, resolveSync, type AgentBuildContext } from './session-build.js';
import { checkRuleToolNames } from '../permissions/rule-tool-names.js';
import { checkHookMatchers } from '../hooks/hook-matcher.js';
import { ToolInvoker } from '../invoker/tool-invoker.js';
import { LlmBudget } from '../llm/llm-budget.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { SessionGate } from '../gate/session-gate.js';
import { recordedVerifyReports } from '../gate/recorded-reports.js';
import type { VerificationReport } from '../gate/verification-report.js';
import { buildSystemPrompt, loadWorkspaceInstructionsSync } from '../prompt/system-prompt.js';
import { Delegator } from '../delegation/delegator.js';
import { createWorkerPort } from '../delegation/workers.js';
import { loadAgentCatalog } from '../delegation/agent-catalog.js';
import { agentModel } from '../delegation/agent-model.js';
import { AUTO_PARALLEL_SECTION } from '../delegation/task-tools.js';
import { loadSkillCatalog } from '../skills/skill-catalog.js';

import { AgentSession } from './agent-session.js';
import { FileSessionStore } from './file-session-store.js';
import { MemorySessionStore } from './memory-session-store.js';
import { historyFacts } from '../run/run-setup.js';
import type { HistoryTurn } from '../run/run-checkpoint.js';
import { FileFactStore } from '../store/file-fact-store.js';
import { attachmentStoreFor } from '../attachments/attachment-store.js';
import { restoreHistoryArtifacts, snapshotArtifactSource } from '../attachments/restore-artifacts.js';
import { plugInPacks, sessionPacks } from './session-tools.js';
import { createSessionCatalog } from './session-catalog.js';
import { SessionResources } from '../registry/session-resources.js';
import { runOwnerLookup } from './run-owner.js';
import { hasAskPort } from '../run/ask-user.js';
import { SessionArtifactStore } from './session-artifacts.js';
import { effectLogPath, type Fact } from '@a3s-code/effect';
import type { RecordedToolResult } from '../tools/tool-resource.js';
import type { SessionOptions } from './session-options.js';
import { historyFromSnapshot } from './session-store.js';
import { fileWorkflowStore, memoryWorkflowStore } from '../workflow/workflow-store.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

/** Defaults for every session of an agent (a `CodeConfig`); each session's options patch them. */
export type AgentConfig = CodeConfig;

/** Options of `agent.resumeSession(id, options)`: session options plus the workspace folder. */
export interface ResumeSessionOptions extends Omit<SessionOptions, 'sessionId' | 'history'> {
  /** Workspace folder. Default: the snapshot's `workspace_dir` (a file store is looked up under the current folder when no store is configured). */
  readonly dir?: string;
}

/** Builds sessions. */
export class Agent {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_Agent`; people read `Agent`.
    Object.defineProperty(this, 'name', { value: 'Agent' });
  }
  readonly #build: AgentBuildContext;

  private constructor(readonly config: AgentConfig) {
    this.#build = { config, memorySessionStore: new MemorySessionStore() };
  }

  /**
   * Creates an agent from a `CodeConfig` object, or from a JSON config file (a path to the file,
   * or to a folder holding `a3s.config.json` or `.a3s/config.json`). The configuration is
   * validated now; a bad key is a `SESSION_CONFIGURATION` error naming its path. A file's
   * `"model": "scripted:<file.json>"` is opened now as a `ScriptedLlmClient` (a bad script
   * throws `ScriptError`).
   */
  static async create(config: AgentConfig | string = {}): Promise<Agent> {
    const c = typeof config === 'string' ? await openScriptedModel(await loadCodeConfig(config)) : config;
    validateConfigObject(c);
    const own = c as { sessionId?: unknown; history?: unknown };
    if (own.sessionId !== undefined)
      throw new SessionConfigurationError(
        'sessionId',
        'is a session option; pass it to agent.session(dir, { sessionId })',
      );
    if (own.history !== undefined)
      throw new SessionConfigurationError('history', 'is a session option; pass it to agent.session(dir, { history })');
    normalizeLayer(c, 'agent configuration');
    return new Agent(Object.freeze({ ...c }));
  }

  /** The agent's in-process session store (`sessionStore: 'memory'`). */
  get memorySessionStore(): MemorySessionStore {
    return this.#build.memorySessionStore;
  }

  /**
   * Opens a session on the workspace folder `dir` (the async build). With file persistence (the
   * default) its log is `<dir>/.a3s/effect-log/<thread>.jsonl`; reusing a `sessionId` continues it.
   * @throws SessionConfigurationError for a bad or conflicting option (named);
   *   SessionInitializationError naming the resource that failed; FactLogLockedError when another process writes the log.
   */
  async session(dir: string, options: SessionOptions = {}): Promise<AgentSession> {
    const plan = planSessionBuild(dir, this.#build, options);
    return assemble(await initializeSession(plan));
  }

  /**
   * Builds a session synchronously: only when every resource is already
   * initialised — an `LlmClient` object, `persistence: 'memory'`, a `'memory'` or object session
   * store, no MCP servers. Otherwise throws `ASYNC_SESSION_BUILD_REQUIRED` naming the resource;
   * it never falls back to an easier backend.
   */
  sessionSync(dir: string, options: SessionOptions = {}): AgentSession {
    const config = resolveSync(planSessionBuild(dir, this.#build, options));
    if (config.history.length > 0) config.factStore.log.append(historyFacts(config.history), null);
    return build(config).session;
  }

  /**
   * Reopens a saved session: its snapshot is loaded from the session store (the configured one,
   * else the file store of `options.dir` or the current folder), its fact log continues, and the
   * conversation is restored from the snapshot only when the log is empty.
   * @throws SessionNotFoundError when no snapshot is stored for `sessionId`.
   */
  async resumeSession(sessionId: string, options: ResumeSessionOptions = {}): Promise<AgentSession> {
    const { dir, ...rest } = options;
    const invalid = rest as { sessionId?: unknown; history?: unknown };
    if (invalid.sessionId !== undefined && invalid.sessionId !== sessionId) {
      throw new SessionConfigurationError(
        'sessionId',
        `conflicts with the id passed to resumeSession ('${sessionId}')`,
        { conflictsWith: 'resumeSession(sessionId)' },
      );
    }
    if (invalid.history !== undefined)
      throw new SessionConfigurationError(
        'history',
        "conflicts with the saved session's conversation; a resumed session restores it from the snapshot",
        { conflictsWith: 'snapshot.conversation' },
      );
    const probe = planSessionBuild(dir ?? process.cwd(), this.#build, { ...rest, sessionId, persistence: 'memory' });
    const configured = probe.sessionStore;
    const lookup =
      configured === undefined || configured === 'file' ? new FileSessionStore(probe.base.dir) : configured;
    const snapshot = await lookup.loadSnapshot(sessionId);
    if (!snapshot)
      throw new SessionNotFoundError(
        sessionId,
        lookup instanceof FileSessionStore ? lookup.folder : 'the session store',
        // A session that was never saved still has its fact log, which opening it by id folds back.
        existsSync(join(probe.base.dir, effectLogPath(sessionId)))
          ? `a snapshot is written by session.save(); this session was not saved, but its fact log is in the workspace: agent.session(dir, { sessionId: ${JSON.stringify(sessionId)} }) reopens it from the log`
          : 'a snapshot is written by session.save()',
      );
    const workspaceDir = dir ?? snapshot.workspace_dir ?? process.cwd();
    const history = historyFromSnapshot(snapshot);
    const plan = planSessionBuild(workspaceDir, this.#build, {
      ...rest,
      sessionId,
      ...(configured === undefined ? { sessionStore: lookup } : {}),
      history: history.map((h) => ({ role: h.role, content: h.content })),
    });
    return assemble(await initializeSession(plan), { snapshot, history });
  }
}

/** A snapshot a session is restored from, with its conversation as history turns (attachments kept). */
interface Restore {
  readonly snapshot: SessionSnapshotV1;
  readonly history: readonly HistoryTurn[];
}

/**
 * Restores history into an empty log (the attachments it refers to made present in the log's
 * artifact store first) and builds the session; closes the store on failure.
 */
async function assemble(config: ResolvedSessionConfig, restore?: Restore): Promise<AgentSession> {
  const restored = restore?.snapshot;
  const history = restore?.history ?? config.history;
  try {
    if (history.length > 0 && config.factStore.log.length === 0) {
      const sources = snapshotArtifactSource(restored?.workspace_dir, config.dir);
      await restoreHistoryArtifacts(attachmentStoreFor(config.factStore), history, sources);
      await config.factStore.append(historyFacts(history), null);
    }
    const built = build(config, restored);
    await built.openAtBuild();
    return built.session;
  } catch (e) {
    const store = config.factStore;
    await (store instanceof FileFactStore ? store.discardIfEmpty() : store.close());
    throw e;
  }
}

/**
 * Builds a session synchronously: every pack is plugged in, nothing is opened. The async build
 * then runs `openAtBuild` (resources that open at build; `resolveSync` refused a synchronous
 * build of a session that has any).
 */
function build(
  config: ResolvedSessionConfig,
  restored?: SessionSnapshotV1,
): { readonly session: AgentSession; openAtBuild(): Promise<void> } {
  const registry = new ToolRegistry({ capabilities: config.workspace.capabilities });
  const store = config.factStore;
  const gate = new SessionGate(
    () => store.log.facts,
    (name) => registry.get(name)?.tier,
    config.gate,
    gateReports(restored?.verification_reports ?? [], store.log.facts),
  );
  let session: AgentSession | undefined;
  const closing = new AbortController();
  // The worker port reaches the delegator, built below, only once a resource opens.
  let delegator: Delegator | undefined;
  const resources = new SessionResources(registry, {
    sessionId: config.sessionId,
    clock: config.clock,
    settings: config.web === undefined ? {} : { web: config.web },
    signal: closing.signal,
    workspaceRoot: config.workspace.root,
    workers: createWorkerPort(() => delegator!),
    recordedResults: (toolName) => recordedResults(store.log.facts, toolName),
    runOwner: runOwnerLookup(config.sessionId, () => session?.activeRunId, gate),
  });
  const closeResources = async (): Promise<void> => {
    closing.abort('session closed');
    await resources.closeAll();
  };
  const artifacts = new SessionArtifactStore();
  const agents = loadAgentCatalog(config.dir, config.agentDirs, config.agents);
  const invoker = new ToolInvoker({
    registry,
    workspace: config.workspace,
    policy: config.permissions,
    artifacts,
    hooks: config.hooks,
    clock: config.clock,
    resources,
    ...(config.security ? { security: config.security } : {}),
    ...(config.queue.defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs: config.queue.defaultTimeoutMs }),
    ...(config.queue.maxDepth === undefined ? {} : { maxDepth: config.queue.maxDepth }),
    ...(config.queue.maxParallelism === undefined ? {} : { maxParallelism: config.queue.maxParallelism }),
    ...(config.checker ? { checker: config.checker } : {}),
    ...(config.confirmation ? { confirmation: config.confirmation } : {}),
  });
  const { manual, autoParallel } = config.delegation;
  const system = buildSystemPrompt({
    ...config.prompt,
    executionStyle: config.prompt.executionStyle ?? (config.governance.mode === 'plan' ? 'plan' : 'default'),
    workspaceInstructions: config.workspaceInstructions
      ? loadWorkspaceInstructionsSync(config.dir, invoker.policy)
      : [],
    hostContext: manual && autoParallel ? [AUTO_PARALLEL_SECTION, ...config.system] : config.system,
  });
  // One provider budget for the whole session: its runs, sub-agents and host-direct calls.
  const llmBudget = config.llmBudget ? new LlmBudget(config.llmBudget) : undefined;
  delegator = new Delegator(
    {
      config,
      invoker,
      system,
      tierOf: (name) => registry.get(name)?.tier,
      gate,
      modelFor: agentModel(config),
      ...(llmBudget ? { llmBudget } : {}),
    },
    agents,
    config.delegation,
  );
  const skills = loadSkillCatalog(config.dir, config.skillDirs);
  const packs = sessionPacks({
    clock: config.clock,
    gate,
    packs: config.tools,
    askUser: hasAskPort(config),
    llmFor: (runId) => session?.llmFor(runId),
    delegation: delegator,
    manualDelegation: manual,
    skills,
    workflowStore: config.persistence === 'file' ? fileWorkflowStore(config.dir) : memoryWorkflowStore(),
    permissions: config.permissions,
    ...(config.memory ? { memory: config.memory } : {}),
  });
  try {
    plugInPacks(resources, packs, config.toolSources);
    const toolNames = [...registry.toolNames(), ...registry.pending().map((t) => t.name)];
    checkRuleToolNames(config.permissions, toolNames);
    checkHookMatchers(config.hooks, toolNames);
  } catch (e) {
    void closeResources();
    throw e;
  }
  const catalog = createSessionCatalog({
    config,
    registry,
    resources,
    skills,
    agents,
    system,
    ...(restored ? { restored } : {}),
  });
  session = new AgentSession({
    config,
    catalog,
    invoker,
    artifacts,
    gate,
    system,
    delegator,
    ...(llmBudget ? { llmBudget } : {}),
    resources: [{ close: closeResources }],
    sessionResources: resources,
    ...(restored ? { restored } : {}),
  });
  return { session, openAtBuild: () => resources.openAtBuild() };
}

/**
 * The reports a session's gate starts with: the saved snapshot's, then those the log records of
 * its `verify` calls that the snapshot lacks (it is written only when the session is saved, so a
 * crash may leave it behind the log).
 */
function gateReports(saved: readonly VerificationReport[], facts: readonly Fact[]): VerificationReport[] {
  const ids = new Set(saved.map((r) => r.id));
  return [...saved, ...recordedVerifyReports(facts).filter((r) => !ids.has(r.id))];
}

/** The results of `toolName`'s calls among `facts`. */
function recordedResults(facts: readonly Fact[], toolName: string): RecordedToolResult[] {
  const out: RecordedToolResult[] = [];
  for (const f of facts) {
    if (f.type !== 'tool.result') continue;
    const p = f.payload as { name?: unknown; ok?: unknown; metadata?: unknown };
    if (p.name !== toolName) continue;
    const metadata =
      typeof p.metadata === 'object' && p.metadata !== null ? (p.metadata as Record<string, unknown>) : undefined;
    out.push({ ok: p.ok === true, ...(metadata === undefined ? {} : { metadata }) });
  }
  return out;
}
