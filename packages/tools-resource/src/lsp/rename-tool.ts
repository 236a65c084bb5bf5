/**
 * `lsp_rename` (write tier): renames the symbol at `line` + `symbol` across the project with the
 * server's rename edit, written through the workspace so the change ledger and the completion
 * gate see every file. All files or none: every file is re-read just before writing and compared
 * with the text the edit was computed from; a write that fails part-way restores what was written.
 * A rename that would edit a file the call may not read is refused before anything is read or written.
 */
import { createHash } from 'node:crypto';
import { defineTool, PermissionDeniedError, type ToolContext, type ToolResult, type Zod } from '@a3s-code/core';
import type { z } from 'zod';
import { uriOf } from './client.js';
import { hiddenRuleOf } from './hidden-files.js';
import { reservedBy } from './reserved-names.js';
import { LspError } from './lsp-errors.js';
import { LSP_RESOURCE, type LspResource } from './lsp-resource.js';
import { lspFailure, supervisorOf } from './lsp-tool.js';
import { positionOf } from './positions.js';
import { PROJECT_LOAD_CAP_MS } from './project-load.js';
import { readRegularFile } from '../shared/regular-file.js';
import type { LspWorkspaceEdit } from './protocol.js';
import { serverText, syncFile } from './session-files.js';
import { applyTextEdits, editsByFile } from './workspace-edit.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

const renameInput = (z: Zod) =>
  z.strictObject({
    file: z.string().min(1).max(4096).describe('workspace-relative file where the symbol occurs'),
    line: z.number().int().min(1).max(10_000_000).describe('1-based line of the symbol'),
    symbol: z.string().min(1).max(200).describe('the identifier as written on that line (there is no column)'),
    new_name: z.string().min(1).max(200).describe('the new name'),
  });

/** The arguments of `lsp_rename`. */
export type LspRenameArgs = z.output<ReturnType<typeof renameInput>>;

const DESCRIPTION = `Rename a symbol everywhere in the project through the language server (every reference, across files). Give file, line (1-based), symbol (the identifier as written on that line; there is no column) and new_name. Writes all files or none.`;

const digest = (text: string): string => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/**
 * What a new name may be: one identifier (letters, digits, `_`, `$`; Rust's `r#` raw and `'`
 * lifetime forms), not starting with a digit.
 */
const NEW_NAME = /^(?:r#|')?[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of a file a rename edits; a file that is not UTF-8 is refused (rewriting it would corrupt its bytes). */
async function editableText(abs: string, path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(abs);
  } catch (error) {
    throw new LspError('LSP_PATH', `the rename would edit ${path}, which cannot be read: ${(error as Error).message}`, {
      path,
    });
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new LspError(
      'LSP_PATH',
      `the rename would edit ${path}, which is not UTF-8 text, and rewriting it would corrupt its other bytes; nothing was written (allowed: files in UTF-8)`,
      { path },
    );
  }
}

/** `text` with `edits` applied to it as the server sees it (positions count from after a BOM, which is kept). */
function applyToFile(text: string, edits: Parameters<typeof applyTextEdits>[1]): string {
  const body = serverText(text);
  return text.slice(0, text.length - body.length) + applyTextEdits(body, edits);
}

interface Planned {
  readonly abs: string;
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

async function rename(args: LspRenameArgs, ctx: ToolContext): Promise<ToolResult> {
  if (!NEW_NAME.test(args.new_name))
    throw new LspError(
      'LSP_ARGS',
      `new_name ${JSON.stringify(args.new_name)} is not an identifier; allowed: one name of letters, digits, _ and $ not starting with a digit (no spaces, dots or punctuation)`,
      { new_name: args.new_name },
    );
  const language = reservedBy(args.file, args.new_name);
  if (language !== undefined)
    throw new LspError(
      'LSP_ARGS',
      `new_name ${JSON.stringify(args.new_name)} is a reserved word in ${language}; the renamed code would not parse (allowed: a name that is not a keyword)`,
      { new_name: args.new_name },
    );
  const sup = await supervisorOf(ctx);
  const f = await syncFile(sup, args.file);
  const position = positionOf(f.path, f.text, args.line, args.symbol);
  // A server still loading its project renames only the files it has found so far.
  if (!(await f.client.load.wait(ctx.signal))) {
    ctx.signal.throwIfAborted();
    throw new LspError(
      'LSP_LOADING',
      `nothing was renamed: the language server was ${f.client.load.doing} after ${PROJECT_LOAD_CAP_MS / 1000} s, and a rename now could miss references in files it has not loaded; try again`,
      { path: f.path },
    );
  }
  let answer: LspWorkspaceEdit | null;
  try {
    answer = await f.client.request<LspWorkspaceEdit | null>(
      'textDocument/rename',
      { textDocument: { uri: uriOf(f.abs) }, position, newName: args.new_name },
      ctx.signal,
    );
  } catch (error) {
    throw new LspError('LSP_SERVER', `the server refused the rename: ${(error as Error).message}`, {}, error);
  }
  const byFile = answer === null ? new Map() : editsByFile(answer);
  if (byFile.size === 0)
    throw new LspError('LSP_SERVER', `the server has no rename for '${args.symbol}' at ${f.path}:${args.line}`);
  const hidden = hiddenRuleOf(ctx, sup);
  for (const abs of [f.abs, ...byFile.keys()]) {
    const rule = await hidden(abs);
    // The refusal names the rule, not the file: the model may not learn which files it hides.
    if (rule !== undefined)
      throw new PermissionDeniedError('lsp_rename', `${rule} (the rename would edit a file this session may not read)`);
  }
  const planned: Planned[] = [];
  for (const [abs, edits] of byFile) {
    const path = sup.display(sup.absolute(abs));
    const before = await editableText(abs, path);
    planned.push({ abs, path, before, after: applyToFile(before, edits) });
  }
  const writeDenied = ctx.workspace.writeDenied;
  for (const p of planned) {
    const rule = await writeDenied?.(p.path);
    if (rule !== undefined)
      throw new PermissionDeniedError('lsp_rename', `${rule} (the rename would write ${p.path}); nothing was written`);
  }
  const stale: string[] = [];
  for (const p of planned)
    if ((await editableText(p.abs, p.path).catch(() => undefined)) !== p.before) stale.push(p.path);
  if (stale.length > 0)
    throw new LspError('LSP_STALE', `nothing was written: ${stale.join(', ')} changed while renaming; try again`, {
      stale,
    });
  const lsp = await ctx.resource<LspResource>(LSP_RESOURCE);
  const baseline = lsp.snapshots.of(ctx.callId);
  for (const p of planned) if (!sup.isOpen(p.abs)) baseline.set(p.abs, p.before);
  const fs = ctx.workspace.fs!;
  const written: Planned[] = [];
  const holds = async (p: Planned, text: string) => (await editableText(p.abs, p.path).catch(() => undefined)) === text;
  try {
    for (const p of planned) {
      // Another program may write between the check above and this file's turn: its change is kept.
      if (!(await holds(p, p.before)))
        throw new LspError(
          'LSP_STALE',
          `${p.path} changed while the rename was being written; the other change is kept`,
          {
            stale: [p.path],
          },
        );
      await fs.writeFile(p.path, p.after, { signal: ctx.signal });
      written.push(p);
    }
  } catch (error) {
    const unrestored: string[] = [];
    for (const p of written) {
      // A file changed again after the rename wrote it keeps that change.
      if (!(await holds(p, p.after))) unrestored.push(p.path);
      else await fs.writeFile(p.path, p.before).catch(() => unrestored.push(p.path));
    }
    const stale = error instanceof LspError && error.code === 'LSP_STALE';
    const what = stale
      ? (error as LspError).message
      : `writing the rename failed at ${planned[written.length]?.path ?? '?'}: ${(error as Error).message}`;
    throw new LspError(
      stale ? 'LSP_STALE' : 'LSP_WRITE_FAILED',
      `${what}; ${unrestored.length === 0 ? 'the files already written were restored' : `could not restore ${unrestored.join(', ')}`}`,
      { unrestored, ...(stale ? { stale: (error as LspError).details.stale } : {}) },
      error,
    );
  }
  // Open documents follow the new text at once; the others are opened by diagnostics on write,
  // which first shows the server their old text (recorded above) as the baseline.
  for (const p of planned) {
    const spec = sup.availability(p.abs);
    if (spec.ok && f.client.isOpen(p.abs)) f.client.sync(p.abs, spec.spec.languageId(p.abs), serverText(p.after));
  }
  const changes = planned.map((p) => ({
    path: p.path,
    action: 'modify',
    digest_before: digest(p.before),
    digest_after: digest(p.after),
    size_before: Buffer.byteLength(p.before, 'utf8'),
    size_after: Buffer.byteLength(p.after, 'utf8'),
  }));
  const edits = [...byFile.values()].reduce((n, e) => n + e.length, 0);
  // A server held apart from the files the read rules deny never saw them: say so, since a
  // reference in one of them was neither found nor renamed.
  const unseen = ctx.workspace.readDenied !== undefined && ctx.workspace.holdProcess !== undefined;
  const note = unseen
    ? "\n[files the read rules hide are out of the language server's reach: a reference in one of them was not looked for, nor renamed]"
    : '';
  return {
    output: `Renamed '${args.symbol}' to '${args.new_name}': ${edits} edit${edits === 1 ? '' : 's'} in ${planned.length} file${planned.length === 1 ? '' : 's'}: ${planned.map((p) => p.path).join(', ')}${note}`,
    exitCode: 0,
    metadata: {
      edits,
      changed_paths: planned.map((p) => p.path),
      changes,
      ...(unseen ? { hidden_files_unseen: true } : {}),
    },
  };
}

/** The `lsp_rename` tool. */
export const lspRenameTool = defineTool({
  name: 'lsp_rename',
  description: DESCRIPTION,
  input: renameInput,
  inputJsonSchema: toolJsonSchemas.lsp_rename,
  plainInput: true,
  tier: 'write',
  requires: ['fs.read', 'fs.write', 'resource.lsp'],
  capabilities: { readOnly: false, idempotent: false, cancelSafe: false, maxParallelism: 1, outputType: 'text' },
  execute: async (args, ctx) => {
    try {
      return await rename(args, ctx);
    } catch (error) {
      if (error instanceof LspError) return lspFailure(error);
      throw error;
    }
  },
});
