/**
 * `resolve`: accepts or discards an edit staged by `ast_edit`. Accepting re-reads every file and
 * compares it with the hash taken at staging; any difference rejects the whole edit and writes
 * nothing (`AST_EDIT_STALE`). Otherwise every file is written through the workspace and the
 * result reports the changes (path and content digest) so the change ledger and the completion
 * gate see them. A write that fails part-way restores the files already written.
 */
import { defineTool, type ToolContext, type ToolResult, type Zod } from '@a3s-code/core';
import type { z } from 'zod';
import { AstError } from './ast-errors.js';
import { digestOf, isProtectedPath, refuseDeniedWrites } from './ast-files.js';
import { AST_RESOURCE, type AstResource } from './ast-resource.js';
import type { StagedEdit } from './edit-store.js';
import { astGuard, count } from './tool-results.js';
import { unifiedDiff } from './unified-diff.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

const resolveInput = (z: Zod) =>
  z.strictObject({
    edit_id: z.string().min(1).max(64).describe('the edit_id of an ast_edit (proposed) result, e.g. "edit_1"'),
    action: z.enum(['accept', 'discard']).describe('accept: write every file of the edit; discard: drop it'),
  });

/** The arguments of `resolve`. */
export type ResolveArgs = z.output<ReturnType<typeof resolveInput>>;

const DESCRIPTION = `Commit or drop an edit staged by ast_edit. action "accept" writes every file of the edit at once, but only if none changed since the edit was staged; if any did, nothing is written (AST_EDIT_STALE naming the files) and the edit is dropped: run ast_edit again. action "discard" drops it. An edit_id can be resolved once.`;

function lineCount(text: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) additions++;
    else if (line.startsWith('-') && !line.startsWith('---')) deletions++;
  }
  return { additions, deletions };
}

async function staleFiles(ctx: ToolContext, edit: StagedEdit): Promise<string[]> {
  const fs = ctx.workspace.fs!;
  const stale: string[] = [];
  for (const f of edit.files) {
    const now = await fs.readFile(f.path, { signal: ctx.signal }).then(digestOf, () => 'missing');
    if (now !== f.digest) stale.push(f.path);
  }
  return stale;
}

/** The digest of `path` now (`missing` when it cannot be read). */
const digestNow = (ctx: ToolContext, path: string): Promise<string> =>
  ctx.workspace.fs!.readFile(path, { signal: ctx.signal }).then(digestOf, () => 'missing');

/**
 * Writes every file, each only if it still holds what the edit was made from (another program may
 * write between the first check and this file's turn). On a failure or such a change, restores
 * the files already written that still hold what this edit wrote, and throws.
 */
async function writeAll(ctx: ToolContext, edit: StagedEdit): Promise<void> {
  const fs = ctx.workspace.fs!;
  const written: (typeof edit.files)[number][] = [];
  try {
    for (const f of edit.files) {
      if ((await digestNow(ctx, f.path)) !== f.digest)
        throw new AstError(
          'AST_EDIT_STALE',
          `${f.path} changed while ${edit.id} was being written; the other change is kept`,
          { edit_id: edit.id, stale: [f.path] },
        );
      await fs.writeFile(f.path, f.after, { signal: ctx.signal });
      written.push(f);
    }
  } catch (error) {
    const unrestored: string[] = [];
    const after = (f: (typeof edit.files)[number]) => digestOf(f.after);
    for (const f of written) {
      // A file someone changed again after this edit wrote it keeps that change.
      if ((await digestNow(ctx, f.path)) !== after(f)) {
        unrestored.push(f.path);
        continue;
      }
      await fs.writeFile(f.path, f.before).catch(() => unrestored.push(f.path));
    }
    const stale = error instanceof AstError && error.code === 'AST_EDIT_STALE';
    throw new AstError(
      stale ? 'AST_EDIT_STALE' : 'AST_WRITE_FAILED',
      `${stale ? (error as AstError).message : `writing ${edit.id} failed at ${edit.files[written.length]?.path ?? '?'}: ${error instanceof Error ? error.message : String(error)}`}; ${unrestored.length === 0 ? 'the files already written were restored' : `could not restore ${unrestored.join(', ')}`}`,
      { edit_id: edit.id, unrestored, ...(stale ? { stale: (error as AstError).details.stale } : {}) },
      error,
    );
  }
}

async function accept(ctx: ToolContext, ast: AstResource, id: string): Promise<ToolResult> {
  const edit = ast.edits.take(id, 'accepted');
  for (const f of edit.files)
    if (isProtectedPath(f.path))
      throw new AstError('AST_PATH', `${f.path} is inside a folder tools may not write`, { path: f.path });
  try {
    await refuseDeniedWrites(
      ctx,
      'resolve',
      edit.files.map((f) => f.path),
      id,
    );
  } catch (error) {
    ast.edits.settle(id, 'rejected');
    throw error;
  }
  const stale = await staleFiles(ctx, edit);
  if (stale.length > 0) {
    ast.edits.settle(id, 'rejected');
    throw new AstError(
      'AST_EDIT_STALE',
      `${id} was rejected and nothing was written: ${count(stale.length, 'file')} changed since it was staged (${stale.join(', ')}); run ast_edit again`,
      { edit_id: id, stale },
    );
  }
  try {
    await writeAll(ctx, edit);
  } catch (error) {
    ast.edits.settle(id, 'rejected');
    const unrestored = error instanceof AstError ? (error.details.unrestored as string[] | undefined) : undefined;
    if (error instanceof AstError && unrestored !== undefined && unrestored.length > 0)
      // Some file could not be restored: what changed is not known exactly.
      return {
        output: `${error.code}: ${error.message}`,
        exitCode: 1,
        metadata: { changes: null, error: { code: error.code, message: error.message } },
      };
    throw error;
  }
  const changes = edit.files.map((f) => {
    const counts = lineCount(unifiedDiff(f.path, f.before, f.after));
    return {
      path: f.path,
      action: 'modify',
      digest_before: f.digest,
      digest_after: digestOf(f.after),
      size_before: Buffer.byteLength(f.before, 'utf8'),
      size_after: Buffer.byteLength(f.after, 'utf8'),
      ...counts,
    };
  });
  const replacements = edit.files.reduce((n, f) => n + f.replacements, 0);
  return {
    output: `Accepted ${id}: ${count(replacements, 'replacement')} written to ${count(edit.files.length, 'file')}: ${edit.files.map((f) => f.path).join(', ')}`,
    exitCode: 0,
    metadata: { edit_id: id, action: 'accept', replacements, changed_paths: edit.files.map((f) => f.path), changes },
  };
}

/** The `resolve` tool. */
export const resolveTool = defineTool({
  name: 'resolve',
  description: DESCRIPTION,
  inputJsonSchema: toolJsonSchemas.resolve,
  plainInput: true,
  input: resolveInput,
  tier: 'write',
  requires: ['fs.read', 'fs.write', AST_RESOURCE],
  // Everything else is the default: not idempotent, resumable or cancel-safe; text output.
  capabilities: { readOnly: false, maxParallelism: 1 },
  execute: (args, ctx) =>
    astGuard(
      async () => {
        const ast = await ctx.resource<AstResource>(AST_RESOURCE);
        if (args.action === 'accept') return accept(ctx, ast, args.edit_id);
        const edit = ast.edits.take(args.edit_id, 'discarded');
        return {
          output: `Discarded ${edit.id}: nothing was written.`,
          exitCode: 0,
          metadata: { edit_id: edit.id, action: 'discard', changes: [] },
        };
      },
      { changes: [] },
    ),
});
