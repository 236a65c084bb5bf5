/**
 * `Agent`: holds the defaults every session starts from (model, tool packs, permissions, system
 * prompt) and builds sessions asynchronously: options are validated before any I/O, then the
 * fact store is opened and locked, the tool surface assembled, and history restored.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { A3sError } from '@a3s-code/effect';
import { SessionConfigurationError, SessionInitializationError } from '../errors/session-errors.js';
import { ToolInvoker } from '../invoker/tool-invoker.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { askUserTool } from '../run/ask-user.js';
import { createBatchTool } from '../runtime-tools/batch-tool.js';
import { createProgramTool } from '../program/program-tool.js';
import { createWebTools } from '../web/web-tools.js';
import { FileFactStore } from '../store/file-fact-store.js';
import { MemoryFactStore } from '../store/memory-fact-store.js';
import type { FactStore } from '../store/fact-store.js';
import { emptyWorkspace } from '../workspace/workspace-services.js';
import { AgentSession } from './agent-session.js';
import { historyFacts } from './run-setup.js';
import { validateSessionOptions, type SessionOptions } from './session-options.js';

/** Defaults for every session of an agent; each session's options override them. */
export type AgentConfig = Omit<SessionOptions, 'sessionId' | 'history'>;

/** Builds sessions. */
export class Agent {
  private constructor(readonly config: AgentConfig) {}

  /** Creates an agent; the configuration is validated now. */
  static async create(config: AgentConfig = {}): Promise<Agent> {
    validateSessionOptions(config);
    return new Agent(config);
  }

  /**
   * Opens a session on the workspace folder `dir`. With file persistence (the default) its log
   * is `<dir>/.a3s/effect-log/<thread>.jsonl`; reusing a `sessionId` continues that log.
   * @throws SessionConfigurationError for a bad option (named); SessionInitializationError when a
   *   resource (the log) cannot be opened; FactLogLockedError when another process writes the log.
   */
  async session(dir: string, options: SessionOptions = {}): Promise<AgentSession> {
    validateSessionOptions(options);
    const merged: SessionOptions = { ...this.config, ...options };
    const model = merged.model;
    if (!model) throw new SessionConfigurationError('model', 'no model configured: pass `model` (an LlmClient) to Agent.create or agent.session');
    if (typeof dir !== 'string' || dir.length === 0) throw new SessionConfigurationError('dir', 'must be the workspace folder path');
    const sessionId = merged.sessionId ?? `session-${randomUUID()}`;
    const store = await openStore(resolve(dir), sessionId, merged.persistence ?? 'file');
    try {
      const workspace = merged.workspace ?? emptyWorkspace(resolve(dir));
      const registry = new ToolRegistry({ capabilities: workspace.capabilities });
      registry.add(createBatchTool());
      registry.add(createProgramTool(merged.clock ? { clock: merged.clock } : {}));
      registry.add(askUserTool);
      const web = merged.web === undefined ? undefined : createWebTools(merged.web, merged.clock);
      for (const t of web?.tools ?? []) registry.add(t);
      for (const pack of merged.tools ?? []) registry.registerPack(pack);
      const invoker = new ToolInvoker({
        registry,
        workspace,
        ...(merged.permissions ? { policy: merged.permissions } : {}),
        ...(merged.checker ? { checker: merged.checker } : {}),
        ...(merged.confirmation ? { confirmation: merged.confirmation } : {}),
        ...(merged.hooks ? { hooks: merged.hooks } : {}),
        ...(merged.clock ? { clock: merged.clock } : {}),
      });
      // Restored history is recorded only into an empty log; an existing log is left as it is (FOLD-08/09).
      if (merged.history && merged.history.length > 0 && store.log.length === 0) await store.append(historyFacts(merged.history), null);
      return new AgentSession({ sessionId, store, invoker, model, options: merged, ...(web ? { resources: web.resources } : {}) });
    } catch (e) {
      await store.close();
      throw e;
    }
  }
}

async function openStore(dir: string, sessionId: string, persistence: 'file' | 'memory'): Promise<FactStore> {
  if (persistence === 'memory') return new MemoryFactStore();
  try {
    return await FileFactStore.open(dir, sessionId);
  } catch (e) {
    if (A3sError.isInstance(e)) throw e;
    throw new SessionInitializationError(`cannot open the fact log of session '${sessionId}' under '${dir}': ${(e as Error).message}`, e);
  }
}
