/**
 * The session build kernel. `planSessionBuild` does everything that needs no I/O — validation,
 * merge, conflicts, defaults, hook compilation, model selection — and lists the resources still to
 * initialise. `initializeSession` opens them (async path); `resolveSync` succeeds only when that
 * list is empty and otherwise throws `ASYNC_SESSION_BUILD_REQUIRED` naming the resource: it never
 * substitutes an easier backend.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { A3sError, RecipeError, resolveRecipe, type Recipe } from '@a3s-code/effect';
import {
  AsyncSessionBuildRequiredError,
  SessionConfigurationError,
  SessionInitializationError,
} from '../errors/session-errors.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { ModelConfig, ModelEnvironment, ModelResolver, ModelSelection } from '../llm/model-resolver.js';
import { ModelConfigurationError } from '../errors/model-errors.js';
import { withholdFromToolProcesses } from '../invoker/tool-process-env.js';
import { FileSessionStore } from './file-session-store.js';
import type { MemorySessionStore } from './memory-session-store.js';
import { assertSessionStore, type SessionStore } from './session-store.js';
import type { SessionOptions } from './session-options.js';
import { FileFactStore } from '../store/file-fact-store.js';
import { MemoryFactStore } from '../store/memory-fact-store.js';
import { checkStateFolders, mkdirState } from '../store/state-folder.js';
import type { FactStore } from '../store/fact-store.js';
import { FileMemoryStore } from '../memory/file-memory-store.js';
import type { MemoryStore } from '../memory/memory-store.js';
import { emptyWorkspace } from '../workspace/workspace-services.js';
import type { CodeConfig } from '../config/code-config.js';
import { compileHooks } from '../hooks/command-hooks.js';
import { DEFAULT_DELEGATION } from '../delegation/delegation-options.js';
import { validateConfigObject } from '../config/config-schema.js';
import { mergeLayers, normalizeLayer, type NormalizedLayer } from '../config/merge-config.js';
import type { ResolvedSessionConfig } from './resolved-session-config.js';
import { withQuestionTimeout } from '../run/ask-user.js';

/** A resource the async phase must initialise, and why. */
export interface PendingResource {
  /** Option path of the resource: `model`, `persistence`, `sessionStore`, `mcpServers.<name>`. */
  readonly resource: string;
  readonly reason: string;
}

/** The I/O-free part of a build. */
export interface SessionBuildPlan {
  /** Everything but the resources. */
  readonly base: Omit<ResolvedSessionConfig, 'model' | 'modelConfig' | 'factStore' | 'sessionStore' | 'memory'>;
  readonly model:
    | LlmClient
    | {
        readonly selection: ModelSelection;
        readonly env: ModelEnvironment;
        readonly config: ModelConfig;
        readonly resolver: ModelResolver;
      };
  readonly sessionStore: SessionStore | 'file' | undefined;
  /** The memory store: a host's object, `file` (opened in the async build) or none. */
  readonly memory: MemoryStore | 'file' | undefined;
  readonly pending: readonly PendingResource[];
}

/**
 * The memory setting of merged options: the one place its default is decided — `file` when the
 * fact log is a file, otherwise none.
 */
export function memorySetting(m: NormalizedLayer): MemoryStore | 'file' | undefined {
  const memory = m.memory ?? ((m.persistence ?? 'file') === 'file' ? 'file' : false);
  return memory === false ? undefined : memory;
}

/** What the agent contributes to every build. */
export interface AgentBuildContext {
  readonly config: CodeConfig;
  /** The agent's in-process store, used for `sessionStore: 'memory'`. */
  readonly memorySessionStore: MemorySessionStore;
}

/** The resolver of a layer, or the error saying a `provider/model` string needs one. */
function resolverOf(m: NormalizedLayer, key: string, ref: string): ModelResolver {
  if (m.modelResolver !== undefined) return m.modelResolver;
  throw new SessionConfigurationError(
    key,
    `'${ref}' names a model, but no modelResolver is configured: pass an LlmClient object, or set modelResolver (the SDK uses @a3s-code/providers' providerModelResolver)`,
  );
}

function modelError(e: unknown): never {
  if (e instanceof ModelConfigurationError)
    throw new SessionConfigurationError(e.key, e.message.replace(/^model configuration: [^:]+: /, ''));
  throw e;
}

/**
 * The selection of model `ref` (`provider/model`) with its provider's settings (base URL, headers,
 * the key read from `apiKeyEnv`'s variable, which tool processes then go without). `withModel`
 * false leaves the model out (`A3S_MODEL` chose it).
 * @throws SessionConfigurationError naming `providers.<p>.apiKeyEnv` when that variable is not set.
 */
export function providerSelection(
  ref: string,
  providers: NormalizedLayer['providers'],
  env: ModelEnvironment,
  withModel = true,
): ModelSelection {
  withholdFromToolProcesses(...Object.values(providers ?? {}).flatMap((q) => q?.apiKeyEnv ?? []));
  const provider = ref.slice(0, Math.max(0, ref.indexOf('/')));
  const p = providers?.[provider as keyof NonNullable<typeof providers>];
  let apiKey: string | undefined;
  if (p?.apiKeyEnv !== undefined) {
    apiKey = env[p.apiKeyEnv];
    if (!apiKey)
      throw new SessionConfigurationError(
        `providers.${provider}.apiKeyEnv`,
        `names the environment variable ${p.apiKeyEnv}, which is not set`,
      );
  }
  return {
    ...(withModel ? { model: ref } : {}),
    ...(p?.baseUrl === undefined ? {} : { baseUrl: p.baseUrl }),
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(p?.headers === undefined ? {} : { headers: p.headers }),
  };
}

function planModel(m: NormalizedLayer, env: ModelEnvironment): SessionBuildPlan['model'] {
  if (typeof m.model === 'object') return m.model;
  const ref = m.model ?? env.A3S_MODEL;
  if (ref === undefined || ref.trim() === '') {
    throw new SessionConfigurationError(
      'model',
      "no model configured: set `model` ('provider/model' or an LlmClient) or the A3S_MODEL environment variable",
    );
  }
  const resolver = resolverOf(m, 'model', ref);
  const selection = providerSelection(ref, m.providers, env, m.model !== undefined);
  let config: ModelConfig | undefined;
  try {
    config = resolver.resolveConfig(selection, env);
  } catch (e) {
    modelError(e);
  }
  if (!config) throw new SessionConfigurationError('model', 'no model configured');
  return { selection, env, config, resolver };
}

/** The harness recipe's setting of each camelCase option. */
const RECIPE_SETTING: Readonly<Record<keyof Recipe, string>> = {
  tool_budget: 'toolBudget',
  max_tool_rounds: 'maxToolRounds',
  compact_threshold_chars: 'compactThresholdChars',
  compact_threshold_tokens: 'compactThresholdTokens',
};

/** The harness recipe (snake_case, as the fact log records it) from the camelCase options. */
function recipeOf(m: NormalizedLayer): Recipe {
  return {
    ...(m.toolBudget === undefined ? {} : { tool_budget: m.toolBudget }),
    ...(m.maxToolRounds === undefined ? {} : { max_tool_rounds: m.maxToolRounds }),
    ...(m.compactThresholdChars === undefined ? {} : { compact_threshold_chars: m.compactThresholdChars }),
    ...(m.compactThresholdTokens === undefined ? {} : { compact_threshold_tokens: m.compactThresholdTokens }),
  };
}

/**
 * Validates and merges the layers and plans the build; no I/O.
 * @throws SessionConfigurationError naming the option (or both options of a conflict).
 */
export function planSessionBuild(dir: string, agent: AgentBuildContext, options: SessionOptions): SessionBuildPlan {
  if (typeof dir !== 'string' || dir.length === 0)
    throw new SessionConfigurationError('dir', 'must be the workspace folder path');
  validateConfigObject(options);
  const m = mergeLayers(
    normalizeLayer(agent.config, 'agent configuration'),
    normalizeLayer(options, 'session options'),
  );
  const root = resolve(dir);
  const recipe = recipeOf(m);
  try {
    resolveRecipe(recipe);
  } catch (e) {
    if (e instanceof RecipeError)
      throw new SessionConfigurationError(
        RECIPE_SETTING[e.field as keyof Recipe] ?? e.field,
        e.message.replace(/^recipe\.[^:]*: /, ''),
      );
    throw e;
  }
  const env = m.env ?? process.env;
  const model = planModel(m, env);
  const sessionStore = m.sessionStore === 'memory' ? agent.memorySessionStore : m.sessionStore;
  if (typeof sessionStore === 'object') assertSessionStore(sessionStore, 'sessionStore');
  const toolCallBudget = m.budgets?.toolCalls;
  if (toolCallBudget?.softLimit !== undefined && toolCallBudget.softLimit > toolCallBudget.limit) {
    throw new SessionConfigurationError(
      'budgets.toolCalls.softLimit',
      `must be an integer from 0 to budgets.toolCalls.limit (${toolCallBudget.limit})`,
    );
  }
  const persistence = m.persistence ?? 'file';
  const pending: PendingResource[] = [];
  if (!('stream' in model))
    pending.push({
      resource: 'model',
      reason: `the model '${model.config.provider}/${model.config.model}' is selected by name; its client is created in the async build (pass an LlmClient object to build synchronously)`,
    });
  if (persistence === 'file')
    pending.push({
      resource: 'persistence',
      reason: "the file fact log must be opened and locked (use persistence: 'memory' to build synchronously)",
    });
  if (sessionStore === 'file')
    pending.push({
      resource: 'sessionStore',
      reason: "the file session store must be initialised (use 'memory' or an open SessionStore object)",
    });
  const memory = memorySetting(m);
  if (memory === 'file')
    pending.push({
      resource: 'memory',
      reason: 'the file memory store must be opened (pass an initialised MemoryStore object, or memory: false)',
    });
  for (const pack of m.tools ?? []) {
    for (const r of pack.resources ?? [])
      if (r.opens === 'session')
        pending.push({
          resource: `tools.${pack.name}.${r.capability}`,
          reason: "the pack's resource opens at session build (declare it opens: 'lazy' to build synchronously)",
        });
  }
  for (const name of Object.keys(m.mcpServers ?? {}))
    pending.push({ resource: `mcpServers.${name}`, reason: 'MCP servers need asynchronous discovery' });
  const abs = (xs: readonly string[] | undefined) => (xs ?? []).map((x) => resolve(root, x));
  return {
    model,
    sessionStore,
    memory,
    pending,
    base: {
      dir: root,
      sessionId: options.sessionId ?? `session-${randomUUID()}`,
      workspace: m.workspace ?? emptyWorkspace(root),
      tools: m.tools ?? [],
      permissions: m.permissions ?? {},
      ...(m.checker ? { checker: m.checker } : {}),
      ...(m.confirmation ? { confirmation: m.confirmation } : {}),
      ...(m.onQuestion
        ? {
            onQuestion:
              m.questionTimeoutMs === undefined ? m.onQuestion : withQuestionTimeout(m.onQuestion, m.questionTimeoutMs),
          }
        : {}),
      parkMode: m.parkMode ?? 'wait',
      recipe,
      questionCap: m.questionCap ?? 8,
      steerCapacity: m.steerCapacity ?? 32,
      system: m.system ?? [],
      persistence,
      ...(m.budgets?.llm ? { llmBudget: m.budgets.llm } : {}),
      ...(m.llmRetry ? { llmRetry: m.llmRetry } : {}),
      ...(toolCallBudget ? { toolCallBudget } : {}),
      governance: m.governance ?? {},
      hooks: compileHooks(m.hooks, root),
      mcpServers: m.mcpServers ?? {},
      skillDirs: abs(m.skillDirs),
      agentDirs: abs(m.agentDirs),
      agents: m.agents ?? [],
      delegation: {
        manual: m.manualDelegation ?? DEFAULT_DELEGATION.manual,
        autoParallel: m.autoParallel ?? DEFAULT_DELEGATION.autoParallel,
        maxParallelTasks: m.maxParallelTasks ?? DEFAULT_DELEGATION.maxParallelTasks,
      },
      history: options.history ?? [],
      clock: m.clock ?? Date.now,
      gate: m.gate ?? {},
      // A closure, so the environment (and any key in it) is never a readable config field.
      clientFor: (ref: string) =>
        resolverOf(m, 'modelResolver', ref).createClient(providerSelection(ref, m.providers, env), env),
      toolSources: m.toolSources ?? [],
      ...(m.web === undefined ? {} : { web: m.web }),
      prompt: m.prompt ?? {},
      workspaceInstructions: m.workspaceInstructions ?? true,
      pricing: m.pricing ?? {},
      queue: m.queue ?? {},
      ...(m.security === undefined ? {} : { security: m.security }),
    },
  };
}

/**
 * Initialises the plan's resources (async path): the model client, the fact store and the session
 * store. A failure is a `SessionInitializationError` naming the resource; what opened is closed.
 */
export async function initializeSession(plan: SessionBuildPlan): Promise<ResolvedSessionConfig> {
  const { base } = plan;
  // Logs, attachments and snapshots must stay in the workspace: a linked state folder is refused
  // (the memory store checks its own folder when it opens).
  const used: (readonly [string, readonly string[]])[] = [];
  if (base.persistence === 'file') used.push(['persistence', ['effect-log', 'artifacts']]);
  if (plan.sessionStore === 'file') used.push(['sessionStore', ['sessions']]);
  for (const [resource, folders] of used)
    await checkStateFolders(base.dir, folders).catch((e: Error) => {
      throw new SessionInitializationError(e.message, e, resource);
    });
  const model = clientOf(plan);
  let sessionStore: SessionStore | undefined;
  if (plan.sessionStore === 'file') {
    const store = new FileSessionStore(base.dir);
    try {
      await mkdirState(store.folder);
    } catch (e) {
      throw new SessionInitializationError(
        `cannot create the session folder '${store.folder}': ${(e as Error).message}`,
        e,
        'sessionStore',
      );
    }
    sessionStore = store;
  } else sessionStore = plan.sessionStore;
  const memory = plan.memory === 'file' ? await openMemory(base.dir, base.clock) : plan.memory;
  const factStore = await openFactStore(base.dir, base.sessionId, base.persistence);
  return freeze({
    ...base,
    model: model.client,
    ...(model.config ? { modelConfig: model.config } : {}),
    factStore,
    ...(sessionStore ? { sessionStore } : {}),
    ...(memory ? { memory } : {}),
  });
}

/** Resolves without any asynchronous work, or throws `ASYNC_SESSION_BUILD_REQUIRED` naming the first resource that needs it. */
export function resolveSync(plan: SessionBuildPlan): ResolvedSessionConfig {
  const first = plan.pending[0];
  if (first)
    throw new AsyncSessionBuildRequiredError(
      `${first.resource}: ${first.reason}; use await agent.session(...)`,
      first.resource,
    );
  const model = plan.model as LlmClient;
  const sessionStore = plan.sessionStore as SessionStore | undefined;
  const memory = plan.memory as MemoryStore | undefined;
  return freeze({
    ...plan.base,
    model,
    factStore: new MemoryFactStore(),
    ...(sessionStore ? { sessionStore } : {}),
    ...(memory ? { memory } : {}),
  });
}

function clientOf(plan: SessionBuildPlan): { client: LlmClient; config?: ModelConfig } {
  const m = plan.model;
  if ('stream' in m) return { client: m };
  try {
    const client = m.resolver.createClient(m.selection, m.env);
    if (!client) throw new SessionInitializationError('no model client could be created', undefined, 'model');
    return { client, config: m.config };
  } catch (e) {
    if (A3sError.isInstance(e) && !(e instanceof ModelConfigurationError)) throw e;
    throw new SessionInitializationError(
      `cannot create the client of '${m.config.provider}/${m.config.model}': ${(e as Error).message}`,
      e,
      'model',
    );
  }
}

async function openMemory(dir: string, clock: () => number): Promise<MemoryStore> {
  try {
    return await FileMemoryStore.open(dir, clock);
  } catch (e) {
    throw new SessionInitializationError(
      `cannot open the memory store under '${dir}': ${(e as Error).message}`,
      e,
      'memory',
    );
  }
}

async function openFactStore(dir: string, sessionId: string, persistence: 'file' | 'memory'): Promise<FactStore> {
  if (persistence === 'memory') return new MemoryFactStore();
  try {
    return await FileFactStore.open(dir, sessionId);
  } catch (e) {
    if (A3sError.isInstance(e)) throw e;
    throw new SessionInitializationError(
      `cannot open the fact log of session '${sessionId}' under '${dir}': ${(e as Error).message}`,
      e,
      'persistence',
    );
  }
}

function freeze(c: ResolvedSessionConfig): ResolvedSessionConfig {
  return Object.freeze(c);
}
