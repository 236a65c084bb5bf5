/**
 * The calls of a child run that started but whose result never reached the child's log: the run
 * was stopped, or threw, while one ran (or just after it ended, before its result was recorded).
 * What such a call changed is in no `tool.result`, so the child's ledger cannot see it. The
 * invoker's own events tell which calls started (`tool_start`) and how each ended (`tool_end`,
 * whose metadata carries the kernel's change record): a call that ended reports the changes the
 * kernel recorded for it; one still running counts as a change with unknown paths when its tool
 * may change the workspace. A call the model only asked for, which never started, is no change.
 */
import { randomUUID } from 'node:crypto';
import type { Fact } from '@a3s-code/effect';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import { CHANGE_RECORD_KEY, readChangeRecord, UNKNOWN_PATH } from '../gate/change-record.js';
import { runStartIndex, type TierOf } from '../gate/mutation-ledger.js';

/** One change as a task's outcome reports it. */
export interface ReportedChange {
  readonly path: string;
  readonly digest_after: string | null;
  readonly action?: 'delete';
}

interface Watched {
  readonly id: string;
  readonly name: string;
  readonly depth: number;
  /**
   * Set once its `tool_end` arrived: the changes the kernel recorded; `unknown` when the event,
   * cut short, shows a record it could not carry whole; `cut` when it shows none (the tool decides).
   */
  ended?: readonly ReportedChange[] | 'unknown' | 'cut';
}

/** Key prefix of the facts of the `tool` transition (`tool:<turn>:<cycle>:<call_id>`). */
const TOOL_CAUSE = 'tool:';

function changeOf(e: { readonly path: string; readonly digest: string }): ReportedChange {
  return e.digest === 'deleted'
    ? { path: e.path, digest_after: null, action: 'delete' }
    : { path: e.path, digest_after: e.digest };
}

/** The changes a `tool_end` payload's metadata records (see {@link Watched.ended}). */
function endedChanges(payload: { metadata?: unknown; metadata_truncated?: unknown }): Watched['ended'] {
  const metadata =
    typeof payload.metadata === 'object' && payload.metadata !== null
      ? (payload.metadata as Record<string, unknown>)
      : undefined;
  if (payload.metadata_truncated !== true) return (readChangeRecord(metadata) ?? []).map(changeOf);
  return JSON.stringify(metadata ?? null).includes(`"${CHANGE_RECORD_KEY}`) ? 'unknown' : 'cut';
}

/** Watches the calls of one child run through its events; tells which of them no result records. */
export class CallWatch {
  readonly #calls: Watched[] = [];

  /** Takes one event of the child's run (call it for every event, in order). */
  observe(ev: EventEnvelopeV1): void {
    if (ev.type !== 'tool_start' && ev.type !== 'tool_end') return;
    const p = ev.payload as {
      id?: unknown;
      name?: unknown;
      depth?: unknown;
      metadata?: unknown;
      metadata_truncated?: unknown;
    };
    if (typeof p.id !== 'string') return;
    if (ev.type === 'tool_start') {
      const depth = typeof p.depth === 'number' ? p.depth : 0;
      this.#calls.push({ id: p.id, name: typeof p.name === 'string' ? p.name : '', depth });
      return;
    }
    // The latest call of that id still open: a nested call ends before the call it runs in.
    for (let i = this.#calls.length - 1; i >= 0; i--) {
      const c = this.#calls[i]!;
      if (c.id !== p.id || c.ended !== undefined) continue;
      c.ended = endedChanges(p);
      return;
    }
  }

  /**
   * The changes of the top-level calls of run `runId` that started but have no `tool.result` in
   * `facts`: the changes the kernel recorded for a call that ended, else (still running) a change
   * with unknown paths when its tool may change the workspace (`tierOf` not `read`) or the kernel
   * recorded a change it could not report whole.
   */
  unrecorded(facts: readonly Fact[], runId: string, tierOf: TierOf, thread: string): ReportedChange[] {
    const start = runStartIndex(facts, runId);
    if (start < 0) return [];
    const recorded = new Map<string, number>();
    for (let i = start; i < facts.length; i++) {
      const f = facts[i]!;
      if (f.type !== 'tool.result' || !f.cause?.startsWith(TOOL_CAUSE)) continue;
      const id = (f.payload as { tool_call_id?: unknown }).tool_call_id;
      if (typeof id === 'string') recorded.set(id, (recorded.get(id) ?? 0) + 1);
    }
    const out: ReportedChange[] = [];
    for (const c of this.#calls) {
      if (c.depth !== 0) continue;
      const n = recorded.get(c.id) ?? 0;
      if (n > 0) {
        recorded.set(c.id, n - 1);
        continue;
      }
      if (Array.isArray(c.ended)) out.push(...c.ended);
      else if (c.ended === 'unknown' || tierOf(c.name) !== 'read')
        out.push({ path: UNKNOWN_PATH, digest_after: `unknown:${thread}:${c.id}#${randomUUID()}` });
    }
    return out;
  }
}
