/**
 * The typed host-direct helpers (seed 直接工具调用). Each is one call of a workspace
 * tool through `session.tool(...)` — the same governed kernel as the model's calls, as
 * a host call: no permission prompt, no transcript entry, no conversation lease.
 *
 * `readFile`, `grep`, `bash` return a string and `glob` a `string[]`; they throw
 * {@link DirectToolError} when the call fails. `writeFile`, `editFile`, `patchFile`, `ls` and
 * `git` return the {@link ToolResult}, failed or not.
 */
import { createHash } from 'node:crypto';
import type { ToolInvocationResult } from '@a3s-code/core';
import type { GitOperation } from '@a3s-code/tools-workspace';
import { checkIntOption, checkOptionsArg } from './arguments.js';
import { DirectToolError } from './errors.js';
import { errorCodeOf, toToolResult, type ToolResult } from './tool-result.js';

/** Runs one host call of a tool (the session's `tool`, before conversion). */
export type HostCall = (name: string, args: Record<string, unknown>) => Promise<ToolInvocationResult>;

/** Options of `readFile`. */
export interface ReadFileOptions {
  /** 0-based index of the first line. Default 0. */
  readonly offset?: number;
  /** Lines to return, 1..2000. Default: up to 2000 (the read tool's page). */
  readonly limit?: number;
}

/** Options of `editFile` (the `edit` tool's fields in camelCase). */
export interface EditFileOptions {
  /** Replace every occurrence (default: `oldText` must occur once). */
  readonly replaceAll?: boolean;
  /** Compute the diff and counts without writing. */
  readonly dryRun?: boolean;
  /** Fail unless exactly this many replacements would be made, `>= 1`. */
  readonly expectedReplacements?: number;
  /** Refuse an edit making more replacements than this, `>= 1`. */
  readonly maxReplacements?: number;
}

/** Options of `grep` (the `grep` tool's fields). */
export interface GrepOptions {
  /** The next page: the cursor a result's last line gives (`[more matches: pass cursor="…" …]`). */
  readonly cursor?: string;
  /** File or folder to search. Default: the workspace root. */
  readonly path?: string;
  /** Only files matching this glob (`*.ts`). */
  readonly glob?: string;
  /** Case-insensitive. */
  readonly ignoreCase?: boolean;
  /** `content` (default), `files_with_matches`, `count` or `summary`. */
  readonly outputMode?: 'content' | 'files_with_matches' | 'count' | 'summary';
  /** Lines (content) or files per page, 1..1000. Default 200. */
  readonly limit?: number;
}

/** Options of `glob`. */
export interface GlobOptions {
  /** Folder the pattern is relative to. Default: the workspace root. */
  readonly path?: string;
  /** Most paths to return, `>= 1`. Default: every match (read page by page). */
  readonly limit?: number;
  /** `backend` (default: newest first) or `path` (lexical). */
  readonly sort?: 'backend' | 'path';
}

/** Options of `bash`. */
export interface BashOptions {
  /** Deadline in milliseconds, 1..600000. Default 120000. */
  readonly timeoutMs?: number;
  /** Working folder inside the workspace. Default: the root. */
  readonly cwd?: string;
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

async function must(call: HostCall, name: string, args: Record<string, unknown>): Promise<ToolInvocationResult> {
  const r = await call(name, defined(args));
  if (!r.ok) throw new DirectToolError(name, toToolResult(r), errorCodeOf(r));
  return r;
}

/** Lines of one read page (the read tool's largest `limit`). */
const READ_PAGE_LINES = 2000;

/** The read tool's default response size, in bytes (the session's default output cap). */
const READ_DEFAULT_BYTES = 65_536;

/** The read tool's smallest response size, in bytes. */
const READ_MIN_BYTES = 1024;

/** The read tool's numbered gutter: `     7\t`. */
const GUTTER = /^ *\d+\t/;

/** How the read tool shows a line it cut at 2000 characters. */
const CUT_LINE = /^[\s\S]{2000}… \[line cut: (\d+) chars\]$/;

/** The whole file as Node's `readFileSync(path, 'utf8')` gives it, when its lines rebuild the read digest. */
function exactText(lines: readonly string[], digest: unknown): string | undefined {
  if (typeof digest !== 'string') return undefined;
  for (const bom of ['', '\ufeff'])
    for (const eol of ['\n', '\r\n'])
      for (const final of [true, false]) {
        const text = bom + lines.join(eol) + (final && lines.length > 0 ? eol : '');
        if (`sha256:${createHash('sha256').update(text).digest('hex')}` === digest) return text;
      }
  return undefined;
}

/**
 * Reads lines of a text file and returns them without the line-number gutter. Pages the read
 * tool's byte budget cut are read on, so the range comes back whole. A whole-file read returns the
 * file's exact text (line ends, final newline and byte-order mark as on disk), checked against the
 * file's digest; a file whose text read shows changed (a CR inside a line, terminal control
 * characters, bytes that are not UTF-8) or a binary file is refused (`READ_NOT_TEXT`), and so is a
 * line the read tool cut at 2000 characters (`READ_LINE_TOO_LONG`), never returned changed or cut.
 * A range (`offset`, `limit`) is returned as read shows its lines. A UTF-16 file is returned decoded.
 */
export async function readFile(call: HostCall, path: string, given?: ReadFileOptions): Promise<string> {
  const options = checkOptionsArg(given, 'session.readFile', ['offset', 'limit']);
  const offset = checkIntOption(options.offset, 'offset', 0) ?? 0;
  const wanted = checkIntOption(options.limit, 'limit', 1) ?? READ_PAGE_LINES;
  const lines: string[] = [];
  let r: ToolInvocationResult;
  let budget = READ_DEFAULT_BYTES;
  for (let at = offset; ; ) {
    r = await must(call, 'read', {
      file_path: path,
      offset: at,
      limit: wanted - lines.length,
      max_output_bytes: budget,
    });
    // The session keeps outputs over its cap as an artifact and shows only their head and tail:
    // such a page is asked again, smaller.
    if (r.metadata.artifact !== undefined && budget > READ_MIN_BYTES) {
      budget = Math.max(READ_MIN_BYTES, Math.floor(budget / 2));
      continue;
    }
    const count = typeof r.metadata.lines_returned === 'number' ? r.metadata.lines_returned : 0;
    const page = r.output
      .split('\n')
      .filter((l) => GUTTER.test(l))
      .slice(0, count)
      .map((l) => l.replace(GUTTER, ''));
    page.forEach((line, k) => {
      const cut = CUT_LINE.exec(line);
      if (cut !== null && Number(cut[1]) > 2000)
        throw new DirectToolError(
          'read',
          {
            output: `${path}: line ${at + k + 1} is ${cut[1]} characters long; read shows lines of up to 2000 characters, so readFile cannot return it whole (read it with bash or a program)`,
            exitCode: 1,
          },
          'READ_LINE_TOO_LONG',
        );
    });
    lines.push(...page);
    const next = r.metadata.next_offset;
    if (page.length === 0 || typeof next !== 'number' || lines.length >= wanted) break;
    at = next;
  }
  if (r.metadata.binary === true) throw notText(path, 'it is a binary file (read describes it instead of showing it)');
  const text = lines.join('\n');
  // More lines follow: the last one returned has its newline.
  if (typeof r.metadata.next_offset === 'number') return `${text}\n`;
  if (offset === 0 && r.metadata.encoding === undefined) {
    const exact = exactText(lines, r.metadata.digest);
    if (exact !== undefined) return exact;
    // The whole file, as read shows it, is not the file: returning it would lose what was changed.
    throw notText(
      path,
      'read shows its text changed for the model (a carriage return inside a line as ^M, terminal control characters left out, or bytes that are not UTF-8 replaced), so it cannot be returned as it is on disk',
    );
  }
  return lines.length > 0 ? `${text}\n` : text;
}

/** The error of a file `readFile` cannot return as text (`why`). */
function notText(path: string, why: string): DirectToolError {
  return new DirectToolError(
    'read',
    {
      output: `${path}: ${why}; read it with bash or a program, or with the read tool to see it as the model does`,
      exitCode: 1,
    },
    'READ_NOT_TEXT',
  );
}

/** Writes (creates or replaces) a file. */
export async function writeFile(call: HostCall, path: string, content: string): Promise<ToolResult> {
  return toToolResult(await call('write', { file_path: path, content }));
}

/** Replaces `oldText` with `newText` in a file (the `edit` tool). */
export async function editFile(
  call: HostCall,
  path: string,
  oldText: string,
  newText: string,
  given?: EditFileOptions,
): Promise<ToolResult> {
  const options = checkOptionsArg(given, 'session.editFile', [
    'replaceAll',
    'dryRun',
    'expectedReplacements',
    'maxReplacements',
  ]);
  const args = defined({
    file_path: path,
    old_string: oldText,
    new_string: newText,
    replace_all: options.replaceAll,
    dry_run: options.dryRun,
    expected_replacements: options.expectedReplacements,
    max_replacements: options.maxReplacements,
  });
  return toToolResult(await call('edit', args));
}

/**
 * Applies a unified diff to `path`. A diff without `---`/`+++` headers gets them for `path`; a
 * diff with headers is applied as written (it may touch other files too: the tool decides).
 */
export async function patchFile(call: HostCall, path: string, diff: string): Promise<ToolResult> {
  const hasHeaders = /^--- /m.test(diff) && /^\+\+\+ /m.test(diff);
  const patch = hasHeaders ? diff : `--- a/${path}\n+++ b/${path}\n${diff}`;
  return toToolResult(await call('patch', { patch }));
}

/** Lists a folder (default: the workspace root). */
export async function ls(call: HostCall, path?: string): Promise<ToolResult> {
  return toToolResult(await call('ls', defined({ path })));
}

/** The glob tool's largest page. */
const GLOB_PAGE = 1000;

/**
 * Paths matching a glob, as the `glob` tool returns them (relative to the workspace): every match
 * (the tool's pages read on), or the first `limit`.
 */
export async function glob(call: HostCall, pattern: string, given?: GlobOptions): Promise<string[]> {
  const options = checkOptionsArg(given, 'session.glob', ['path', 'limit', 'sort']);
  const max = checkIntOption(options.limit, 'limit', 1);
  const out: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const limit = max === undefined ? GLOB_PAGE : Math.min(GLOB_PAGE, max - out.length);
    const r = await must(call, 'glob', { pattern, path: options.path, limit, sort: options.sort, cursor });
    const paths = r.metadata.paths;
    if (Array.isArray(paths) && paths.every((p) => typeof p === 'string')) out.push(...paths);
    else
      throw new DirectToolError('glob', { output: 'the glob tool gave no list of paths', exitCode: 1 }, 'GLOB_RESULT');
    const next = r.metadata.next_cursor;
    if (typeof next !== 'string' || (max !== undefined && out.length >= max)) return out;
    cursor = next;
  }
}

/** Searches file contents; returns the `grep` tool's text (`path:line:text` lines, or `No matches found`). */
export async function grep(call: HostCall, pattern: string, given?: GrepOptions): Promise<string> {
  const options = checkOptionsArg(given, 'session.grep', [
    'path',
    'glob',
    'ignoreCase',
    'outputMode',
    'limit',
    'cursor',
  ]);
  const args = {
    pattern,
    cursor: options.cursor,
    path: options.path,
    glob: options.glob,
    '-i': options.ignoreCase,
    output_mode: options.outputMode,
    limit: options.limit,
  };
  const r = await must(call, 'grep', args);
  const meta = r.metadata as { mode?: unknown; matches?: unknown; files?: unknown; total_files?: unknown };
  // No match is no text (the tool's own words for it are for the model).
  const none =
    meta.mode === 'summary'
      ? false
      : meta.mode === 'content'
        ? meta.matches === 0 && meta.files === 0
        : meta.total_files === 0;
  return none ? '' : r.output;
}

/** Runs a shell command (`bash -c`) in the workspace; returns its output. A non-zero exit throws. */
export async function bash(call: HostCall, command: string, given?: BashOptions): Promise<string> {
  const options = checkOptionsArg(given, 'session.bash', ['timeoutMs', 'cwd']);
  return (await must(call, 'bash', { command, timeout: options.timeoutMs, cwd: options.cwd })).output;
}

/** Runs a `git` operation (`status`, `log`, `diff`, `branch`, `checkout`, `stash`, `worktree`) with its fields. */
export async function git(
  call: HostCall,
  operation: GitOperation,
  args?: Record<string, unknown>,
): Promise<ToolResult> {
  return toToolResult(await call('git', { ...checkOptionsArg(args, 'session.git'), operation }));
}
