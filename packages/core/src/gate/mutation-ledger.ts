/**
 * The mutation ledger of a run: every change its tools reported, read from the run's
 * `tool.result` facts (so it is replayable from the log alone). Write-tier tools report
 * `metadata.changes` (path + content digest after the change); command tools report
 * `metadata.changed_files` / `changed_paths`; a write- or exec-tier tool that reports nothing
 * counts as an unknown change. The effect digest is SHA-256 over the sorted, distinct
 * `tool|path|digest` lines: it identifies exactly what the run changed.
 */
import { sha256Hex, type Fact } from '@a3s-code/effect';

/** One change in the ledger. */
export interface LedgerEntry {
  readonly tool: string;
  readonly path: string;
  /** Content digest after the change; `deleted`; `command` (changed by a command); `unreported:<call id>`. */
  readonly digest: string;
}

/** A run's changes and their digest. */
export interface MutationLedger {
  readonly entries: readonly LedgerEntry[];
  /** Hex SHA-256 of the sorted, distinct `tool|path|digest` lines; `null` when nothing changed. */
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

function entriesOf(p: ResultPayload, tierOf: TierOf): LedgerEntry[] {
  const m = p.metadata ?? {};
  const out: LedgerEntry[] = [];
  const changes = m['changes'];
  if (Array.isArray(changes)) {
    for (const c of changes as { path?: unknown; digest_after?: unknown; action?: unknown }[]) {
      if (typeof c?.path !== 'string') continue;
      const digest = c.action === 'delete' || c.digest_after === null ? 'deleted' : typeof c.digest_after === 'string' ? c.digest_after : 'unknown';
      out.push({ tool: p.name, path: c.path, digest });
    }
    return out;
  }
  const files = m['changed_files'] as { created?: unknown; modified?: unknown; deleted?: unknown } | null | undefined;
  const paths = m['changed_paths'];
  if (files && typeof files === 'object') {
    for (const key of ['created', 'modified'] as const) for (const f of asStrings(files[key])) out.push({ tool: p.name, path: f, digest: 'command' });
    for (const f of asStrings(files.deleted)) out.push({ tool: p.name, path: f, digest: 'deleted' });
    return out;
  }
  if (Array.isArray(paths)) return asStrings(paths).map((f) => ({ tool: p.name, path: f, digest: 'command' }));
  const tier = tierOf(p.name);
  // A tool that may change the workspace but says nothing about it is an unknown change.
  if (p.ok && (tier === 'write' || tier === 'exec') && paths !== null && files !== null) {
    out.push({ tool: p.name, path: '(unreported)', digest: `unreported:${p.tool_call_id}` });
  }
  return out;
}

function asStrings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The ledger of the facts from index `from` on (a run's facts). */
export function ledgerOf(facts: readonly Fact[], from: number, tierOf: TierOf): MutationLedger {
  const entries: LedgerEntry[] = [];
  for (let i = Math.max(0, from); i < facts.length; i++) {
    const f = facts[i]!;
    if (f.type === 'tool.result') entries.push(...entriesOf(f.payload as ResultPayload, tierOf));
  }
  return { entries, digest: effectDigest(entries) };
}

/** SHA-256 over the sorted, distinct `tool|path|digest` lines, or `null` for no entries. */
export function effectDigest(entries: readonly LedgerEntry[]): string | null {
  if (entries.length === 0) return null;
  const lines = [...new Set(entries.map((e) => `${e.tool}|${e.path}|${e.digest}`))].sort();
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
