/**
 * `glob`: file paths matching a pattern, honouring `.gitignore`. `sort: "backend"`
 * (default) keeps the backend's order, most recently modified first; `sort: "path"` sorts
 * lexically before paging, so pages form one stable sequence with no duplicate or skipped path.
 * The pages after the first are cut from the listing the first page made (kept for a minute).
 */
import { CapabilityUnavailableError, defineTool, type ToolContext, type ToolResult } from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { WorkspaceFileError } from '../../errors.js';
import { tidyGlob, workspaceGlob } from '../../search/glob-pattern.js';
import { normalizeWorkspacePath } from '../../paths/normalize.js';
import { join, relative } from 'node:path';
import { sortPaths } from '../../search/path-order.js';
import { isFastSearch } from '../../search/search-types.js';
import { decodeCursor, encodeCursor, fingerprint } from '../shared/cursor.js';
import { ListingCache } from '../shared/listing-cache.js';
import { indexAfter } from '../shared/paging.js';
import { assertSearchable, guard, ok } from '../shared/results.js';
import { ScanRecorder } from '../shared/scan-report.js';
import { shownPath } from '../shared/text.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

const globInput = (z: Zod) =>
  z.strictObject({
    pattern: z.string().min(1).describe('glob, e.g. "**/*.ts", "src/**/test_*.py", "*.{json,yaml}"'),
    path: z
      .string()
      .optional()
      .describe('directory to search; the pattern is relative to it (default: the workspace root)'),
    limit: z.number().int().min(1).max(1000).optional().describe('paths per page, 1..1000 (default 200)'),
    cursor: z.string().min(1).optional().describe('the next_cursor of the previous page'),
    sort: z
      .enum(['backend', 'path'])
      .optional()
      .describe('backend (default: most recently modified first) or path (lexical, stable pages)'),
  });

/** Whole listings of glob requests, for their next pages. */
const listings = new ListingCache<string>();

/** Arguments of `glob`. */
type GlobArgs = z.output<ReturnType<typeof globInput>>;

/** The `glob` tool. */
export const globTool = defineTool({
  name: 'glob',
  description: `Find files by name pattern, honouring .gitignore. A pattern without "/" matches file names at any depth ("*.ts"); with "/" it is matched from path ("src/**/*.ts"). "**" spans folders, "{a,b}" alternates. An absolute pattern under the workspace (or path) is read relative to it; ".." may follow only plain folder names. Results are paged: limit (1..1000, default 200) and metadata.next_cursor. sort "backend" (default) lists most recently modified first; sort "path" gives a lexical order that stays stable across pages. A name holding a control character (a newline, a tab, an escape) or starting with a double quote is shown as a JSON string, e.g. "a\\nb.txt"; the file's name is that string decoded. A byte of a name that is not UTF-8 is shown as \\udcXX (0xff as \\udcff) in such a string; the file tools refuse that name (rename the file with a command first).`,
  inputJsonSchema: toolJsonSchemas.glob,
  plainInput: true,
  input: globInput,
  tier: 'read',
  requires: ['search'],
  capabilities: {
    readOnly: true,
    idempotent: true,
    resumable: true,
    cancelSafe: true,
    paginated: true,
    maxParallelism: 8,
    outputType: 'text',
  },
  execute: (args, ctx) =>
    guard(async () => {
      const scan = new ScanRecorder();
      return scan.apply(await runGlob(args, ctx, scan.onScan));
    }),
});

/** The glob call; `onScan` collects the backend's scan report, if it gives one. */
async function runGlob(args: GlobArgs, ctx: ToolContext, onScan: ScanRecorder['onScan']): Promise<ToolResult> {
  const search = ctx.workspace.search;
  if (!search) throw new CapabilityUnavailableError('search', 'glob');
  const sort = args.sort ?? 'backend';
  const limit = args.limit ?? 200;
  if (args.path !== undefined) assertSearchable(ctx, args.path);
  if (args.path !== undefined && ctx.workspace.fs) {
    const s = await ctx.workspace.fs.stat(args.path, { signal: ctx.signal });
    if (s?.kind !== 'directory')
      throw new WorkspaceFileError(args.path, s ? 'not_directory' : 'not_found', 'path must be an existing directory');
  }
  const fp = fingerprint([sort, args.pattern, args.path ?? '']);
  const at = decodeCursor('glob', fp, args.cursor);
  const root = ctx.workspace.root;
  const base = args.path === undefined ? root : join(root, normalizeWorkspacePath(args.path, { root, field: 'path' }));
  const fs = ctx.workspace.fs;
  const pattern = await workspaceGlob(args.pattern, root, base, async (name) =>
    fs === undefined
      ? true
      : (await fs.stat(relative(root, join(base, name)) || '.', { signal: ctx.signal })) !== undefined,
  );
  const request = {
    pattern: tidyGlob(pattern),
    signal: ctx.signal,
    ...(args.path === undefined ? {} : { path: args.path }),
  };
  // The whole listing, sorted; the pages after the first are cut from the one the first page made.
  const all = await listings.get(
    search,
    JSON.stringify([sort, args.pattern, args.path ?? '']),
    args.cursor !== undefined,
    onScan,
    async (scan) => {
      const req = { ...request, onScan: scan };
      if (sort === 'backend') return collect(search.glob(req));
      return sortPaths(isFastSearch(search) ? await search.listFiles(req) : await collect(search.glob(req)));
    },
  );
  let page: readonly string[];
  let next: string | null;
  if (sort === 'path') {
    const start = at?.path === undefined ? 0 : indexAfter(all, at.path, (p) => p);
    page = all.slice(start, start + limit);
    next = start + limit < all.length ? encodeCursor('glob', fp, { path: page[page.length - 1]! }) : null;
  } else {
    const offset = at?.offset ?? 0;
    page = all.slice(offset, offset + limit);
    next = offset + limit < all.length ? encodeCursor('glob', fp, { offset: offset + limit }) : null;
  }
  const total = all.length;
  const tail = next ? `\n[more files: pass cursor=${JSON.stringify(next)} for the next page]` : '';
  return ok((page.length === 0 ? 'No files found' : page.map(shownPath).join('\n')) + tail, {
    sort,
    total,
    returned: page.length,
    truncated: next !== null,
    next_cursor: next,
    paths: page,
  });
}

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const p of source) out.push(p);
  return out;
}
