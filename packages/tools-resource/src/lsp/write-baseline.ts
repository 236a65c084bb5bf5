/**
 * What a file's diagnostics were before a write, for a file its server had not opened yet.
 * Before the call runs, the middleware reads the old text of each file the call is about to write
 * (as far as its arguments tell: `file_path` of `write` and `edit`, the file headers of a patch,
 * the files of the staged edit `resolve` accepts; `lsp_rename` records its own), when a server
 * serves it and has not opened it. After the write the file is opened with that old text first,
 * so the errors it already had are the baseline and only what the write introduced is new.
 */
import { readRegularFile } from '../shared/regular-file.js';
import { serverText } from './session-files.js';
import type { ToolContext } from '@a3s-code/core';
import type { LspSupervisor } from './supervisor.js';

/** Old texts by absolute path; `null`: the file did not exist. */
export type WriteSnapshot = Map<string, string | null>;

const MAX_FILES = 20;
const MAX_BYTES = 2 * 1024 * 1024;
const KEEP_CALLS = 16;

/** Snapshots that a tool recorded for its own call (`lsp_rename`), handed to the middleware by call id. */
export class WriteSnapshots {
  readonly #calls = new Map<string, WriteSnapshot>();

  /** The snapshot of call `callId` (created empty). */
  of(callId: string): WriteSnapshot {
    let s = this.#calls.get(callId);
    if (s === undefined) {
      s = new Map();
      this.#calls.set(callId, s);
      if (this.#calls.size > KEEP_CALLS) this.#calls.delete(this.#calls.keys().next().value!);
    }
    return s;
  }

  /** Removes and returns the snapshot of call `callId`. */
  take(callId: string): WriteSnapshot | undefined {
    const s = this.#calls.get(callId);
    this.#calls.delete(callId);
    return s;
  }
}

/** The workspace paths named in a unified diff (`--- a/x`, `+++ b/x`) or an `*** Update File: x` patch. */
export function patchPaths(patch: string): string[] {
  const out = new Set<string>();
  for (const line of patch.split('\n')) {
    const unified = /^(?:---|\+\+\+) ([^\t\r]+)/.exec(line);
    const block = /^\*\*\* (?:Update|Add|Delete) File: (.+?)\r?$/.exec(line);
    let p = (unified?.[1] ?? block?.[1])?.trim();
    if (p === undefined || p === '/dev/null' || p === '') continue;
    if (unified !== null && /^[ab]\//.test(p)) p = p.slice(2);
    out.add(p);
  }
  return [...out];
}

interface StagedEdits {
  readonly edits: { peek(id: string): { readonly files: readonly { readonly path: string }[] } | undefined };
}

/** The paths a call of `tool` with `args` is about to write, as far as its arguments tell. */
export async function plannedPaths(tool: string, args: unknown, ctx: ToolContext): Promise<string[]> {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (tool === 'write' || tool === 'edit') return typeof a.file_path === 'string' ? [a.file_path] : [];
  if (tool === 'patch' || tool === 'apply_patch') {
    const text = typeof a.patch === 'string' ? a.patch : typeof a.input === 'string' ? a.input : '';
    return a.dry_run === true ? [] : patchPaths(text);
  }
  if (tool === 'resolve' && a.action === 'accept' && typeof a.edit_id === 'string') {
    try {
      const ast = await ctx.resource<StagedEdits & { close(): Promise<void> }>('resource.ast');
      return ast.edits.peek(a.edit_id)?.files.map((f) => f.path) ?? [];
    } catch {
      return [];
    }
  }
  return [];
}

/** The old text of a file, `null` when it does not exist, undefined when it is too large or unreadable. */
export async function oldText(abs: string): Promise<string | null | undefined> {
  try {
    return serverText((await readRegularFile(abs, MAX_BYTES)).toString('utf8'));
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? null : undefined;
  }
}

/** Reads the old text of each of `paths` (those a call will write) that a server serves and has not opened. */
export async function snapshotBefore(paths: readonly string[], sup: LspSupervisor): Promise<WriteSnapshot> {
  const snapshot: WriteSnapshot = new Map();
  for (const path of paths.slice(0, MAX_FILES)) {
    const abs = sup.tryAbsolute(path);
    if (abs === undefined || snapshot.has(abs) || !sup.availability(abs).ok || sup.isOpen(abs)) continue;
    const text = await oldText(abs);
    if (text !== undefined) snapshot.set(abs, text);
  }
  return snapshot;
}
