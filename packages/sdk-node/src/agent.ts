/**
 * The SDK `Agent`: core's `Agent` with the defaults wired — a `LocalWorkspace` on the session
 * folder with the workspace tool pack, core's runtime tools (`batch`, `ask_user`, `verify`), the
 * model from the configuration or the environment, and the file fact log. Everything else is
 * core's, unchanged: the SDK composes and holds no policy of its own.
 */
import { resolve } from 'node:path';
import { Agent as CoreAgent, type LlmClient, type ModelEnvironment, type SessionOptions as CoreSessionOptions, type ToolPack, type WorkspaceServices } from '@a3s-code/core';
import { LocalWorkspace, workspaceToolPack } from '@a3s-code/tools-workspace';
import { ModelNotConfiguredError } from './errors.js';
import { resolveModel, type ModelSpec } from './model.js';
import { Session } from './session.js';
import { knownTools } from './tool-info.js';

/** Options shared by the agent's configuration and each session's options. */
interface ModelOptions {
  /**
   * The model: an `LlmClient`, `'provider/model'` (`'openai/gpt-4o'`, `'anthropic/claude-sonnet-4-20250514'`,
   * key from `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`), or `'scripted:<file.json>'` (offline).
   * Default: `A3S_MODEL` from the environment.
   */
  readonly model?: ModelSpec;
}

/** Configuration of `Agent.create`: core's session defaults, with the model as a spec. */
export interface AgentConfig extends Omit<CoreSessionOptions, 'sessionId' | 'history' | 'model' | 'workspace'>, ModelOptions {
  /** Environment for model selection (`A3S_MODEL`, keys, base URLs). Default `process.env`. */
  readonly env?: ModelEnvironment;
  /** Folder a relative `scripted:` path resolves against. Default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * Register the workspace tool pack (`read`, `write`, `edit`, `patch`, `grep`, `glob`, `ls`,
   * `bash`, `git`) on every session. Default `true`; `tools` are registered after it.
   */
  readonly workspaceTools?: boolean;
}

/** Options of `agent.session(dir, options)`: core's, with the model as a spec. */
export interface SessionOptions extends Omit<CoreSessionOptions, 'model'>, ModelOptions {
  /** The workspace. Default: a `LocalWorkspace` rooted at `dir`. */
  readonly workspace?: WorkspaceServices;
}

/** Builds sessions with the defaults wired. */
export class Agent {
  readonly #core: CoreAgent;
  readonly #config: AgentConfig;
  readonly #model: LlmClient | undefined;

  private constructor(core: CoreAgent, config: AgentConfig, model: LlmClient | undefined) {
    this.#core = core;
    this.#config = config;
    this.#model = model;
  }

  /**
   * Creates an agent. The configuration is validated and the model resolved now (a bad model
   * string, a missing key or a bad script file throws here); a missing model is reported by
   * `session()`, so hosts that only replay logs need none.
   * @throws SessionConfigurationError, ModelConfigurationError (naming e.g. `OPENAI_API_KEY`), ScriptError.
   */
  static async create(config: AgentConfig = {}): Promise<Agent> {
    const { model, env, cwd, workspaceTools, ...core } = config;
    const resolved = await resolveModel(model, env ?? process.env, cwd ?? process.cwd());
    return new Agent(await CoreAgent.create(core), config, resolved);
  }

  /** The model sessions use when they name none, if one is configured. */
  get model(): LlmClient | undefined {
    return this.#model;
  }

  /**
   * Opens a session on the workspace folder `dir`: its log is `<dir>/.a3s/effect-log/<thread>.jsonl`
   * (reuse `sessionId` to continue it).
   * @throws ModelNotConfiguredError when neither the agent, the options nor `A3S_MODEL` name a model;
   *   SessionConfigurationError for a bad option; SessionInitializationError / FactLogLockedError
   *   when the log cannot be opened.
   */
  async session(dir: string, options: SessionOptions = {}): Promise<Session> {
    const root = resolve(dir);
    const { model: spec, ...rest } = options;
    const model = spec === undefined ? this.#model : await resolveModel(spec, this.#config.env ?? process.env, this.#config.cwd ?? process.cwd());
    if (model === undefined) throw new ModelNotConfiguredError();
    const packs: ToolPack[] = [...(this.#config.workspaceTools === false ? [] : [workspaceToolPack]), ...(rest.tools ?? this.#config.tools ?? [])];
    const workspace = rest.workspace ?? new LocalWorkspace({ root });
    const core = await this.#core.session(root, { ...rest, model, workspace, tools: packs });
    return new Session(core, root, knownTools(packs));
  }
}
