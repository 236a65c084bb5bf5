/** Applying an LSP `WorkspaceEdit` to file texts (in memory). */
import { fileURLToPath } from 'node:url';
import { LspError } from './lsp-errors.js';
import type { LspPosition, LspTextEdit, LspWorkspaceEdit } from './protocol.js';

/** The text edits of a workspace edit, by absolute path. Resource operations (create/rename/delete) are refused. */
export function editsByFile(edit: LspWorkspaceEdit): Map<string, LspTextEdit[]> {
  const out = new Map<string, LspTextEdit[]>();
  const add = (uri: string, edits: readonly LspTextEdit[]): void => {
    if (!uri.startsWith('file:')) throw new LspError('LSP_SERVER', `the server's edit touches a non-file URI ${uri}`);
    const abs = fileURLToPath(uri);
    out.set(abs, [...(out.get(abs) ?? []), ...edits]);
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const change of edit.documentChanges ?? []) {
    if ('kind' in change)
      throw new LspError('LSP_SERVER', `the server's edit would ${change.kind} a file; lsp_rename only edits text`);
    add(change.textDocument.uri, change.edits);
  }
  return out;
}

function offsetOf(text: string, starts: readonly number[], p: LspPosition): number {
  const lineStart = starts[p.line];
  if (lineStart === undefined) return text.length;
  return Math.min(lineStart + p.character, starts[p.line + 1] ?? text.length);
}

/** `text` with the edits applied (edits must not overlap). */
export function applyTextEdits(text: string, edits: readonly LspTextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const spans = edits
    .map((e) => ({
      from: offsetOf(text, starts, e.range.start),
      to: offsetOf(text, starts, e.range.end),
      text: e.newText,
    }))
    .sort((a, b) => b.from - a.from || b.to - a.to);
  let out = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const s of spans) {
    if (s.to > limit) throw new LspError('LSP_SERVER', "the server's edits overlap");
    out = out.slice(0, s.from) + s.text + out.slice(s.to);
    limit = s.from;
  }
  return out;
}
