/**
 * `ast_edit`: staged structural rewrite. Matches as `ast_grep` does, renders `rewrite` for each
 * outermost match, and stages the new contents with each file's content hash: nothing is
 * written until `resolve` accepts the edit.
 */
import { defineTool, type Zod } from '@a3s-code/core';
import type { z } from 'zod';
import { refuseDeniedWrites, resolveTarget } from './ast-files.js';
import { AST_RESOURCE, type AstResource, matchFiles } from './ast-resource.js';
import type { StagedFile } from './edit-store.js';
import { AST_LANGUAGE_IDS } from './languages.js';
import { outermost } from './matcher.js';
import { applyRewrite, checkTemplate } from './rewrite.js';
import { astGuard, capped, count, skippedNote } from './tool-results.js';
import { unifiedDiff } from './unified-diff.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** Largest diff preview in a proposed result, in characters. */
export const MAX_PREVIEW_CHARS = 12_000;
/** Characters of rewritten text one edit stages at most, over all its files. */
export const MAX_STAGED_CHARS = 64 * 1024 * 1024;

/** The diff preview of the staged files: diffed one by one only until the preview is full. */
function previewDiff(staged: readonly StagedFile[]): { text: string; cut: boolean } {
  let text = '';
  for (const f of staged) {
    text += unifiedDiff(f.path, f.before, f.after);
    if (text.length > MAX_PREVIEW_CHARS) break;
  }
  return capped(text, MAX_PREVIEW_CHARS);
}

const astEditInput = (z: Zod) =>
  z.strictObject({
    pattern: z.string().min(1).max(4000).describe('what to match, as in ast_grep'),
    rewrite: z.string().max(20_000).describe('replacement code; $NAME and $$$NAME are replaced by their captures'),
    path: z.string().min(1).optional().describe('file or folder in scope (default: the workspace)'),
    language: z
      .string()
      .optional()
      .describe(`grammar id, one of ${AST_LANGUAGE_IDS.join(', ')}; inferred when path is one file`),
  });

/** The arguments of `ast_edit`. */
export type AstEditArgs = z.output<ReturnType<typeof astEditInput>>;

const DESCRIPTION = `Structural rewrite, staged: matches pattern exactly as ast_grep does and replaces each match (outermost ones; a match inside another is left to the outer rewrite) with rewrite, where $NAME and $$$NAME stand for the captured code (multi-line captures are re-indented). Writes nothing: it returns "(proposed) N replacements in M files" with a diff preview and an edit_id; call resolve with that edit_id and action "accept" to write every file at once (refused if any file changed since), or "discard".`;

/** The `ast_edit` tool. */
export const astEditTool = defineTool({
  name: 'ast_edit',
  description: DESCRIPTION,
  inputJsonSchema: toolJsonSchemas.ast_edit,
  plainInput: true,
  input: astEditInput,
  tier: 'write',
  requires: ['fs.read', 'fs.write', 'search', AST_RESOURCE],
  capabilities: {
    readOnly: false,
    idempotent: false,
    resumable: true,
    cancelSafe: true,
    paginated: false,
    maxParallelism: 4,
    outputType: 'text',
  },
  execute: (args, ctx) =>
    astGuard(
      async () => {
        const ast = await ctx.resource<AstResource>(AST_RESOURCE);
        const target = await resolveTarget(ctx, args.path, args.language, true);
        const pattern = await ast.compile(target.language, args.pattern);
        checkTemplate(args.rewrite, pattern.names);
        const skipped: string[] = [];
        const staged: StagedFile[] = [];
        let room = MAX_STAGED_CHARS;
        for await (const file of matchFiles(ctx, ast, pattern, target.files, skipped)) {
          const matches = outermost(file.matches);
          const after = applyRewrite(file.source, matches, args.rewrite, room);
          if (after === file.source) continue;
          room -= after.length;
          staged.push({
            path: file.path,
            digest: file.digest,
            before: file.source,
            after,
            replacements: matches.length,
          });
        }
        if (staged.length === 0)
          return {
            output: `(no change) the ${target.language.id} pattern matched nothing to rewrite in ${count(target.files.length, 'file')}; nothing was staged.${skippedNote(skipped)}`,
            exitCode: 0,
            metadata: { edit_id: null, replacements: 0, files: [], skipped_files: skipped.slice(0, 50), changes: [] },
          };
        await refuseDeniedWrites(
          ctx,
          'ast_edit',
          staged.map((f) => f.path),
        );
        // A rewrite that breaks the syntax of a file that parsed cleanly is flagged, not refused:
        // the model may mean to finish the change with another edit.
        const broken: string[] = [];
        for (const f of staged)
          if (
            (await ast.hasSyntaxErrors(target.language, f.after)) &&
            !(await ast.hasSyntaxErrors(target.language, f.before))
          )
            broken.push(f.path);
        const edit = ast.edits.stage({ pattern: args.pattern, rewrite: args.rewrite, files: staged });
        const warning =
          broken.length === 0
            ? ''
            : `\nWARNING: after this rewrite ${count(broken.length, 'file')} no longer parse${broken.length === 1 ? 's' : ''} as ${target.language.id}: ${broken.join(', ')}. Check the rewrite before accepting.`;
        const replacements = staged.reduce((n, f) => n + f.replacements, 0);
        const diff = previewDiff(staged);
        return {
          output: `(proposed) ${count(replacements, 'replacement')} in ${count(staged.length, 'file')} … call resolve with edit_id "${edit.id}" and action "accept" or "discard". Nothing has been written.${warning}${skippedNote(skipped)}\n\n${diff.text}${diff.cut ? `\n[diff preview cut at ${MAX_PREVIEW_CHARS} characters]` : ''}`,
          exitCode: 0,
          metadata: {
            edit_id: edit.id,
            replacements,
            files: staged.map((f) => ({ path: f.path, replacements: f.replacements, digest: f.digest })),
            diff: diff.text,
            diff_truncated: diff.cut,
            syntax_errors_after: broken,
            skipped_files: skipped.slice(0, 50),
            // Staging writes nothing: an empty change list tells the change ledger so.
            changes: [],
          },
        };
      },
      { changes: [] },
    ),
});
