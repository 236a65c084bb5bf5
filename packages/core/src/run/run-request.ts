/**
 * What a run is asked to do (a new prompt or a resume) and everything it is executed with.
 */
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import type { Folder, Harness } from '@a3s-code/effect';
import { InvalidPromptError } from '../errors/session-errors.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import type { ResolvedSessionConfig } from '../session/resolved-session-config.js';
import type { SessionGate } from '../gate/session-gate.js';
import type { FactStore } from '../store/fact-store.js';
import type { LiveRun } from './run-setup.js';
import type { CapabilityCatalog } from '../catalog/capability-catalog.js';
import type { CapabilityScope } from '../catalog/capability-scope.js';
import type { AttachmentInput, SendOptions } from '../attachments/attachment-input.js';
import type { AttachmentStore } from '../attachments/attachment-store.js';

/**
 * What to run: a new prompt, or a resume of the log (`rebind`: continue under the current
 * capability generation when the run's recorded binding drifted, instead of refusing).
 */
export type RunRequest =
  | {
      readonly kind: 'prompt';
      readonly prompt: string;
      readonly attachments?: readonly AttachmentInput[];
      /** Where path attachments are read (a delegated run: its calling tool call's workspace); default the session's. */
      readonly attachmentsFrom?: WorkspaceServices;
    }
  | { readonly kind: 'resume'; readonly runId?: string; readonly rebind?: boolean };

/**
 * Throws {@link InvalidPromptError} (`INVALID_PROMPT`) saying what was given unless `prompt` is a string with text: checked
 * before a run is admitted, so a bad prompt starts nothing and never leaves the session busy.
 */
export function checkPrompt(prompt: unknown): asserts prompt is string {
  if (typeof prompt === 'string' && prompt.trim().length > 0) return;
  const got =
    typeof prompt !== 'string'
      ? prompt === null
        ? 'null'
        : typeof prompt
      : prompt === ''
        ? 'an empty string'
        : 'only whitespace';
  throw new InvalidPromptError(got);
}

/** The run request of a prompt and its options (`send`, `stream`); the prompt is checked first. */
export function promptRequest(prompt: string, options: SendOptions): RunRequest {
  checkPrompt(prompt);
  const attachments = options.attachments;
  return attachments === undefined ? { kind: 'prompt', prompt } : { kind: 'prompt', prompt, attachments };
}

/** Options of {@link executeRun}: everything a run is executed with. */
export interface ExecuteRunOptions {
  /** What to run: a new prompt, or a resume of the log. */
  readonly request: RunRequest;
  /** The session the run belongs to (stamped into its events and facts). */
  readonly sessionId: string;
  /** The session's fact log; the run advances only by appending to it. */
  readonly store: FactStore;
  /** The session's tool invoker (every tool call of the run goes through it). */
  readonly invoker: ToolInvoker;
  /** The session's resolved configuration: the only place settings are read from. */
  readonly config: ResolvedSessionConfig;
  /** The harness the run is driven by (its kernel checks must stay on). */
  readonly harness: Harness;
  /** The session's folder of the log, kept in sync with `store.log`. */
  readonly folder: Folder;
  /** The session's signal: aborting it cancels the run. */
  readonly sessionSignal: AbortSignal;
  /** Epoch-milliseconds clock, stamped into facts as `at_ms`. */
  readonly clock: () => number;
  /** Called with the live run once it is created, before its first event. */
  readonly onStart: (run: LiveRun) => void;
  /** Called once the run has ended (after its last event), whatever the outcome. */
  readonly onEnd: () => void;
  /** Resolves when the host appended an answer fact to a park (`confirmToolUse`, `answerQuestion`). */
  readonly hostAnswered: (signal: AbortSignal) => Promise<void>;
  /** Last event sequence already recorded for a run id (a resumed run continues after it). */
  readonly lastEventSequence?: (runId: string) => number;
  /** The session's completion gate. */
  readonly gate: SessionGate;
  /** The layered system prompt of the session. */
  readonly system: readonly string[];
  /**
   * The session's provider budget (from `config.llmBudget`), shared by its runs, sub-agents and
   * host-direct calls; absent when no budget is configured.
   */
  readonly llmBudget?: LlmBudget;
  /** Extra fields of the run's `run.started` fact (a worker's record); the fields the run writes win. */
  readonly runStarted?: Readonly<Record<string, unknown>>;
  /** Waits for the run's sub-agents to settle before a failed or cancelled run records its end. */
  readonly settleChildren?: (runId: string) => Promise<void>;
  /** Where attachment bytes are kept. Default: the fact store's (`attachmentStoreFor`). */
  readonly attachments?: AttachmentStore;
  /** The session's capability catalog: a run pins its published generation. */
  readonly catalog?: CapabilityCatalog;
  /** A child run's scope, shared with its parent run (no generation of its own). */
  readonly scope?: CapabilityScope;
  /** Resolves when the run's supervised work (background sub-agents) has settled; the run's lease is released after it. */
  readonly settleSupervised?: (runId: string) => Promise<void>;
  /**
   * The log's length right after the host answered a park (`confirmToolUse`) while no run of the
   * session was live. A resume that finds the log still that long knows the released call has not
   * started yet; otherwise the call due at a resume may have been interrupted by a crash.
   */
  readonly answeredIdle?: number;
}
