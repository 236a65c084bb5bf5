/**
 * `grep`: regex search honouring `.gitignore`, in four output modes. `content`
 * pages matching lines; `files_with_matches` and `count` page paths (lexical order, opaque
 * cursor); `summary` returns totals only. The non-content modes never build match text.
 */
import {
  CapabilityUnavailableError,
  defineTool,
  type ToolContext,
  type ToolResult,
  type WorkspaceGrepRequest,
  type WorkspaceSearch,
} from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { WorkspaceFileError } from '../../errors.js';
import { tidyGlob } from '../../search/glob-pattern.js';
import { isFastSearch, type GrepFileCount } from '../../search/search-types.js';
import { decodeCursor, encodeCursor, fingerprint } from '../shared/cursor.js';
import { ListingCache } from '../shared/listing-cache.js';
import { indexAfter } from '../shared/paging.js';
import { assertSearchable, guard, ok } from '../shared/results.js';
import { ScanRecorder } from '../shared/scan-report.js';
import { looksBinary, shownPath, utf16Bom, utf16Sample } from '../shared/text.js';
import { contentPage } from './grep-content.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

/** Whole path and count listings of grep requests, for their next pages. */
const fileListings = new ListingCache<string>();
const countListings = new ListingCache<GrepFileCount>();

/** Output modes of `grep`. */
export const GREP_OUTPUT_MODES = ['content', 'files_with_matches', 'count', 'summary'] as const;

const context = (z: Zod) => z.number().int().min(0).max(20);

const grepInput = (z: Zod) =>
  z.strictObject({
    pattern: z.string().min(1).describe('regular expression (ripgrep syntax)'),
    path: z.string().optional().describe('file or directory to search (default: the workspace root)'),
    glob: z.string().min(1).optional().describe('only files matching this glob, e.g. "*.ts" or "src/**/*.rs"'),
    '-i': z.boolean().optional().describe('case-insensitive'),
    '-A': context(z).optional().describe('lines of context after each match (content mode), 0..20'),
    '-B': context(z).optional().describe('lines of context before each match (content mode), 0..20'),
    '-C': context(z).optional().describe('lines of context before and after each match (content mode), 0..20'),
    output_mode: z
      .enum(GREP_OUTPUT_MODES)
      .optional()
      .describe('content (default), files_with_matches, count or summary'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('matching lines (content) or files per page, 1..1000 (default 200)'),
    cursor: z.string().min(1).optional().describe('the next_cursor of the previous page'),
  });

/** Arguments of `grep`. */
export type GrepArgs = z.output<ReturnType<typeof grepInput>>;

async function* iterateCounts(search: WorkspaceSearch, request: WorkspaceGrepRequest): AsyncGenerator<GrepFileCount> {
  let current: { path: string; count: number } | undefined;
  for await (const m of search.grep({ ...request, withText: false })) {
    if (current && current.path === m.path) current.count++;
    else {
      if (current) yield current;
      current = { path: m.path, count: 1 };
    }
  }
  if (current) yield current;
}

/** The `grep` tool. */
export const grepTool = defineTool({
  name: 'grep',
  description: `Search file contents with a regular expression (ripgrep syntax: no back-references or look-arounds), honouring .gitignore. output_mode picks the smallest result that serves the task: "content" (default) matching lines as path:line:text with optional context (-A/-B/-C); "files_with_matches" matching paths in lexical order; "count" matching-line counts per file in lexical order; "summary" only the total line and file counts. content, files_with_matches and count are paginated: limit (1..1000, default 200) per page, and metadata.next_cursor to pass as cursor for the next page. Use glob to filter files ("*.ts", "src/**/*.rs") and path to search a folder or one file. -i ignores case. A CRLF line ends before its \\r: "$" matches there, and the line is shown without it. A CR inside a line (not its line end) is shown as ^M. Lines are numbered as read numbers them: a file whose only line ends are CR (old Mac) is searched in lines split at CR, and UTF-16 text (with or without a byte-order mark) is searched decoded. A name holding a control character (a newline, a tab, an escape) or starting with a double quote is shown as a JSON string, e.g. "a\\nb.txt"; the file's name is that string decoded. A byte of a name that is not UTF-8 is shown as \\udcXX (0xff as \\udcff) in such a string; the file tools refuse that name (rename the file with a command first). grep does not search such a file.`,
  inputJsonSchema: toolJsonSchemas.grep,
  plainInput: true,
  input: grepInput,
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
      return scan.apply(await runGrep(args, ctx, scan.onScan));
    }),
});

/** Bytes looked at to tell a binary file (one holding a NUL byte there), as read does. */
const BINARY_SNIFF = 8192;

/**
 * For a search of one file that found nothing: a note when that file is binary, which grep does
 * not search as text (so "No matches" says nothing of its bytes); else `''`.
 */
async function binaryNote(
  fs: ToolContext['workspace']['fs'],
  path: string | undefined,
  signal: AbortSignal,
): Promise<string> {
  if (fs === undefined || path === undefined || fs.readChunks === undefined) return '';
  if ((await fs.stat(path, { signal }))?.kind !== 'file') return '';
  const parts: Uint8Array[] = [];
  let seen = 0;
  for await (const chunk of fs.readChunks(path, { signal })) {
    parts.push(chunk.slice(0, BINARY_SNIFF - seen));
    seen += parts[parts.length - 1]!.length;
    if (seen >= BINARY_SNIFF) break;
  }
  const head = Buffer.concat(parts);
  // UTF-16 text holds NUL bytes too, and is searched decoded.
  const binary = looksBinary(head) && utf16Bom(head) === undefined && utf16Sample(head) === undefined;
  return binary ? ` (${path} is a binary file: grep searches text files only)` : '';
}

/** The grep call; `onScan` collects the backend's scan report, if it gives one. */
async function runGrep(args: GrepArgs, ctx: ToolContext, onScan: ScanRecorder['onScan']): Promise<ToolResult> {
  const search = ctx.workspace.search;
  if (!search) throw new CapabilityUnavailableError('search', 'grep');
  const mode = args.output_mode ?? 'content';
  const limit = args.limit ?? 200;
  const request: WorkspaceGrepRequest = {
    pattern: args.pattern,
    signal: ctx.signal,
    onScan,
    ...(args.path === undefined ? {} : { path: args.path }),
    ...(args.glob === undefined ? {} : { glob: tidyGlob(args.glob) }),
    ...(args['-i'] ? { caseInsensitive: true } : {}),
  };
  if (args.path !== undefined) assertSearchable(ctx, args.path);
  if (
    args.path !== undefined &&
    ctx.workspace.fs &&
    (await ctx.workspace.fs.stat(args.path, { signal: ctx.signal })) === undefined
  ) {
    throw new WorkspaceFileError(args.path, 'not_found', 'the search path does not exist');
  }
  const fp = fingerprint([mode, args.pattern, args.path ?? '', args.glob ?? '', args['-i'] === true]);
  const after = decodeCursor('grep', fp, args.cursor);
  if (mode === 'content') {
    const before = args['-B'] ?? args['-C'] ?? 0;
    const afterCtx = args['-A'] ?? args['-C'] ?? 0;
    const fs = ctx.workspace.capabilities.has('fs.read') ? ctx.workspace.fs : undefined;
    const page = await contentPage(
      search,
      fs,
      request,
      limit,
      after?.path === undefined ? undefined : { path: after.path, line: after.line ?? 0 },
      before,
      afterCtx,
    );
    const next = page.last ? encodeCursor('grep', fp, page.last) : null;
    const tail = next ? `\n[more matches: pass cursor=${JSON.stringify(next)} for the next page]` : '';
    const none = page.output === '' ? `No matches found${await binaryNote(fs, args.path, ctx.signal)}` : '';
    return ok((page.output === '' ? none : page.output.replace(/\n$/, '')) + tail, {
      mode,
      matches: page.matches,
      files: page.files,
      truncated: next !== null,
      next_cursor: next,
    });
  }
  const fast = isFastSearch(search);
  // A page after the first is cut from the listing the first page made (see ListingCache).
  const key = JSON.stringify([args.pattern, args.path ?? '', args.glob ?? '', args['-i'] === true]);
  const reuse = args.cursor !== undefined;
  if (mode === 'files_with_matches') {
    const all = await fileListings.get(search, key, reuse, onScan, (scan) => {
      const req = { ...request, onScan: scan };
      return fast ? search.grepFiles(req) : collect(iterateCounts(search, req), (c) => c.path);
    });
    return pathPage(all, after?.path, limit, fp, mode, all.length);
  }
  const counts = await countListings.get(search, key, reuse, onScan, (scan) => {
    const req = { ...request, onScan: scan };
    return fast ? search.grepCounts(req) : collect(iterateCounts(search, req), (c) => c);
  });
  const totalLines = counts.reduce((n, c) => n + c.count, 0);
  if (mode === 'summary') {
    return ok(
      `${totalLines} matching line${totalLines === 1 ? '' : 's'} in ${counts.length} file${counts.length === 1 ? '' : 's'}`,
      { mode, total_matches: totalLines, total_files: counts.length, truncated: false },
    );
  }
  const start = after?.path === undefined ? 0 : indexAfter(counts, after.path, (c) => c.path);
  const page = counts.slice(start, start + limit);
  const more = start + limit < counts.length;
  const next = more ? encodeCursor('grep', fp, { path: page[page.length - 1]!.path }) : null;
  const text = page.map((c) => `${shownPath(c.path)}:${c.count}`).join('\n');
  const tail = next ? `\n[${counts.length - start - page.length} more files: pass cursor=${JSON.stringify(next)}]` : '';
  return ok((text === '' ? 'No matches found' : text) + tail, {
    mode,
    total_matches: totalLines,
    total_files: counts.length,
    returned: page.length,
    truncated: more,
    next_cursor: next,
    counts: page,
  });
}

async function collect<T, U>(source: AsyncIterable<T>, map: (t: T) => U): Promise<U[]> {
  const out: U[] = [];
  for await (const t of source) out.push(map(t));
  return out;
}

function pathPage(
  all: readonly string[],
  afterPath: string | undefined,
  limit: number,
  fp: string,
  mode: string,
  total: number,
): ToolResult {
  const start = afterPath === undefined ? 0 : indexAfter(all, afterPath, (p) => p);
  const page = all.slice(start, start + limit);
  const more = start + limit < all.length;
  const next = more ? encodeCursor('grep', fp, { path: page[page.length - 1]! }) : null;
  const tail = next ? `\n[${all.length - start - page.length} more files: pass cursor=${JSON.stringify(next)}]` : '';
  return ok((page.length === 0 ? 'No files found' : page.map(shownPath).join('\n')) + tail, {
    mode,
    total_files: total,
    returned: page.length,
    truncated: more,
    next_cursor: next,
    paths: page,
  });
}
