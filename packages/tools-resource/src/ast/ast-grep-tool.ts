/**
 * `ast_grep`: structural search. The pattern is code parsed by the grammar of the files searched,
 * with metavariables; matches come out as `path:line: text` with their captures, a total and a
 * cursor past `max_results`.
 */
import { defineTool, type Zod } from '@a3s-code/core';
import type { z } from 'zod';
import { AstError } from './ast-errors.js';
import { resolveTarget } from './ast-files.js';
import { AST_RESOURCE, type AstResource, matchFiles } from './ast-resource.js';
import { AST_LANGUAGE_IDS } from './languages.js';
import { skippedNote, astGuard, capped, firstLine, count } from './tool-results.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

const astGrepInput = (z: Zod) =>
  z.strictObject({
    pattern: z
      .string()
      .min(1)
      .max(4000)
      .describe('code with metavariables: $NAME (one node), $$$NAME (zero or more siblings), $_ (one node, unbound)'),
    path: z.string().min(1).optional().describe('file or folder to search (default: the workspace)'),
    language: z
      .string()
      .optional()
      .describe(`grammar id, one of ${AST_LANGUAGE_IDS.join(', ')}; inferred when path is one file`),
    max_results: z.number().int().min(1).max(500).optional().describe('matches per page, 1..500 (default 50)'),
    cursor: z.string().min(1).optional().describe('metadata.next_cursor of the previous page'),
  });

/** The arguments of `ast_grep`. */
export type AstGrepArgs = z.output<ReturnType<typeof astGrepInput>>;

const DESCRIPTION = `Structural code search: find code by shape, not text. The pattern is a code fragment in the target language, parsed by the same grammar as the files, so spacing, line breaks, comments and wrapping do not matter and text inside strings or comments never matches. Metavariables: $NAME matches one node, $$$NAME a run of sibling nodes (possibly none), $_ one node without binding (names: capitals, digits and _; a $ word starting in lower case such as $scope is code, and one mixing cases such as $__proto__ is refused with AST_METAVARIABLE_NAME); a name used twice must capture identical code ("if ($X != null) $X.dispose()" matches a guard that disposes what it checked). language is required unless path is one file (languages: ${AST_LANGUAGE_IDS.join(', ')}). Output: path:line: matched text, with captures; pages of max_results (default 50), continue with cursor = metadata.next_cursor. An unparseable pattern fails with AST_PATTERN_UNPARSEABLE.`;

interface Cursor {
  readonly v: 1;
  readonly key: string;
  readonly skip: number;
}

function cursorKey(args: AstGrepArgs): string {
  return JSON.stringify([args.pattern, args.path ?? '', args.language ?? '']);
}

function decodeCursor(args: AstGrepArgs): number {
  if (args.cursor === undefined) return 0;
  let c: Partial<Cursor> | undefined;
  try {
    c = JSON.parse(Buffer.from(args.cursor, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    c = undefined;
  }
  if (c?.v !== 1 || c.key !== cursorKey(args) || typeof c.skip !== 'number' || c.skip < 0)
    throw new AstError(
      'AST_CURSOR',
      'cursor is not a next_cursor of ast_grep with this pattern, path and language; allowed: metadata.next_cursor of the previous page, unchanged',
      {},
    );
  return c.skip;
}

/** The `ast_grep` tool (its resource is the session's ast resource). */
export const astGrepTool = defineTool({
  name: 'ast_grep',
  description: DESCRIPTION,
  inputJsonSchema: toolJsonSchemas.ast_grep,
  plainInput: true,
  input: astGrepInput,
  tier: 'read',
  requires: ['fs.read', 'search', AST_RESOURCE],
  capabilities: {
    readOnly: true,
    idempotent: true,
    resumable: true,
    cancelSafe: true,
    paginated: true,
    maxParallelism: 4,
    outputType: 'text',
  },
  execute: (args, ctx) =>
    astGuard(async () => {
      const skip = decodeCursor(args);
      const limit = args.max_results ?? 50;
      const ast = await ctx.resource<AstResource>(AST_RESOURCE);
      const target = await resolveTarget(ctx, args.path, args.language);
      const pattern = await ast.compile(target.language, args.pattern);
      const skipped: string[] = [];
      const lines: string[] = [];
      const structured: Record<string, unknown>[] = [];
      let total = 0;
      let files = 0;
      for await (const file of matchFiles(ctx, ast, pattern, target.files, skipped)) {
        files++;
        for (const m of file.matches) {
          total++;
          if (total <= skip || total > skip + limit) continue;
          const captures = Object.fromEntries(
            pattern.names.filter((n) => m.captures.has(n)).map((n) => [n, capped(m.captures.get(n)!.text, 400).text]),
          );
          lines.push(`${file.path}:${m.line + 1}: ${firstLine(m.text)}`);
          for (const [name, text] of Object.entries(captures)) lines.push(`    $${name} = ${firstLine(text, 120)}`);
          structured.push({
            path: file.path,
            line: m.line + 1,
            end_line: m.endLine + 1,
            text: capped(m.text, 2000).text,
            captures,
          });
        }
      }
      const shown = structured.length;
      const next =
        skip + shown < total
          ? Buffer.from(JSON.stringify({ v: 1, key: cursorKey(args), skip: skip + shown } satisfies Cursor)).toString(
              'base64url',
            )
          : null;
      const head =
        total === 0
          ? `No matches of the ${target.language.id} pattern in ${count(target.files.length, 'file')}.`
          : `${count(total, 'match', 'matches')} in ${count(files, 'file')}${shown < total ? `; showing ${skip + 1}..${skip + shown}` : ''}.`;
      const tail = next === null ? '' : `\n[more matches: continue with cursor=${next}]`;
      return {
        output: [head, ...lines].join('\n') + skippedNote(skipped) + tail,
        exitCode: 0,
        metadata: {
          language: target.language.id,
          context: pattern.context,
          total,
          files_with_matches: files,
          files_searched: target.files.length,
          skipped_files: skipped.slice(0, 50),
          matches: structured,
          next_cursor: next,
        },
      };
    }),
});
