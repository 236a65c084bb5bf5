/**
 * The change record of one top-level call: what the call itself and every call nested in it
 * (at any depth, through `batch`, `program`, `verify` or custom orchestrators) changed. The
 * kernel fills it as each call settles and attaches it to the top-level result as
 * `metadata.change_record`, so the run's mutation ledger sees nested changes in the log alone.
 * Only the kernel writes it: a tool's own `change_record` metadata is dropped, and nothing in a
 * call's arguments can shape it. It fails closed: a call of a tool that may change the workspace
 * and ends without saying what it changed (it threw, timed out or was cancelled while running,
 * or was still running when its top-level call ended) records a change with unknown paths. So
 * does the re-run of a call that a crash interrupted (see {@link ChangeCollector.interrupted}).
 */
import { randomUUID } from 'node:crypto';
import type { A3sError } from '@a3s-code/effect';
import { CancelledError } from '../errors/tool-errors.js';
import {
  CHANGE_RECORD_KEY,
  interruptedChange,
  reportedChanges,
  unknownChange,
  type ChangeRecordEntry,
} from '../gate/change-record.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import { callCapabilities } from './call-capabilities.js';

/** Codes of errors that refuse a call before it acts: such a failure changed nothing. */
const REFUSALS: ReadonlySet<string> = new Set([
  'INVALID_TOOL_ARGS',
  'TOOL_NOT_FOUND',
  'PERMISSION_DENIED',
  'TOOL_BLOCKED',
  'BUDGET_EXHAUSTED',
  'RECURSION_LIMIT',
  'CAPABILITY_UNAVAILABLE',
]);

const delegating = new WeakSet<object>();
const unchanged = new WeakSet<object>();

/**
 * Marks an error a tool throws before it has changed anything (a refused path, checked before
 * any I/O): the kernel then records no change for the failed call, as for a permission refusal.
 * Mark only errors thrown before the first write; anything else counts as a change with unknown
 * paths. Returns `error`, so a tool can write `throw refusedBeforeChange(e)`.
 */
export function refusedBeforeChange<E extends A3sError>(error: E): E {
  unchanged.add(error);
  return error;
}

/**
 * Marks a core tool whose result carries the changes of work it delegated (a sub-agent run):
 * when such a call ends without a result, its changes are unknown (core-internal).
 */
export function markDelegatingTool<T extends Tool>(tool: T): T {
  delegating.add(tool);
  return tool;
}

/**
 * True when a call of `tool` may change the workspace: its tier says so, unless the call's own
 * capabilities (for its validated `args`, when given) say it only reads (`git status`, an `edit`
 * dry run).
 */
export function mayChange(tool: Tool, args?: unknown): boolean {
  if (!(tool.tier === 'write' || tool.tier === 'exec' || delegating.has(tool))) return false;
  return args === undefined || tool.capabilitiesFor === undefined || !callCapabilities(tool, args).readOnly;
}

/** A unique reference of one call in the log: its id and a random nonce (ids may repeat across turns). */
export function changeRef(callId: string): string {
  return `${callId}#${randomUUID()}`;
}

/**
 * True when a result that says nothing about its changes counts as a change with unknown paths:
 * a successful call of a tool that may change the workspace, or any call of an exec-tier tool
 * (a cell, a debuggee or a command may write before it fails).
 */
function unreportedIsChange(tool: Tool, result: ToolResult, args: unknown): boolean {
  return result.exitCode === 0 ? mayChange(tool, args) : tool.tier === 'exec' && mayChange(tool, args);
}

/** The changes of one call (with validated `args`) that ran to a result (after post-hooks). */
export function resultChanges(callId: string, tool: Tool, result: ToolResult, args?: unknown): ChangeRecordEntry[] {
  const m: Readonly<Record<string, unknown>> = result.metadata ?? {};
  // Nothing reported (the common case): skip the random reference unless an entry needs it.
  if (m.changes === undefined && m.changed_files === undefined && m.changed_paths === undefined)
    return unreportedIsChange(tool, result, args) ? [unknownChange(callId, tool.name, changeRef(callId))] : [];
  const ref = changeRef(callId);
  const reported = reportedChanges(result.metadata, ref);
  if (reported.kind === 'changes')
    return reported.changes.map((c) => ({ call_id: callId, tool: tool.name, path: c.path, digest: c.digest }));
  if (reported.kind === 'unknown' || unreportedIsChange(tool, result, args))
    return [unknownChange(callId, tool.name, ref)];
  return [];
}

/** The changes of a call (with validated `args`) that started running and ended without a result (a throw, a timeout, a cancellation). */
export function failedChanges(callId: string, tool: Tool, error: A3sError, args?: unknown): ChangeRecordEntry[] {
  if (REFUSALS.has(error.code) || unchanged.has(error) || !mayChange(tool, args)) return [];
  return [unknownChange(callId, tool.name, changeRef(callId))];
}

/** One nested call being tracked. */
interface Tracked {
  readonly callId: string;
  readonly tool: string;
}

/** A nested call a {@link ChangeCollector} tracks (one object a call: nesting is per-call work). */
export class TrackedCall implements Tracked {
  readonly #collector: ChangeCollector;
  readonly callId: string;
  readonly tool: string;

  constructor(collector: ChangeCollector, callId: string, tool: string) {
    this.#collector = collector;
    this.callId = callId;
    this.tool = tool;
  }

  /** Marks the call started (`may`: an unfinished call counts as a change); throws once the top-level call has ended. */
  running(may: boolean): void {
    this.#collector.startTracked(this, may);
  }

  /** The call ended with `entries` as its changes. */
  settle(entries: readonly ChangeRecordEntry[]): void {
    this.#collector.settleTracked(this, entries);
  }
}

/** The change record of one top-level call, shared by every call nested in it. */
export class ChangeCollector {
  readonly #entries: ChangeRecordEntry[] = [];
  readonly #open = new Set<Tracked>();
  #sealed = false;
  /** The interrupted attempt not recorded yet: recorded when a nested call that may change starts. */
  #interrupted: Tracked | undefined;
  /** The change recorded for the interrupted attempt, while it may still be taken back. */
  #attempt: ChangeRecordEntry | undefined;

  /**
   * Marks the top-level call as the re-run of an attempt that the process died while running (a
   * resumed run runs again the call whose result is missing): what that attempt changed is in no
   * result, so a change with unknown paths stands for it. It is recorded at once when the call's
   * tool may change the workspace (`may`), else as soon as a call nested in it that may change
   * starts (an orchestrator such as `batch` or `program` running the same nested writes again);
   * a call that can only read records nothing.
   */
  interrupted(callId: string, tool: string, may: boolean): void {
    if (this.#sealed) return;
    if (!may) this.#interrupted = { callId, tool };
    else {
      this.#attempt = interruptedChange(callId, tool, changeRef(callId));
      this.#entries.push(this.#attempt);
    }
  }

  /**
   * The re-run found everything the interrupted attempt did (a delegating tool that took up the
   * sub-agents that attempt started, whose logs hold their changes): the change with unknown
   * paths standing for that attempt is taken back.
   */
  accountInterrupted(): void {
    this.#interrupted = undefined;
    const at = this.#attempt === undefined || this.#sealed ? -1 : this.#entries.indexOf(this.#attempt);
    if (at >= 0) this.#entries.splice(at, 1);
    this.#attempt = undefined;
  }

  /**
   * Starts tracking a nested call of `tool`. `running` marks it started (`may`: whether an
   * unfinished call counts as a change); it throws `CANCELLED` once the top-level call has ended,
   * so no nested call can act outside the record.
   */
  track(callId: string, tool: string): TrackedCall {
    return new TrackedCall(this, callId, tool);
  }

  /** {@link TrackedCall.running} of `t`. */
  startTracked(t: Tracked, may: boolean): void {
    if (this.#sealed) throw new CancelledError(`nested call of '${t.tool}' (its top-level call has ended)`);
    if (!may) return;
    this.#open.add(t);
    const attempt = this.#interrupted;
    this.#interrupted = undefined;
    if (attempt) this.#entries.push(interruptedChange(attempt.callId, attempt.tool, changeRef(attempt.callId)));
  }

  /** {@link TrackedCall.settle} of `t`. */
  settleTracked(t: Tracked, entries: readonly ChangeRecordEntry[]): void {
    this.#open.delete(t);
    if (!this.#sealed) this.#entries.push(...entries);
  }

  /** Adds entries made on behalf of a call (a worker it started); ignored once sealed. */
  note(entries: readonly ChangeRecordEntry[]): void {
    if (!this.#sealed) this.#entries.push(...entries);
  }

  /** The changes recorded so far (nested calls that settled). */
  get entries(): readonly ChangeRecordEntry[] {
    return [...this.#entries];
  }

  /**
   * Ends the record when the top-level call ends: nested calls of mutating tools still running
   * count as unknown changes, and later settlements are ignored (they are covered by those).
   */
  seal(): readonly ChangeRecordEntry[] {
    if (!this.#sealed) {
      this.#sealed = true;
      for (const t of this.#open) this.#entries.push(unknownChange(t.callId, t.tool, changeRef(t.callId)));
      this.#open.clear();
    }
    return [...this.#entries];
  }
}

/**
 * Result metadata with the kernel's record in place of anything the tool put under its key. An
 * empty record is kept only where `keepEmpty` (a call of a tool whose tier may change the
 * workspace, that changed nothing: the ledger would otherwise count it as an unknown change).
 */
export function withChangeRecord(
  metadata: Readonly<Record<string, unknown>>,
  record: readonly ChangeRecordEntry[] | undefined,
  keepEmpty = false,
): Readonly<Record<string, unknown>> {
  const empty = record === undefined || record.length === 0;
  if (!(CHANGE_RECORD_KEY in metadata) && empty && !(keepEmpty && record !== undefined)) return metadata;
  const { [CHANGE_RECORD_KEY]: _forged, ...rest } = metadata;
  if (record === undefined || (empty && !keepEmpty)) return rest;
  return { ...rest, [CHANGE_RECORD_KEY]: [...record] };
}

/** The changes already recorded under the top-level call a tool context runs in (bound by the kernel). */
export { changesSoFar } from './call-context.js';
