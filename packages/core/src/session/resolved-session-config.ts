/**
 * `ResolvedSessionConfig`: the one value session assembly and every run read.
 * Produced once per session by the build kernel; no layer below decides a setting again.
 */
import type { Recipe } from '@a3s-code/effect';
import type { GateOptions } from '../gate/session-gate.js';
import type { PromptInputs } from '../prompt/system-prompt.js';
import type { ToolSource } from '../registry/tool-source.js';
import type { GovernanceSnapshot, ToolCallBudgetOptions } from '../invoker/governance.js';
import type { SessionHooks } from '../hooks/session-hooks.js';
import type { LlmRetryOptions } from '../llm/governed-llm-client.js';
import type { LlmBudgetLimits } from '../llm/llm-budget.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { ConfirmationManager } from '../permissions/confirmation.js';
import type { PermissionChecker } from '../permissions/permission-checker.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import type { ModelPricing } from '../llm/model-pricing.js';
import type { ModelConfig } from '../llm/model-resolver.js';
import type { ParkMode, QuestionHandler } from '../run/run-result.js';
import type { HistoryTurn } from '../run/run-checkpoint.js';
import type { SessionStore } from './session-store.js';
import type { FactStore } from '../store/fact-store.js';
import type { WebSetting } from '../tools/pack-settings.js';
import type { ToolPack } from '../tools/tool-pack.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import type { AgentDefinitionInput } from '../delegation/agent-definition.js';
import type { DelegationSettings } from '../delegation/delegation-options.js';
import type { ToolQueueConfig } from '../config/code-config.js';
import type { SecurityProvider } from '../invoker/security-provider.js';
import type { MemoryStore } from '../memory/memory-store.js';

/** Everything a session is built from, with every default filled in and every resource open. */
export interface ResolvedSessionConfig {
  /** Absolute workspace folder. */
  readonly dir: string;
  readonly sessionId: string;
  /** The initialised model client. */
  readonly model: LlmClient;
  /** Where the model came from when it was selected by name (safe to log: no key). */
  readonly modelConfig?: ModelConfig;
  readonly workspace: WorkspaceServices;
  readonly tools: readonly ToolPack[];
  readonly permissions: PermissionPolicyConfig;
  readonly checker?: PermissionChecker;
  readonly confirmation?: ConfirmationManager;
  readonly onQuestion?: QuestionHandler;
  readonly parkMode: ParkMode;
  /** The harness recipe (`toolBudget`, `maxToolRounds` and the compaction thresholds, in the fact log's spelling). */
  readonly recipe: Recipe;
  readonly questionCap: number;
  readonly steerCapacity: number;
  readonly system: readonly string[];
  /** `file` or `memory`: which fact store was opened. */
  readonly persistence: 'file' | 'memory';
  /** The open fact store of the session. */
  readonly factStore: FactStore;
  /** The initialised session store, when one is configured. */
  readonly sessionStore?: SessionStore;
  /** The initialised memory store behind `remember` / `recall`, when the session has one. */
  readonly memory?: MemoryStore;
  /** The output sanitiser of the session's tool invoker, when the host gave one. */
  readonly security?: SecurityProvider;
  /** How tool calls queue and nest. */
  readonly queue: ToolQueueConfig;
  /** Limits of the session's one provider budget, from `budgets.llm` (created at build, shared by runs, sub-agents and host calls). */
  readonly llmBudget?: LlmBudgetLimits;
  readonly llmRetry?: LlmRetryOptions;
  /** A fresh tool-call budget with these limits is created for each run. */
  readonly toolCallBudget?: Omit<ToolCallBudgetOptions, 'name'>;
  readonly governance: GovernanceSnapshot;
  /** Programmatic and compiled command hooks, agent's first. */
  readonly hooks: SessionHooks;
  /** MCP server entries (outline-checked; the SDK validates and connects them). */
  readonly mcpServers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Absolute skill folders. */
  readonly skillDirs: readonly string[];
  /** Absolute agent-definition folders. */
  readonly agentDirs: readonly string[];
  /** Sub-agents given in configuration (built-ins and agent files are added at assembly). */
  readonly agents: readonly AgentDefinitionInput[];
  /** Manual delegation, automatic fan-out, `maxParallelTasks`. */
  readonly delegation: DelegationSettings;
  /** History to restore into an empty log. */
  readonly history: readonly HistoryTurn[];
  readonly clock: () => number;
  /**
   * Creates a client for another `provider/model` with the configured provider settings and the
   * session's environment (sub-agents naming their own model); `undefined` when none can be made.
   */
  readonly clientFor: (ref: string) => LlmClient | undefined;
  /** Completion-gate settings (continuation, attestor). */
  readonly gate: GateOptions;
  /** The `web` setting, handed to the packs' `openSession` (the web tool pack reads it). */
  readonly web?: WebSetting;
  /** Tool sources attached to the registry while the session lives. */
  readonly toolSources: readonly ToolSource[];
  /** Prompt inputs besides host context and workspace instructions. */
  readonly prompt: Pick<PromptInputs, 'executionStyle' | 'responseFormat' | 'skills'>;
  /** Whether the workspace's instruction files go into the system prompt. */
  readonly workspaceInstructions: boolean;
  /** Prices per million tokens by `provider/model` (empty when none are configured). */
  readonly pricing: ModelPricing;
}
