/**
 * The options of a session (the minimal build path; the full `CodeConfig` merge is layered on
 * top). Everything is validated before any I/O: a bad value is a `SESSION_CONFIGURATION` error
 * naming the option and what is allowed.
 */
import type { Recipe } from '@a3s-code/effect';
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { ToolHooks } from '../invoker/hooks.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import type { LlmBudgetLimits } from '../llm/llm-budget.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { LlmRetryOptions } from '../llm/governed-llm-client.js';
import type { ConfirmationManager } from '../permissions/confirmation.js';
import type { PermissionChecker } from '../permissions/permission-checker.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import type { ParkMode } from '../run/fact-run.js';
import type { QuestionHandler } from '../run/run-result.js';
import type { ToolPack } from '../tools/tool-pack.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import type { WebToolsOptions } from '../web/web-tools.js';

/** A turn of earlier conversation to restore into an empty log (FOLD-08). */
export interface HistoryTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** The transcript a loop checkpoint holds for a run (RES-02). */
export interface RunCheckpoint {
  readonly runId: string;
  readonly messages: readonly HistoryTurn[];
}

/** Where a session looks for run checkpoints when its log is empty (RES-07/08). */
export interface RunCheckpointStore {
  loadRunCheckpoint(sessionId: string, runId: string): Promise<RunCheckpoint | undefined>;
}

/** Options of `agent.session(dir, options)`. */
export interface SessionOptions {
  /** Stable id (resume by reusing it). Default: a new random id. */
  readonly sessionId?: string;
  /** The model; overrides the agent's. */
  readonly model?: LlmClient;
  /** The workspace tools act on. Default: one with no capabilities. */
  readonly workspace?: WorkspaceServices;
  /** Tool packs to register (each tool only when its requirements are provided). */
  readonly tools?: readonly ToolPack[];
  readonly permissions?: PermissionPolicyConfig;
  readonly checker?: PermissionChecker;
  /** Human confirmation. Without one, an `ask` runs the tool (PERM-07). */
  readonly confirmation?: ConfirmationManager;
  /** Answers `ask_user` questions live. */
  readonly onQuestion?: QuestionHandler;
  /** At a park nobody answers live: `wait` for `confirmToolUse`/`answerQuestion` (default) or `return` `parked`. */
  readonly parkMode?: ParkMode;
  /** Harness settings (`tool_budget`, compaction thresholds). */
  readonly recipe?: Recipe;
  /** Tool-round cap (BUD-07/08): after this many rounds the model is offered no tools. */
  readonly maxToolRounds?: number;
  /** Questions allowed per prompt, 0..100. Default 8 (PARK-10). */
  readonly questionCap?: number;
  /** System prompt sections. */
  readonly system?: readonly string[];
  /** `file` (default): `<dir>/.a3s/effect-log/<thread>.jsonl`; `memory`: nothing persists. */
  readonly persistence?: 'file' | 'memory';
  /** Provider budgets of each run. */
  readonly llmBudget?: LlmBudgetLimits;
  readonly llmRetry?: LlmRetryOptions;
  /** Earlier conversation, restored only into an empty log (FOLD-08/09). */
  readonly history?: readonly HistoryTurn[];
  /** Run checkpoints for `resumeRun` on an empty log (RES-02, RES-07/08). */
  readonly sessionStore?: RunCheckpointStore;
  readonly hooks?: ToolHooks;
  /** Mode, YOLO, skill and tool-call budget of every run. */
  readonly governance?: GovernanceSnapshot;
  /** Steers that may wait in a run's inbox, 1..1024. Default 32. */
  readonly steerCapacity?: number;
  /** Epoch-milliseconds clock. Default `Date.now`. */
  readonly clock?: () => number;
  /**
   * The web tools `web_fetch` and `web_search` (SURF-04). They reach the network, so a session
   * registers them only when this is set (`{}` enables both with the default engines).
   */
  readonly web?: WebToolsOptions;
}

function intIn(value: number | undefined, field: string, min: number, max: number): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new SessionConfigurationError(field, `must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
}

/** Checks the options that can be checked without I/O. */
export function validateSessionOptions(o: SessionOptions): void {
  if (o.sessionId !== undefined && (typeof o.sessionId !== 'string' || o.sessionId.length === 0 || o.sessionId.length > 1024)) {
    throw new SessionConfigurationError('sessionId', 'must be a string of 1 to 1024 characters');
  }
  intIn(o.maxToolRounds, 'maxToolRounds', 0, 10_000);
  intIn(o.questionCap, 'questionCap', 0, 100);
  intIn(o.steerCapacity, 'steerCapacity', 1, 1024);
  if (o.persistence !== undefined && o.persistence !== 'file' && o.persistence !== 'memory') {
    throw new SessionConfigurationError('persistence', `must be 'file' or 'memory', got ${JSON.stringify(o.persistence)}`);
  }
  if (o.parkMode !== undefined && o.parkMode !== 'wait' && o.parkMode !== 'return') {
    throw new SessionConfigurationError('parkMode', `must be 'wait' or 'return', got ${JSON.stringify(o.parkMode)}`);
  }
  if (o.recipe?.max_tool_rounds !== undefined && o.maxToolRounds !== undefined && o.recipe.max_tool_rounds !== o.maxToolRounds) {
    throw new SessionConfigurationError('maxToolRounds', `conflicts with recipe.max_tool_rounds (${o.recipe.max_tool_rounds}); set one of them`);
  }
  if (o.web !== undefined && (typeof o.web !== 'object' || o.web === null)) throw new SessionConfigurationError('web', 'must be an object: { fetch?, search? }');
  o.history?.forEach((h, i) => {
    if (h.role !== 'user' && h.role !== 'assistant') throw new SessionConfigurationError(`history[${i}].role`, "must be 'user' or 'assistant'");
    if (typeof h.content !== 'string') throw new SessionConfigurationError(`history[${i}].content`, 'must be a string');
  });
}
