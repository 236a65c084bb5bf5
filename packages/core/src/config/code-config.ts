/**
 * `CodeConfig`: what an agent is configured with, as an object or a JSON file
 * (`a3s.config.json` or `.a3s/config.json`). The JSON-able keys (model string, providers,
 * permissions, mcpServers, skill and agent folders, budgets, `toolBudget`, `maxToolRounds`,
 * command hooks, ...) can live in a file; runtime objects (an `LlmClient`, tool packs, a
 * workspace, programmatic hooks, a custom `SessionStore`) only in the object form.
 * `SessionOptions` is a patch over it.
 */
import type { GateOptions } from '../gate/session-gate.js';
import type { PromptInputs } from '../prompt/system-prompt.js';
import type { ToolSource } from '../registry/tool-source.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import type { CodeConfigHooks } from '../hooks/hook-options.js';
import type { LlmRetryOptions } from '../llm/governed-llm-client.js';
import type { BudgetsConfig } from '../llm/llm-budget.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { ModelPricing } from '../llm/model-pricing.js';
import type { ConfirmationManager } from '../permissions/confirmation.js';
import type { PermissionChecker } from '../permissions/permission-checker.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import type { ModelEnvironment, ModelResolver, ProviderSettings } from '../llm/model-resolver.js';
import type { ProviderName } from './model-ref.js';
import type { ParkMode, QuestionHandler } from '../run/run-result.js';
import type { SessionStoreSetting } from '../session/session-store.js';
import type { WebSetting } from '../tools/pack-settings.js';
import type { ToolPack } from '../tools/tool-pack.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import type { AgentDefinitionInput } from '../delegation/agent-definition.js';
import type { MemoryStore } from '../memory/memory-store.js';
import type { SecurityProvider } from '../invoker/security-provider.js';

/** How tool calls queue and nest: the invoker's limits. */
export interface ToolQueueConfig {
  /** Timeout of a tool without its own, ms, `1..86400000`. Default 120000. */
  readonly defaultTimeoutMs?: number;
  /** Calls of one tool running at once, `1..1024`, at most the tool's own `maxParallelism`. Default: the tool's. */
  readonly maxParallelism?: number;
  /** Deepest nesting of calls (`batch` in `program` ...), `1..64`. Default 8. */
  readonly maxDepth?: number;
}

/**
 * The vibe settings of a configuration: `true` / `false`, or an object. The model of a tier is
 * `provider/model` or `scripted:<file.json>` (in a config file, relative to the file's folder).
 */
export interface VibeSettings<Model = string> {
  /** Vibe mode at the start. Default true (when no layer sets it). */
  readonly enabled?: boolean;
  /**
   * The model of each tier that has one (`fast` for well-specified mechanical work, `good` for
   * design, judgement and review); a tier without one uses the session's model.
   */
  readonly tiers?: { readonly fast?: Model; readonly good?: Model };
  /** Workers running at once, `1..32`. Default 8. */
  readonly maxWorkers?: number;
}

/** The configuration of an agent. Every key is optional. */
export interface CodeConfig {
  /** The model: `provider/model` (resolved with `providers` and the environment), or an `LlmClient`. Default: `A3S_MODEL`. */
  readonly model?: string | LlmClient;
  /**
   * Prices per million tokens by `provider/model` (`{ "openai/gpt-4o": { "inputPerMTok": 2.5,
   * "outputPerMTok": 10 } }`), for hosts that show what a run cost. Layers merge by key.
   */
  readonly pricing?: ModelPricing;
  /** Per-provider base URL, API-key variable name and headers. */
  readonly providers?: Readonly<Partial<Record<ProviderName, ProviderSettings>>>;
  /**
   * Permission rules. Every layer's `deny`, `ask` and `allow` lists add up (config file, agent,
   * session) and are judged deny → ask → allow, so no rule written anywhere is dropped; a later
   * layer's `defaultDecision` replaces an earlier one.
   */
  readonly permissions?: PermissionPolicyConfig;
  /**
   * MCP servers by name. Core checks only the outline (an object with `command` or `url`); the
   * SDK validates each entry with `@a3s-code/mcp`'s `parseMcpServers` and connects them.
   */
  readonly mcpServers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Folders holding skills (resolved against the workspace folder). */
  readonly skillDirs?: readonly string[];
  /** Folders holding agent definitions (resolved against the workspace folder). */
  readonly agentDirs?: readonly string[];
  /** Sub-agents defined here (after the built-ins and the agent files; a same name replaces). Agents add up across layers. */
  readonly agents?: readonly AgentDefinitionInput[];
  /** Manual delegation (`task`, `parallel_task`, `task_result` on the surface). Default true; `false` removes them. */
  readonly manualDelegation?: boolean;
  /** Automatic parallel fan-out (the prompt invites `parallel_task`). Default true; `false` turns off only that. */
  readonly autoParallel?: boolean;
  /** Branches of one `parallel_task` running at once, `1..32`. Default 4. */
  readonly maxParallelTasks?: number;
  readonly budgets?: BudgetsConfig;
  /** Successful tool results per turn, `0..10000` (default 8); past it further calls are denied. */
  readonly toolBudget?: number;
  /** Completed tool rounds per turn after which the model is offered no tools, `0..10000`. Default: no cap. */
  readonly maxToolRounds?: number;
  /** Compact when the folded context exceeds this many characters. Default: never by characters. */
  readonly compactThresholdChars?: number;
  /** Compact when the last model call's input + output tokens exceed this. Default: never by tokens. */
  readonly compactThresholdTokens?: number;
  readonly hooks?: CodeConfigHooks;
  /** System prompt sections. */
  readonly system?: readonly string[];
  /** Fact log: `file` (default, `<dir>/.a3s/effect-log/<thread>.jsonl`) or `memory`. */
  readonly persistence?: 'file' | 'memory';
  /** Session snapshots (`session.save()`, `agent.resumeSession`). Default: none. */
  readonly sessionStore?: SessionStoreSetting;
  /**
   * The memory store behind the `remember` and `recall` tools: `file` (`<dir>/.a3s/memory/`,
   * opened in the asynchronous build), `false` (none), or a `MemoryStore` object. Default: `file`
   * when `persistence` is `file`, otherwise none.
   */
  readonly memory?: 'file' | false | MemoryStore;
  /** How tool calls queue and nest (default timeout, parallelism cap, nesting depth). */
  readonly queue?: ToolQueueConfig;
  /** At a park nobody answers live: `wait` (default) or `return`. */
  readonly parkMode?: ParkMode;
  /** Questions allowed per prompt, `0..100`. Default 8. */
  readonly questionCap?: number;
  /** Steers that may wait in a run's inbox, `1..1024`. Default 32. */
  readonly steerCapacity?: number;
  /** Read `AGENTS.md` and `.a3s/instructions.md` from the workspace into the system prompt. Default true. */
  readonly workspaceInstructions?: boolean;
  /** The completion gate: continuation turns (`{ enabled, maxTurns 0..10 }`) and an attestor. The gate itself cannot be turned off. */
  readonly gate?: GateOptions;
  /**
   * Vibe mode (the `vibe_*` tools, with which the agent conducts background workers), read by the
   * SDK: `true`, `false` or `{ enabled?, tiers?: { fast?, good? }, maxWorkers? }`. Layers merge key
   * by key and tier by tier (a later layer's tier model replaces only that tier's); `false` in a
   * later layer turns vibe mode off. Core itself runs no workers.
   */
  readonly vibe?: boolean | VibeSettings;
  // ---- object form only (runtime objects) ----
  /** The workspace tools act on. Default: one with no capabilities. */
  readonly workspace?: WorkspaceServices;
  /** Tool packs to register (each tool only when its requirements are provided). */
  readonly tools?: readonly ToolPack[];
  /**
   * Settings of the web tools `web_fetch` and `web_search`, which the web tool pack
   * (`@a3s-code/tools-web`, registered by the SDK by default) reads: `false` leaves them out, an
   * object configures them (see `WebToolsOptions` there). Without that pack it has no effect.
   */
  readonly web?: WebSetting;
  /** Tool sources that change over time (e.g. `@a3s-code/mcp`'s sources via `syncMcpTools`). */
  readonly toolSources?: readonly ToolSource[];
  /** The layered prompt's other inputs (execution style, response format, skills). */
  readonly prompt?: Pick<PromptInputs, 'executionStyle' | 'responseFormat' | 'skills'>;
  readonly checker?: PermissionChecker;
  /** Sanitises every tool output before any event or result carries it. Default: secrets of known variables redacted, terminal controls stripped. */
  readonly security?: SecurityProvider;
  /**
   * Human confirmation. Without one, core has confirmation turned off and an `ask` runs the tool;
   * hosts (the SDK, the CLI) always install one, refusing with `no approver` when nobody can be
   * asked.
   */
  readonly confirmation?: ConfirmationManager;
  /**
   * Answers `ask_user` questions live. `ask_user` is registered only when a session has this, or
   * `parkMode: 'return'` (the host answers parked questions with `answerQuestion`).
   */
  readonly onQuestion?: QuestionHandler;
  /**
   * Milliseconds `onQuestion` has to answer; past it the question is recorded as unanswered with
   * an error and the model carries on under a stated assumption. Default: no limit.
   */
  readonly questionTimeoutMs?: number;
  readonly llmRetry?: LlmRetryOptions;
  /**
   * Mode, YOLO and skill of every run. The tool-call budget is `budgets.toolCalls`: a
   * `governance.budget` is refused with `SESSION_CONFIGURATION` naming it.
   */
  readonly governance?: Omit<GovernanceSnapshot, 'budget'>;
  /** Epoch-milliseconds clock. Default `Date.now`. */
  readonly clock?: () => number;
  /** Environment for model selection and `apiKeyEnv` (default `process.env`). Values never appear in errors. */
  readonly env?: ModelEnvironment;
  /**
   * Turns `provider/model` strings (the `model` string form and sub-agents naming their own model)
   * into clients. Core ships none: the SDK passes `@a3s-code/providers`' resolver; a host that
   * uses only `LlmClient` objects needs none. A later layer's replaces an earlier one's.
   */
  readonly modelResolver?: ModelResolver;
}
