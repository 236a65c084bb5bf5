/**
 * Diagnostics on write: middleware on `write`, `edit`, `patch` and `resolve`. After a successful
 * write, each changed file a server can serve is synced (`didOpen`/`didChange`, `didSave`), its
 * diagnostics are asked for (TypeScript) or awaited until the published ones settle (quiet for
 * 150 ms, at most 3 s; 15 s for a file the server had not opened yet), and the errors and
 * warnings the write introduced and the run has not seen yet are appended to the tool's result.
 * What the write introduced is measured against the file's diagnostics before the write: those
 * the server last gave for an open file, or, for a file it had not opened, those of the old text
 * read before the call ran (see `write-baseline.ts`), counted per message (see `introduced.ts`).
 * A file no server can serve costs nothing beyond a few cached checks; no server starts for it.
 * Under read deny rules the server runs with the hidden files out of its reach (see
 * `server-hold.ts`), a written file the rules hide gets no diagnostics, and messages that could
 * quote a hidden file are withheld (see `exposure.ts`), as are those that could quote a file
 * outside the workspace, for every server (see `outside-text.ts`). Where the project reads a file
 * outside the workspace, or the server could not be kept from the hidden files its project reads,
 * whether the write introduced problems (but for syntax errors) is not shown at all: those files
 * could decide it (see `blindExposure`).
 */
import type { ToolContext, ToolMiddleware, ToolResult } from '@a3s-code/core';
import { type Blind, blindExposure, projectExposure } from './exposure.js';
import { diagnosticRecords, formatDiagnostic } from './format.js';
import { type HiddenRule, hiddenRuleOf } from './hidden-files.js';
import { introducedDiagnostics } from './introduced.js';
import { LSP_RESOURCE, type LspResource } from './lsp-resource.js';
import { shownDiagnostics } from './outside-text.js';
import type { LspDiagnostic } from './protocol.js';
import { settleAfterSync, syncFile } from './session-files.js';
import type { LspSupervisor } from './supervisor.js';
import { callHoldOf } from './server-hold.js';
import { blindNote, withheldNote } from './withheld.js';
import { warmedFile } from './warm-on-read.js';
import { plannedPaths, snapshotBefore, type WriteSnapshot } from './write-baseline.js';

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

/** The new diagnostics of one written file; `withheld` tells why their messages are withheld. */
interface Found {
  readonly path: string;
  readonly fresh: LspDiagnostic[];
  readonly settled: boolean;
  readonly withheld?: string;
  /** Why none of the file's diagnostics but its syntax errors are shown (see `blindExposure`). */
  readonly blind?: Blind;
}

async function newDiagnostics(
  sup: LspSupervisor,
  lsp: LspResource,
  ctx: ToolContext,
  path: string,
  snapshot: WriteSnapshot,
  hidden: HiddenRule,
): Promise<Found | undefined> {
  const abs = sup.tryAbsolute(path);
  // A file the call may not read gets no diagnostics: they quote it.
  if (abs === undefined || !sup.availability(abs).ok || (await hidden(abs)) !== undefined) return undefined;
  await warmedFile(lsp, abs);
  const { client, spec, root } = await sup.clientFor(abs);
  const wasOpen = client.isOpen(abs);
  let baseline: readonly LspDiagnostic[];
  const old = wasOpen ? undefined : snapshot.get(abs);
  // The text the baseline is of, to tell where its lines moved (see `introduced.ts`).
  const oldText = wasOpen ? client.textOf(abs) : typeof old === 'string' ? old : undefined;
  if (wasOpen) baseline = client.lastDiagnostics(abs);
  else if (typeof old === 'string') {
    // The server never saw this file: open it with its old text first; its errors are the baseline.
    const at = client.publications(abs);
    client.sync(abs, spec.languageId(abs), old, false);
    const was = { abs, path: sup.display(abs), text: old, client, spec, root, sent: true };
    baseline = (await settleAfterSync(was, at, ctx.signal, COLD_CAP_MS)).diagnostics;
  } else baseline = [];
  const before = client.publications(abs);
  const f = await syncFile(sup, path);
  f.client.save(f.abs, f.text);
  const cold = !wasOpen && typeof old !== 'string';
  const { diagnostics, settled } = await settleAfterSync(f, before, ctx.signal, cold ? COLD_CAP_MS : undefined);
  if (f.client.exited) throw new Error(`the ${spec.id} server exited while it checked the file`);
  const texts = oldText === undefined ? undefined : { before: oldText, after: f.text };
  let introduced = introducedDiagnostics(baseline.filter(important), diagnostics.filter(important), texts);
  // A project reading a file outside the workspace, or a server that read the hidden files: asked
  // whether or not anything was introduced, so that the answer does not tell either.
  const blind = await blindExposure(f, sup.workspaceRoot, hidden, ctx.signal);
  if (blind !== undefined) introduced = introduced.filter((d) => d.syntactic === true);
  const fresh = lsp.ledger.fresh(ctx.runId, introduced);
  if (blind !== undefined) return { path: f.path, fresh, settled, blind };
  const exposure = fresh.length === 0 ? undefined : await projectExposure(f, sup.workspaceRoot, hidden, ctx.signal);
  const shown = shownDiagnostics(fresh, f.abs, sup.workspaceRoot, exposure);
  return shown.withheld === undefined
    ? { path: f.path, fresh: shown.list, settled }
    : { path: f.path, fresh: shown.list, settled, withheld: shown.withheld };
}

/** The lsp resource and the supervisor of the call's workspace, or undefined when there is none. */
async function supervisorFor(ctx: ToolContext): Promise<{ lsp: LspResource; sup: LspSupervisor } | undefined> {
  try {
    const lsp = await ctx.resource<LspResource>(LSP_RESOURCE);
    const sup = lsp.supervisor(ctx.workspace.root);
    return 'unavailable' in sup ? undefined : { lsp, sup: sup.forCall(callHoldOf(ctx)) };
  } catch {
    return undefined;
  }
}

/** The old texts of the files the call will write (see `write-baseline.ts`); never fails the call. */
async function before(tool: string, args: unknown, ctx: ToolContext): Promise<WriteSnapshot> {
  const at = await supervisorFor(ctx);
  if (at === undefined) return new Map();
  try {
    const paths = await plannedPaths(tool, args, ctx);
    // A file the server is still opening after a read: the warm takes its text before this write.
    for (const path of paths) {
      const abs = at.sup.tryAbsolute(path);
      if (abs !== undefined) await warmedFile(at.lsp, abs);
    }
    return await snapshotBefore(paths, at.sup);
  } catch {
    return new Map();
  }
}

/** Appends the new diagnostics of the written files to a successful result. */
async function withDiagnostics(result: ToolResult, ctx: ToolContext, snapshot: WriteSnapshot): Promise<ToolResult> {
  if (result.exitCode !== 0) return result;
  const paths = changedPaths(result).slice(0, MAX_FILES);
  if (paths.length === 0) return result;
  const at = await supervisorFor(ctx);
  if (at === undefined) return result;
  const { lsp, sup } = at;
  for (const [abs, text] of lsp.snapshots.take(ctx.callId) ?? []) if (!snapshot.has(abs)) snapshot.set(abs, text);
  const found: Found[] = [];
  // A server failure never fails the write, but the result says the file was not checked, so
  // that no diagnostics is not read as a clean write.
  const failed: { readonly path: string; readonly why: string }[] = [];
  const hidden = hiddenRuleOf(ctx, sup);
  for (const path of paths) {
    try {
      const r = await newDiagnostics(sup, lsp, ctx, path, snapshot, hidden);
      if (r !== undefined) found.push(r);
    } catch (e) {
      if (ctx.signal.aborted) continue;
      const why = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);
      failed.push({ path, why });
    }
  }
  if (found.length === 0 && failed.length === 0) return result;
  const unsettled = found.filter((r) => !r.settled && r.blind === undefined).map((r) => r.path);
  const blind = found.flatMap((r) => (r.blind === undefined ? [] : [{ path: r.path, ...r.blind }]));
  const notChecked = [
    ...blind.map((b) => blindNote(b.path, b.why, b.outside)),
    ...failed.map((f) => `Diagnostics not checked for ${f.path}: ${f.why} (lsp status tells more).`),
    // A server that stays silent is not a clean write: the model reads only this text.
    ...unsettled.map(
      (path) =>
        `Diagnostics incomplete for ${path}: the language server had not finished reporting when the wait ended, so problems this write introduced may be missing (lsp with operation 'diagnostics' checks it again).`,
    ),
  ];
  const fresh = found.flatMap((r) => r.fresh.map((d) => ({ path: r.path, d })));
  const records = found.flatMap((r) => diagnosticRecords(r.path, r.fresh));
  const withheld = [...new Set(found.flatMap((r) => (r.withheld === undefined ? [] : [r.withheld])))];
  const meta = {
    checked: found.map((r) => r.path),
    new: records,
    ...(unsettled.length ? { unsettled } : {}),
    ...(withheld.length ? { withheld } : {}),
    ...(blind.length ? { not_shown: blind.map((b) => ({ path: b.path, why: b.why })) } : {}),
    ...(failed.length ? { failed } : {}),
  };
  const metadata = { ...(result.metadata ?? {}), diagnostics: meta };
  const note = notChecked.length === 0 ? '' : `\n\n${notChecked.join('\n')}`;
  if (fresh.length === 0) return { ...result, output: `${result.output}${note}`, metadata };
  const lines = fresh.slice(0, MAX_SHOWN).map(({ path, d }) => formatDiagnostic(path, d));
  const more = fresh.length > MAX_SHOWN ? [`… and ${fresh.length - MAX_SHOWN} more`] : [];
  more.push(...withheld.map((why) => withheldNote(why)));
  const text = `\n\nNew diagnostics after this write (${fresh.length}):\n${[...lines, ...more].join('\n')}`;
  return { ...result, output: `${result.output}${text}${note}`, metadata };
}

/** The diagnostics-on-write middleware of the lsp pack. */
export const diagnosticsOnWrite: ToolMiddleware = {
  name: 'lsp-diagnostics-on-write',
  tools: DIAGNOSTICS_ON_WRITE_TOOLS,
  requires: [LSP_RESOURCE],
  wrap: async (call, next) => {
    const snapshot = await before(call.tool.name, call.args, call.ctx);
    return withDiagnostics(await next(call.args), call.ctx, snapshot);
  },
};
