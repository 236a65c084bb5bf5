/**
 * `SessionSnapshotV1`: one complete, versioned persistence generation of a session —
 * conversation, artifacts, trace events, run records, verification reports and sub-agent task
 * snapshots. Every field is plain JSON so a snapshot round-trips through any store unchanged.
 * The fact log stays the source of truth for runs; the snapshot is the source for session-level
 * state (ARCHITECTURE §9).
 */
import type { Message, RunCapabilityBindingV1 } from '@a3s-code/effect';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';

/** The `version` of the snapshots this package writes. */
export const SESSION_SNAPSHOT_VERSION = 1;

/** One artifact of the session (a capped tool output). `content` is `null` when it did not fit the snapshot's bound. */
export interface SnapshotArtifact {
  readonly id: string;
  /** `artifact://<id>`. */
  readonly uri: string;
  /** Size of the content in UTF-8 bytes. */
  readonly size_bytes: number;
  /** Hex SHA-256 of the UTF-8 content. */
  readonly sha256: string;
  /** The tool whose output this is, when known. */
  readonly tool_name?: string;
  /** The call that produced it, when known. */
  readonly call_id?: string;
  /** The whole content, or `null` when the snapshot's artifact bound left it out (the ref stays). */
  readonly content: string | null;
}

/** How a run ended, or `running` when the log has no `run.ended` for it (parked or crashed). */
export type RunRecordStatus = 'running' | 'completed' | 'cancelled' | 'failed';

/** One run of the session, derived from its fact log. */
export interface RunRecord {
  readonly run_id: string;
  /** Must equal the snapshot's `session_id`. */
  readonly session_id: string;
  readonly status: RunRecordStatus;
  /** The user prompt that opened the run (`''` for a run opened by a resume). */
  readonly prompt: string;
  /** Epoch milliseconds of `run.started`, when stamped. */
  readonly started_at_ms: number | null;
  /** Epoch milliseconds of `run.ended`, when it ended and was stamped. */
  readonly ended_at_ms: number | null;
  /** Seq of the run's `run.started` fact. */
  readonly started_seq: number;
  /** Seq of the last fact of the run (its `run.ended`, or the last fact before the next run). */
  readonly last_seq: number;
  /** Token usage of the run's model turns. */
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
  /** Tool results recorded for the run. */
  readonly tool_calls: number;
  /** The completion verdict (`narrative`, `verified`, `waived`), when it completed. */
  readonly completion: string | null;
  /** The error a failed run recorded. */
  readonly error?: { readonly code: string; readonly message: string };
  /** The capability binding the run was admitted (or last rebound) with, when it recorded one. */
  readonly capability_binding?: RunCapabilityBindingV1;
}

/** Status of a verification report or check. */
export type { VerificationCheck, VerificationReport, VerificationStatus } from '../gate/verification-report.js';
import type { VerificationReport } from '../gate/verification-report.js';

/** A delegated (sub-agent) task as the snapshot keeps it. Nothing produces these yet. */
export interface SubagentTaskSnapshot {
  readonly task_id: string;
  readonly agent: string;
  readonly status: string;
  readonly [key: string]: unknown;
}

/** One complete persistence generation of a session. */
export interface SessionSnapshotV1 {
  readonly version: 1;
  readonly session_id: string;
  /** Epoch milliseconds when the session was first created. */
  readonly created_at_ms: number;
  /** Epoch milliseconds of this save. */
  readonly updated_at_ms: number;
  /** Absolute path of the workspace folder, when the session had one. */
  readonly workspace_dir?: string;
  /** The folded conversation, in the order the model sees it. */
  readonly conversation: readonly Message[];
  readonly artifacts: readonly SnapshotArtifact[];
  /** Event envelopes of the session's runs (bounded; oldest dropped first), in emission order per run. */
  readonly trace_events: readonly EventEnvelopeV1[];
  readonly runs: readonly RunRecord[];
  readonly verification_reports: readonly VerificationReport[];
  readonly subagent_tasks: readonly SubagentTaskSnapshot[];
}

/** A content block of a legacy message (`image` blocks are not carried over). */
export type LegacyContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly [key: string]: unknown }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input?: unknown }
  | {
      readonly type: 'tool_result';
      readonly tool_use_id: string;
      readonly content?: string | readonly { readonly type: string; readonly text?: string }[];
      readonly is_error?: boolean;
    };

/**
 * The legacy bare-session JSON shape: readable for migration, never written. `system`
 * messages are dropped on migration (the system prompt comes from the configuration); other
 * fields older versions saved are ignored. Times are epoch milliseconds, epoch seconds (any number
 * below 10^11) or ISO-8601 strings.
 */
export interface LegacySessionData {
  readonly id: string;
  readonly messages: readonly {
    readonly role: 'user' | 'assistant' | 'system';
    readonly content: string | readonly LegacyContentBlock[];
  }[];
  readonly created_at?: number | string;
  readonly updated_at?: number | string;
}
