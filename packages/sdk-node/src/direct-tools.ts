/**
 * The typed host-direct helpers (seed 直接工具调用). Each is one call of a workspace
 * tool through `session.tool(...)` — the same governed kernel as the model's calls, as
 * a host call: no permission prompt, no transcript entry, no conversation lease.
 *
 * `readFile`, `grep`, `bash` return a string and `glob` a `string[]`; they throw
 * {@link DirectToolError} when the call fails. `writeFile`, `editFile`, `patchFile`, `ls` and
 * `git` return the {@link ToolResult}, failed or not.
 */
import type { ToolInvocationResult } from '@a3s-code/core';
import type { GitOperation } from '@a3s-code/tools-workspace';
import { checkOptionsArg } from './arguments.js';
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
  /** Paths to return, 1..1000. Default 200. */
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

/** The read tool's numbered gutter: `     7\t`. */
const GUTTER = /^ *\d+\t/;

/** Reads lines of a text file and returns them without the line-number gutter. */
export async function readFile(call: HostCall, path: string, given?: ReadFileOptions): Promise<string> {
  const options = checkOptionsArg(given, 'session.readFile');
  const r = await must(call, 'read', { file_path: path, offset: options.offset, limit: options.limit });
  const count = typeof r.metadata.lines_returned === 'number' ? r.metadata.lines_returned : Number.POSITIVE_INFINITY;
  const lines = r.output
    .split('\n')
    .filter((l) => GUTTER.test(l))
    .slice(0, count);
  const text = lines.map((l) => l.replace(GUTTER, '')).join('\n');
  // The file's last line keeps its newline when the read reached the end of a file that had one.
  return lines.length > 0 && r.output.endsWith('\n') ? `${text}\n` : text;
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
  const options = checkOptionsArg(given, 'session.editFile');
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

/** Paths matching a glob, as the `glob` tool returns them (relative to the workspace). */
export async function glob(call: HostCall, pattern: string, given?: GlobOptions): Promise<string[]> {
  const options = checkOptionsArg(given, 'session.glob');
  const r = await must(call, 'glob', { pattern, path: options.path, limit: options.limit, sort: options.sort });
  const paths = r.metadata.paths;
  if (Array.isArray(paths) && paths.every((p) => typeof p === 'string')) return [...paths];
  return r.output.split('\n').filter((l) => l.trim() !== '');
}

/** Searches file contents; returns the `grep` tool's text (`path:line:text` lines, or `No matches found`). */
export async function grep(call: HostCall, pattern: string, given?: GrepOptions): Promise<string> {
  const options = checkOptionsArg(given, 'session.grep');
  const args = {
    pattern,
    path: options.path,
    glob: options.glob,
    '-i': options.ignoreCase,
    output_mode: options.outputMode,
    limit: options.limit,
  };
  return (await must(call, 'grep', args)).output;
}

/** Runs a shell command (`bash -c`) in the workspace; returns its output. A non-zero exit throws. */
export async function bash(call: HostCall, command: string, given?: BashOptions): Promise<string> {
  const options = checkOptionsArg(given, 'session.bash');
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
