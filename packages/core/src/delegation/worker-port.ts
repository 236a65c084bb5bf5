/**
 * The types of the background-worker port a session offers tool packs (`ToolResourceContext.workers`);
 * the port itself is `createWorkerPort` (workers.ts).
 */
import type { LlmClient } from '../llm/llm-client.js';
import type { JsonValue } from '../tools/json-schema.js';
import type { ToolContext } from '../tools/tool-context.js';

/** One run of a worker, as a pack asks for it. */
export interface WorkerRunSpec {
  /** The worker to re-run (its log continues); absent: a new worker with the next free id. */
  readonly workerId?: string;
  /** The run's prompt: a new worker's brief, or what is added to it for a re-run. */
  readonly prompt: string;
  /** A short name of the worker (1..200 characters), in its events and system prompt. */
  readonly label: string;
  /** Instructions added to the worker's system prompt. */
  readonly instructions: string;
  /** The class of model the pack chose (1..32 characters, e.g. `fast`), echoed in events and the log. */
  readonly tier?: string;
  /** The worker's model. Default: the session's. */
  readonly model?: LlmClient;
  /** Tool rounds of the run, `1..1000`. Default: the session's recipe. */
  readonly maxSteps?: number;
  /** Tools the worker may not call, besides the delegation tools (a worker never delegates). */
  readonly deniedTools?: readonly string[];
  /** What the pack records with this run: written into the worker's log and returned by {@link WorkerPort.logs}. */
  readonly record?: Readonly<Record<string, JsonValue>>;
}

/** How a worker run ended. */
export interface WorkerOutcome {
  readonly workerId: string;
  readonly thread: string;
  /** `cancelled`: stopped (see `stoppedBy`); `parked`: waiting on a confirmation or question nobody can answer live. */
  readonly status: 'completed' | 'failed' | 'cancelled' | 'parked';
  /** The worker's final answer (what it said last). */
  readonly text: string;
  readonly error?: { readonly code: string; readonly message: string };
  /** Why a cancelled run stopped: the reason given to `stop`, the starting run's cancellation, or the session's close. */
  readonly stoppedBy?: string;
  readonly runId: string | null;
  readonly steps: number;
  readonly toolCalls: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
}

/** A worker run that is going. */
export interface WorkerRun {
  readonly workerId: string;
  readonly thread: string;
  /** Settles when the run has ended and recorded its end; never rejects. */
  readonly outcome: Promise<WorkerOutcome>;
  /** Stops the run (`worker_killed` with `reason`); nothing once it has ended. */
  stop(reason: string): void;
}

/** A worker as its log records it (this process's and earlier ones'). */
export interface WorkerLog {
  readonly workerId: string;
  readonly thread: string;
  readonly label: string;
  readonly tier?: string;
  /** The `record` of its latest run. */
  readonly record: Readonly<Record<string, JsonValue>>;
  /** Its latest run in the log: `running` while the log has it open (live, or left open by a crash). */
  readonly status: 'running' | 'completed' | 'failed' | 'cancelled';
  /** True while a run of it is going in this process. */
  readonly live: boolean;
  /** The last answer text of its latest run (empty when it has none yet). */
  readonly text: string;
  readonly error?: { readonly code: string; readonly message: string };
  /** Runs recorded (1 + re-runs). */
  readonly runs: number;
  /** When its latest run started, and when anything was last recorded (epoch ms; `null` when the log has no time). */
  readonly startedAtMs: number | null;
  readonly lastAtMs: number | null;
  /** When its latest run ended, if it did. */
  readonly endedAtMs?: number;
}

/** What a session offers packs for background workers (`ToolResourceContext.workers`). */
export interface WorkerPort {
  /**
   * Starts a worker run from the tool call `ctx` (its run's governance and cancellation).
   * @throws WorkerError: `WORKER_CONTEXT` (not a call the kernel runs), `WORKER_UNKNOWN`,
   *   `WORKER_BUSY` (a run of it is going), `WORKER_INVALID` (a bad field, named).
   */
  start(ctx: ToolContext, spec: WorkerRunSpec): WorkerRun;
  /** The session's workers as their logs record them, by number (workers of earlier processes included). */
  logs(): Promise<readonly WorkerLog[]>;
}
