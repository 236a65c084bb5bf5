/**
 * The SDK `Agent`: core's `Agent` with the defaults wired — a `LocalWorkspace` on the session
 * folder with the workspace tool pack and the resource-bound packs (ast, lsp, eval, debug; lazy),
 * the web tool pack (`web_fetch`, `web_search`; `web: false`
 * leaves them out), core's runtime tools, the model from the configuration or
 * the environment, the file fact log and the file session store, MCP servers from the
 * configuration, the workspace's config file, and a confirmation manager on every session (the
 * host's `onConfirm`, else one that refuses with `no approver`: an `ask` never runs unasked unless
 * the host says so). Everything else is core's, unchanged.
 */
import { resolve } from 'node:path';
import {
  describeSessionTools,
  loadCodeConfig,
  mergeVibe,
  SessionConfigurationError,
  type AgentSession,
  type CodeConfig,
  type LlmClient,
  type ModelEnvironment,
  type SessionListing,
  type SessionOptions as CoreSessionOptions,
  type WorkspaceServices,
} from '@a3s-code/core';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { checkWebSetting } from '@a3s-code/tools-web';
import type { McpServerStatus } from '@a3s-code/mcp';
import { AgentLayers, type AgentLayer } from './agent-layer.js';
import {
  AGENT_SDK_KEYS,
  checkAgentConfigArg,
  checkDir,
  checkSessionIdArg,
  checkExistingFolder,
  checkOptionsArg,
  checkSessionOptions,
  withSdkKeys,
} from './arguments.js';
import { resolveApproval, withReadTools, type ApprovalOptions } from './approver.js';
import { defaultPacks, type ResourcePacks } from './default-packs.js';
import { ModelNotConfiguredError } from './errors.js';
import type { McpSource } from '@a3s-code/mcp';
import { inheritedSources, SessionMcp, validateMcpServers } from './mcp.js';
import { noteScriptResume, resolveModel, type ModelSpec } from './model.js';
import { OpenSessions } from './open-sessions.js';
import type { ModelOptions, VibeOption, WebOption } from './agent-options.js';
import { Session } from './session.js';
import { workspaceSessions } from './session-list.js';
import { toolInfos, type ToolInfo } from './tool-info.js';
import { checkedVibe, sessionVibe } from './vibe.js';
import { VIBE_TOOL_NAMES, type Vibe } from '@a3s-code/tools-resource/vibe';

/**
 * Configuration of `Agent.create`: core's `CodeConfig` (every session's defaults), with the model
 * as a spec and the approval of asked tool calls as `onConfirm` / `confirmation` (see
 * {@link ApprovalOptions}: without either, an asked call is refused with `no approver`).
 */
export interface AgentConfig
  extends Omit<CodeConfig, 'model' | 'workspace' | 'confirmation' | 'web' | 'vibe'>,
    ModelOptions,
    WebOption,
    VibeOption,
    ApprovalOptions {
  /** Environment for model selection (`A3S_MODEL`, keys, base URLs). Default `process.env`. */
  readonly env?: ModelEnvironment;
  /** Folder a relative `scripted:` path resolves against, and `resumeSession`'s default folder. Default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * Register the workspace tool pack (`read`, `write`, `edit`, `patch`, `grep`, `glob`, `ls`,
   * `bash`, `git`) on every session. Default `true`; `tools` are registered after it.
   */
  readonly workspaceTools?: boolean;
  /**
   * The resource-bound packs registered with the workspace pack: `ast` (`ast_grep`, `ast_edit`,
   * `resolve`), `lsp` (`lsp`, `lsp_rename`, diagnostics on write), `eval` (the persistent
   * interpreter) and `debug` (the debugger). Each is on by default and lazy: nothing loads or
   * starts until its tool is first called. `false` for one leaves its pack out; a host pack of the
   * same name replaces it.
   */
  readonly resourcePacks?: ResourcePacks;
  /**
   * Each session folder's config file (`a3s.config.json`, else `.a3s/config.json`), merged under
   * this configuration. It comes with the folder, so by default (unset) it is merged only when it
   * needs no trust (see `trustNeeds`: budgets, pricing, `deny` / `ask` rules); one that would start
   * MCP servers, run hooks or checks, let tools run unasked (`permissions.allow`,
   * `permissions.defaultDecision`), redirect a provider, add to what the model is told, or choose
   * the model unnamed elsewhere fails the session with `WorkspaceUntrustedError` before anything
   * in it runs. `true` merges it (only for folders you trust); `false` ignores it; always off for
   * an agent created from a config path. The folder's agent files (`.a3s/agents/*.md`) that name a
   * `model` need the same trust (see `folderAgentNeeds`): only `true` uses them.
   */
  readonly workspaceConfig?: boolean;
}

/**
 * Options of `agent.session(dir, options)`: core's, with the model as a spec and the approval of
 * asked tool calls as `onConfirm` / `confirmation` (over the agent's). `mcpServers` here are the
 * session's private servers.
 */
export interface SessionOptions
  extends Omit<CoreSessionOptions, 'model' | 'confirmation' | 'web' | 'vibe'>,
    ModelOptions,
    WebOption,
    VibeOption,
    ApprovalOptions {
  /** The workspace. Default: a `LocalWorkspace` rooted at `dir`. */
  readonly workspace?: WorkspaceServices;
  /**
   * MCP managers the host shares with this session (the inherited tier): a read-only source of
   * tools, resources and prompts, after the agent-global servers and before the session's own
   * (`mcpServers`, `addMcpServer`), which may shadow them inside this session only. The session
   * never adds, removes or closes their servers; pass an `McpManager` (only its `view()` is used)
   * or an `McpSource`, or a list of them in order.
   */
  readonly mcp?: McpSource | readonly McpSource[];
}

/** Options of `agent.resumeSession(id, options)`. */
export interface ResumeSessionOptions extends Omit<SessionOptions, 'sessionId' | 'history'> {
  /** Workspace folder holding the saved session. Default: the agent's `cwd`, else the current folder. */
  readonly dir?: string;
}

/** What a session build needs after the SDK's own resolution. */
interface Prepared {
  readonly layer: AgentLayer;
  readonly options: CoreSessionOptions;
  readonly mcp: SessionMcp;
  readonly vibe: Vibe | undefined;
}

/** Builds sessions with the defaults wired. */
export class Agent {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_Agent`; people read `Agent`.
    Object.defineProperty(this, 'name', { value: 'Agent' });
  }
  readonly #config: AgentConfig;
  readonly #model: LlmClient | undefined;
  readonly #explicitModel: boolean;
  readonly #layers: AgentLayers;
  readonly #sessions = new OpenSessions();
  /** Why `A3S_MODEL` could not be resolved: thrown only when a session falls back to it. */
  readonly #envModelError: unknown;

  private constructor(config: AgentConfig, model: LlmClient | undefined, layers: AgentLayers, envModelError: unknown) {
    // Private to TypeScript only: JavaScript can still call `new Agent(config)`, which would leave
    // the agent without its resolved layers and fail on the first session with a bare TypeError.
    if (!(layers instanceof AgentLayers))
      throw new SessionConfigurationError(
        'Agent',
        'an agent is made with `await Agent.create(config)` (it validates the configuration and resolves the model); `new Agent(...)` is not supported',
      );
    this.#config = config;
    this.#model = model;
    this.#explicitModel = config.model !== undefined;
    this.#layers = layers;
    this.#envModelError = envModelError;
  }

  /**
   * Creates an agent from a configuration object, or from a JSON config file (a path to the file,
   * or to a folder holding `a3s.config.json` or `.a3s/config.json`). The configuration and its
   * `mcpServers` are validated and the model resolved now (a bad `model`, a missing key or a bad
   * script file throws here); a missing model, and a bad `A3S_MODEL` (the fallback, which a
   * workspace config file's model overrides), are reported by `session()` when it would use it, so
   * hosts that only list tools or replay logs need none. MCP servers start with the first session.
   * @throws SessionConfigurationError, McpConfigError (`MCP_CONFIG`, naming the key path),
   *   ModelConfigurationError (naming e.g. `OPENAI_API_KEY`), ScriptError, SessionInitializationError (no config file).
   */
  static async create(config?: AgentConfig | string): Promise<Agent> {
    const arg = checkAgentConfigArg(config);
    const fromFile = typeof arg === 'string';
    const c: AgentConfig = typeof arg === 'string' ? ((await loadCodeConfig(arg)) as AgentConfig) : arg;
    const {
      model,
      env,
      cwd,
      workspaceTools: _w,
      resourcePacks: _r,
      workspaceConfig,
      onConfirm: _c,
      confirmation: _m,
      vibe: _v,
      ...core
    } = c;
    resolveApproval({}, c);
    checkedVibe(c.vibe);
    checkWebSetting(c.web);
    validateMcpServers(core.mcpServers, typeof arg === 'string' ? arg : undefined);
    const layers = new AgentLayers(
      { ...core, ...(env === undefined ? {} : { env }) },
      fromFile || workspaceConfig === false ? 'off' : workspaceConfig === true ? 'trusted' : 'checked',
      model !== undefined,
    );
    await withSdkKeys(() => layers.validate(), AGENT_SDK_KEYS);
    const resolveTheModel = () =>
      resolveModel(model, env ?? process.env, cwd ?? process.cwd(), core.providers, core.modelResolver);
    if (model !== undefined) return new Agent(c, await resolveTheModel(), layers, undefined);
    // `A3S_MODEL` is only the fallback: a workspace config file's model wins over it, so a bad
    // value fails the sessions that would use it, not the agent.
    try {
      return new Agent(c, await resolveTheModel(), layers, undefined);
    } catch (e) {
      return new Agent(c, undefined, layers, e);
    }
  }

  /** The model sessions use when neither they nor the workspace config file name one, if any. */
  get model(): LlmClient | undefined {
    return this.#model;
  }

  /**
   * Opens a session on the workspace folder `dir`: its log is `<dir>/.a3s/effect-log/<thread>.jsonl`
   * (reuse `sessionId` to continue it) and `save()` writes `<dir>/.a3s/sessions/<thread>.json`.
   * @throws ModelNotConfiguredError when neither the options, the agent, the folder's config file nor
   *   `A3S_MODEL` name a model; WorkspaceUntrustedError when the folder's config file needs trust
   *   and the agent's `workspaceConfig` is unset, or one of its `.a3s/agents` files names a model
   *   and `workspaceConfig` is not `true`; SessionConfigurationError / McpConfigError for a bad option;
   *   SessionInitializationError / FactLogLockedError when the log cannot be opened.
   */
  async session(dir: string, options?: SessionOptions): Promise<Session> {
    const root = checkExistingFolder(resolve(checkDir(dir, 'agent.session')));
    const p = await this.#prepare(root, checkOptionsArg(options, 'agent.session'));
    return this.#wrap(p, root, () => p.layer.core.session(root, p.options));
  }

  /**
   * Reopens a session saved with `session.save()`: the snapshot is loaded from the session store
   * (by default the file store of `options.dir`), its fact log continues, and the conversation is
   * restored from the snapshot when the log is empty.
   * @throws SessionNotFoundError (`SESSION_NOT_FOUND`) when no snapshot is saved under `sessionId`.
   */
  async resumeSession(sessionId: string, options?: ResumeSessionOptions): Promise<Session> {
    checkSessionIdArg(sessionId);
    const { dir, ...rest } = checkOptionsArg(options, 'agent.resumeSession');
    const root = checkExistingFolder(
      resolve(this.#config.cwd ?? process.cwd(), dir === undefined ? '.' : checkDir(dir, 'agent.resumeSession')),
    );
    const p = await this.#prepare(root, rest, true, ['dir']);
    return this.#wrap(p, root, () => p.layer.core.resumeSession(sessionId, { ...p.options, dir: root }));
  }

  /**
   * The tool surface a session on `dir` with `options` would have (tiers, capabilities, required
   * workspace capabilities), listed without a model and without opening a log. MCP servers are
   * started to list their tools; the session-private ones are closed again.
   */
  async describeTools(dir: string, options?: Omit<SessionOptions, 'model'>): Promise<ToolInfo[]> {
    const root = checkExistingFolder(resolve(checkDir(dir, 'agent.describeTools')));
    const checked = checkOptionsArg(options, 'agent.describeTools');
    const { layer, options: core, mcp } = await this.#prepare(root, checked, false);
    try {
      return toolInfos(await describeSessionTools(root, layer.config, core));
    } finally {
      await mcp.close();
    }
  }

  /**
   * The sessions of the workspace `dir` (default: the agent's `cwd`), from their fact logs, most
   * recently changed first; `agent.session(dir, { sessionId })` reopens one. Empty logs are left out.
   */
  async listSessions(dir: string = this.#config.cwd ?? process.cwd()): Promise<SessionListing[]> {
    return workspaceSessions(checkExistingFolder(resolve(checkDir(dir, 'agent.listSessions'))));
  }

  /**
   * Status of the agent-global MCP servers sessions on `dir` get (the agent's `mcpServers` and
   * the folder's config file), starting them if no session has yet. A server that failed to start
   * is listed as `failed` with its reason (`lastError`) and stderr tail; see `mcpWarnings`.
   */
  async mcpStatus(dir: string = this.#config.cwd ?? process.cwd()): Promise<readonly McpServerStatus[]> {
    const layer = await this.#layers.for(checkExistingFolder(resolve(checkDir(dir, 'agent.mcpStatus'))), true);
    return layer.mcp?.status() ?? [];
  }

  /**
   * Closes every session the agent opened and has not closed (their runs are cancelled and their
   * commands killed), then the agent-global MCP servers; then every call opening a session throws
   * `AGENT_CLOSED`.
   */
  async close(): Promise<void> {
    try {
      await this.#sessions.closeAll();
    } finally {
      await this.#layers.close();
    }
  }

  async #prepare(root: string, options: SessionOptions, needModel = true, extra: string[] = []): Promise<Prepared> {
    const {
      model: spec,
      mcpServers,
      mcp: shared,
      onConfirm: _c,
      confirmation: _m,
      vibe: vibeSetting,
      ...rest
    } = options;
    // Every option is checked before anything starts (session MCP servers, the model, the log), so
    // a bad one starts nothing. The host's rules and packs are checked as given: merged with the
    // read tools' rules (`deny: 'bash'` spread into single letters) and the default packs, a bad
    // value would be hidden or named at another index.
    await checkSessionOptions(rest, extra);
    checkWebSetting(rest.web);
    const confirmation = resolveApproval(options, this.#config);
    const privateServers = validateMcpServers(mcpServers);
    // Without a model (describeTools), or with the session's own, the file's model is not used.
    const layer = await this.#layers.for(root, !needModel || spec !== undefined, needModel);
    const model = needModel ? await this.#modelFor(layer, spec, rest.providers, rest.modelResolver) : undefined;
    const hostVibe = mergeVibe(checkedVibe(this.#config.vibe), checkedVibe(vibeSetting));
    const vibe = await sessionVibe(mergeVibe<ModelSpec>(layer.fileVibe, hostVibe), {
      env: this.#config.env ?? process.env,
      cwd: this.#config.cwd ?? process.cwd(),
      providers: { ...layer.config.providers, ...rest.providers },
      resolver: rest.modelResolver ?? layer.config.modelResolver,
    });
    const hostPacks = rest.tools ?? this.#config.tools ?? [];
    const packs = [
      ...defaultPacks(this.#config.workspaceTools !== false, this.#config.resourcePacks ?? {}, hostPacks),
      ...(vibe ? [vibe.pack] : []),
    ];
    const mcp = await SessionMcp.open(layer.mcp?.view(), privateServers, inheritedSources(shared));
    const toolSources = [
      ...(rest.toolSources ?? layer.config.toolSources ?? []),
      mcp.toolSource(),
      ...(vibe ? [vibe.mode] : []),
    ];
    return {
      layer,
      mcp,
      vibe,
      options: {
        ...rest,
        // The vibe tools run unasked: approval applies to each worker's own tool calls.
        permissions: withReadTools(rest.permissions, vibe ? VIBE_TOOL_NAMES : []),
        ...(model === undefined ? {} : { model }),
        ...(mcpServers === undefined ? {} : { mcpServers }),
        ...(confirmation === undefined ? {} : { confirmation }),
        workspace: rest.workspace ?? new LocalWorkspace({ root }),
        tools: packs,
        toolSources,
      },
    };
  }

  async #modelFor(
    layer: AgentLayer,
    spec: ModelSpec | undefined,
    providers: CodeConfig['providers'],
    resolver: CodeConfig['modelResolver'],
  ): Promise<LlmClient> {
    const env = this.#config.env ?? process.env;
    const cwd = this.#config.cwd ?? process.cwd();
    const allProviders = { ...layer.config.providers, ...providers };
    const modelResolver = resolver ?? layer.config.modelResolver;
    let model: LlmClient | undefined;
    if (spec !== undefined) model = await resolveModel(spec, env, cwd, allProviders, modelResolver);
    else if (this.#explicitModel || layer.fileModel === undefined) {
      if (this.#envModelError !== undefined) throw this.#envModelError;
      model = this.#model;
    } else model = await resolveModel(layer.fileModel, env, cwd, allProviders, modelResolver);
    if (model === undefined) throw new ModelNotConfiguredError();
    return model;
  }

  async #wrap(p: Prepared, root: string, build: () => Promise<AgentSession>): Promise<Session> {
    try {
      const core = await build();
      noteScriptResume(p.options.model, core);
      return await this.#sessions.add(new Session(core, root, p.mcp, p.vibe?.mode));
    } catch (e) {
      await p.mcp.close();
      throw e;
    }
  }
}
