/**
 * The mutation ledger of a run: every change its tools reported, read from the run's
 * `tool.result` facts (so it is replayable from the log alone). The invoker records each
 * top-level call's changes, and those of every call nested in it (`batch`, `program`, `verify`,
 * delegated tasks), in `metadata.change_record`; results without one (written before the invoker
 * recorded them, or never run) are read from the tool's own report. A write- or exec-tier tool
 * that ran and reported nothing, or reported its change set as unknown, is a change with unknown
 * paths. The effect digest is SHA-256 over the sorted, distinct `tool|path|digest` lines and
 * the last digest of each path: it identifies exactly what the run changed and what it left. A change with unknown paths made on a call's behalf by
 * a child run that outlives the call (a background worker) may be resolved, by whoever knows the
 * child's outcome, into the child's own changes (`resolve`); unresolved, it stays unknown.
 */
import { sha256Hex, type Fact } from '@a3s-code/effect';
import { readChangeRecord, reportedChanges, UNKNOWN_PATH } from './change-record.js';

/** One change in the ledger. */
export interface LedgerEntry {
  readonly tool: string;
  /** Workspace path; `(unknown)` when the tool could not tell which paths it changed. */
  readonly path: string;
  /** Content digest after the change; `deleted`; `command:<ref>` (changed by a command); `unknown:<ref>`. */
  readonly digest: string;
}

/** A run's changes and their digest. */
export interface MutationLedger {
  readonly entries: readonly LedgerEntry[];
  /** Hex SHA-256 of the changes and each path's last digest ({@link effectDigest}); `null` when nothing changed. */
  readonly digest: string | null;
}

/** Tells the tier of a tool by name (`undefined` for an unknown tool). */
export type TierOf = (toolName: string) => 'read' | 'write' | 'exec' | undefined;

interface ResultPayload {
  tool_call_id: string;
  name: string;
  ok: boolean;
  metadata?: Record<string, unknown> | null;
}

function entriesOf(p: ResultPayload, seq: number, tierOf: TierOf): LedgerEntry[] {
  const recorded = readChangeRecord(p.metadata);
  if (recorded !== undefined) return recorded.map((e) => ({ tool: e.tool, path: e.path, digest: e.digest }));
  const ref = `${p.tool_call_id}@${seq}`;
  const reported = reportedChanges(p.metadata, ref);
  if (reported.kind === 'changes')
    return reported.changes.map((c) => ({ tool: p.name, path: c.path, digest: c.digest }));
  const tier = tierOf(p.name);
  // A tool that may change the workspace but cannot say what it changed is an unknown change.
  const unknown = reported.kind === 'unknown' || (p.ok && (tier === 'write' || tier === 'exec'));
  return unknown ? [{ tool: p.name, path: UNKNOWN_PATH, digest: `unknown:${ref}` }] : [];
}

/**
 * What became of a change with unknown paths, by its digest: the changes it stands for, or
 * `undefined` while they are not known (the entry then stays as it is).
 */
export type ResolveUnknown = (digest: string) => readonly LedgerEntry[] | undefined;

/** The ledger of the facts from index `from` on (a run's facts), unknown changes resolved by `resolve`. */
export function ledgerOf(
  facts: readonly Fact[],
  from: number,
  tierOf: TierOf,
  resolve?: ResolveUnknown,
): MutationLedger {
  const entries: LedgerEntry[] = [];
  for (let i = Math.max(0, from); i < facts.length; i++) {
    const f = facts[i]!;
    if (f.type !== 'tool.result') continue;
    for (const e of entriesOf(f.payload as ResultPayload, f.seq, tierOf))
      entries.push(...((e.path === UNKNOWN_PATH ? resolve?.(e.digest) : undefined) ?? [e]));
  }
  return { entries, digest: effectDigest(entries) };
}

/** True when the log records the end of run `runId` after index `from`. */
export function runEnded(facts: readonly Fact[], from: number, runId: string): boolean {
  for (let i = Math.max(0, from); i < facts.length; i++) {
    const f = facts[i]!;
    if (f.type === 'run.ended' && (f.payload as { run_id?: unknown }).run_id === runId) return true;
  }
  return false;
}

/**
 * SHA-256 over the sorted, distinct `tool|path|digest` lines and, for each path, the digest of
 * its last change (`=path|digest`), or `null` for no entries. The set alone would not tell a
 * path written back to an earlier content after a verification (`v1`, `v2`, verify, `v1`) from
 * the verified state; the last digest of each path does.
 */
export function effectDigest(entries: readonly LedgerEntry[]): string | null {
  if (entries.length === 0) return null;
  const last = new Map<string, string>();
  for (const e of entries) last.set(e.path, e.digest);
  const lines = [
    ...new Set(entries.map((e) => `${e.tool}|${e.path}|${e.digest}`)),
    ...[...last].map(([path, digest]) => `=${path}|${digest}`),
  ].sort();
  return sha256Hex(lines.join('\n'));
}

/** Index of the first fact of the run `runId` (its `run.started`), or -1. */
export function runStartIndex(facts: readonly Fact[], runId: string): number {
  for (let i = facts.length - 1; i >= 0; i--) {
    const f = facts[i]!;
    if (f.type === 'run.started' && (f.payload as { run_id?: unknown }).run_id === runId) return i;
  }
  return -1;
}
