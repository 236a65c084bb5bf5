/**
 * Diagnostics on write: middleware on `write`, `edit`, `patch` and `resolve`. After a successful
 * write, each changed file a server can serve is synced (`didOpen`/`didChange`, `didSave`), its
 * diagnostics are asked for (TypeScript) or awaited until the published ones settle (quiet for
 * 150 ms, at most 3 s; 15 s for a file the server had not opened yet), and the errors and
 * warnings the write introduced and the run has not seen yet are appended to the tool's result.
 * A file no server can serve costs nothing beyond a few cached checks; no server starts for it.
 */
import type { ToolContext, ToolMiddleware, ToolResult } from '@a3s-code/core';
import { diagnosticRecords, formatDiagnostic } from './format.js';
import { ledgerKey } from './ledger.js';
import { LSP_RESOURCE, type LspResource } from './lsp-resource.js';
import type { LspDiagnostic } from './protocol.js';
import { settleAfterSync, syncFile } from './session-files.js';
import type { LspSupervisor } from './supervisor.js';

/** The tools diagnostics-on-write wraps. */
export const DIAGNOSTICS_ON_WRITE_TOOLS: readonly string[] = [
  'write',
  'edit',
  'patch',
  'apply_patch',
  'resolve',
  'lsp_rename',
];

const MAX_FILES = 20;
const MAX_SHOWN = 30;
/** The first write of a file may wait longer: the server may still be loading the project. */
const COLD_CAP_MS = 15_000;

function changedPaths(result: ToolResult): string[] {
  const changes = (result.metadata as { changes?: unknown } | undefined)?.changes;
  if (!Array.isArray(changes)) return [];
  return changes
    .filter((c): c is { path: string; action?: string } => typeof c?.path === 'string' && c.action !== 'delete')
    .map((c) => c.path);
}

const important = (d: LspDiagnostic): boolean => (d.severity ?? 1) <= 2;

async function newDiagnostics(
  sup: LspSupervisor,
  lsp: LspResource,
  ctx: ToolContext,
  path: string,
): Promise<{ path: string; fresh: LspDiagnostic[]; settled: boolean } | undefined> {
  let abs: string;
  try {
    abs = sup.absolute(path);
  } catch {
    return undefined;
  }
  if (!sup.availability(abs).ok) return undefined;
  const { client } = await sup.clientFor(abs);
  const wasOpen = client.isOpen(abs);
  const baseline = new Set(wasOpen ? client.lastDiagnostics(abs).map(ledgerKey) : []);
  const before = client.publications(abs);
  const f = await syncFile(sup, path);
  f.client.save(f.abs, f.text);
  const { diagnostics, settled } = await settleAfterSync(f, before, ctx.signal, wasOpen ? undefined : COLD_CAP_MS);
  const introduced = diagnostics.filter((d) => important(d) && !baseline.has(ledgerKey(d)));
  return { path: f.path, fresh: lsp.ledger.fresh(ctx.runId, introduced), settled };
}

/** Appends the new diagnostics of the written files to a successful result. */
async function withDiagnostics(result: ToolResult, ctx: ToolContext): Promise<ToolResult> {
  if (result.exitCode !== 0) return result;
  const paths = changedPaths(result).slice(0, MAX_FILES);
  if (paths.length === 0) return result;
  let lsp: LspResource;
  try {
    lsp = await ctx.resource<LspResource>(LSP_RESOURCE);
  } catch {
    return result;
  }
  const sup = lsp.supervisor(ctx.workspace.root);
  if ('unavailable' in sup) return result;
  const found: { path: string; fresh: LspDiagnostic[]; settled: boolean }[] = [];
  for (const path of paths) {
    try {
      const r = await newDiagnostics(sup, lsp, ctx, path);
      if (r !== undefined) found.push(r);
    } catch {
      // A server failure never fails the write; `lsp status` tells why.
    }
  }
  if (found.length === 0) return result;
  const fresh = found.flatMap((r) => r.fresh.map((d) => ({ path: r.path, d })));
  const records = found.flatMap((r) => diagnosticRecords(r.path, r.fresh));
  const unsettled = found.filter((r) => !r.settled).map((r) => r.path);
  const meta = { checked: found.map((r) => r.path), new: records, ...(unsettled.length ? { unsettled } : {}) };
  const metadata = { ...(result.metadata ?? {}), diagnostics: meta };
  if (fresh.length === 0) return { ...result, metadata };
  const lines = fresh.slice(0, MAX_SHOWN).map(({ path, d }) => formatDiagnostic(path, d));
  const more = fresh.length > MAX_SHOWN ? [`… and ${fresh.length - MAX_SHOWN} more`] : [];
  const text = `\n\nNew diagnostics after this write (${fresh.length}):\n${[...lines, ...more].join('\n')}`;
  return { ...result, output: `${result.output}${text}`, metadata };
}

/** The diagnostics-on-write middleware of the lsp pack. */
export const diagnosticsOnWrite: ToolMiddleware = {
  name: 'lsp-diagnostics-on-write',
  tools: DIAGNOSTICS_ON_WRITE_TOOLS,
  requires: [LSP_RESOURCE],
  wrap: async (call, next) => withDiagnostics(await next(call.args), call.ctx),
};
