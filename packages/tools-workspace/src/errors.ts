/**
 * Errors of the workspace backends. They extend core's `A3sError` (one hierarchy, stable `code`).
 * Path refusals are the caller's mistake and name the argument field; file errors are runtime
 * outcomes that tools turn into failed results.
 */
import { A3sError, didYouMean, STATE_SUBFOLDERS } from '@a3s-code/core';

/** Why a path was refused. */
export type WorkspacePathProblem =
  | 'empty'
  | 'nul_byte'
  | 'escapes_root'
  | 'absolute_outside'
  | 'symlink_escape'
  | 'protected'
  /** Inside the runtime's own state under `.a3s/` (fact logs, workflow runs, saved sessions): never read by a tool. */
  | 'runtime_state'
  | 'home_relative'
  | 'too_long'
  | 'not_a_string'
  | 'not_utf8';

/** A path as a message quotes it: whole up to 200 characters, else its head and its length. */
function quotedPath(path: string): string {
  return path.length <= 200 ? JSON.stringify(path) : `${JSON.stringify(path.slice(0, 120))}… (${path.length} chars)`;
}

/** What a path refused for `problem` must be instead, for the `allowed:` part of the message. */
function allowedFor(problem: WorkspacePathProblem): string {
  switch (problem) {
    case 'protected':
      return 'a file path below the workspace root, outside every .a3s/ and .git/ folder, and not named a3s.config.json';
    case 'runtime_state':
      return `a path outside the runtime's state folders (${STATE_SUBFOLDERS.map((f) => `.a3s/${f}/`).join(', ')}); .a3s/config.json, .a3s/instructions.md, .a3s/agents/ and .a3s/skills/ can be read`;
    case 'too_long':
      return 'names of at most 255 bytes in a path of at most 3072 bytes';
    case 'not_a_string':
      return 'a path as a string';
    case 'nul_byte':
      return 'a path without NUL bytes, inside the workspace root';
    case 'not_utf8':
      return "a path in valid UTF-8 (a file whose name is not UTF-8 can be renamed with a command first, e.g. mv $'f\\xff.txt' f.txt)";
    default:
      return 'a path inside the workspace root (relative, or absolute under the root)';
  }
}

/** A path that does not resolve inside the workspace root, or that may not be written. */
export class WorkspacePathError extends A3sError {
  /** The argument or option that carried the path, e.g. `file_path` or `files[2].path`. */
  readonly field: string;
  /** What is wrong with the path. */
  readonly problem: WorkspacePathProblem;
  constructor(field: string, path: string, problem: WorkspacePathProblem, explanation: string) {
    super('WORKSPACE_PATH', `${field}: ${quotedPath(path)} ${explanation}; allowed: ${allowedFor(problem)}`, {
      details: { field, path: path.slice(0, 1000), problem },
    });
    this.field = field;
    this.problem = problem;
  }
}

/** What went wrong with an existing (or missing) workspace entry. */
export type WorkspaceFileProblem =
  | 'not_found'
  | 'is_directory'
  | 'not_directory'
  | 'not_empty'
  /** A FIFO, socket or device where a regular file was expected. */
  | 'not_regular'
  /** Text that the tool could not change without altering bytes it did not mean to (binary, not UTF-8). */
  | 'encoding'
  /** A file without any write permission, which the tools do not replace. */
  | 'read_only'
  /** The file changed on disk between the tool reading it and writing it back; nothing was written. */
  | 'changed'
  /** An object store (S3) refused or failed the request: access, bucket, credentials, network, time. */
  | 'store'
  | 'io';

/** A file operation failed at run time (missing file, a directory where a file was expected...). */
export class WorkspaceFileError extends A3sError {
  /** Workspace-relative path of the entry. */
  readonly path: string;
  /** The kind of failure. */
  readonly problem: WorkspaceFileProblem;
  constructor(path: string, problem: WorkspaceFileProblem, message: string, cause?: unknown) {
    super(`WORKSPACE_${problem.toUpperCase()}`, `${path || '.'}: ${message}`, { cause, details: { path, problem } });
    this.path = path;
    this.problem = problem;
  }
}

/** A workspace option passed at construction is invalid. Names the option and what is allowed. */
export class WorkspaceConfigurationError extends A3sError {
  /** The offending option, e.g. `root`. */
  readonly field: string;
  constructor(field: string, problem: string) {
    super('WORKSPACE_CONFIGURATION', `workspace option ${field}: ${problem}`, { details: { field } });
    this.field = field;
  }
}

/**
 * Checks that `options` of `owner` (e.g. `new LocalWorkspace(options)`) is an options object with
 * only `allowed` keys (one set to `undefined` is let be): a misspelt `witout` would otherwise be
 * dropped and the workspace keep the service it was meant to leave out. `example` is the object to
 * show when something else (a path string) was passed.
 * @throws WorkspaceConfigurationError naming `options` or the unknown key, with the allowed keys.
 */
export function checkWorkspaceOptions(
  options: unknown,
  allowed: readonly string[],
  owner: string,
  example: string,
): void {
  if (typeof options === 'string')
    throw new WorkspaceConfigurationError('options', `${owner} takes an options object, not a string; pass ${example}`);
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new WorkspaceConfigurationError('options', `${owner} takes an options object such as ${example}`);
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || allowed.includes(key)) continue;
    throw new WorkspaceConfigurationError(
      key,
      `is not an option of ${owner}; allowed: ${allowed.join(', ')}${didYouMean(key, allowed)}`,
    );
  }
}

/** A search could not run: a bad regular expression or glob, or the engine failed. */
export class WorkspaceSearchError extends A3sError {
  /** The offending field (`pattern`, `glob`) or `engine`. */
  readonly field: string;
  constructor(field: string, message: string, cause?: unknown) {
    super('WORKSPACE_SEARCH', `${field}: ${message}`, { cause, details: { field } });
    this.field = field;
  }
}

/** A helper process (`git`, `rg`) could not be started or failed outside its normal results. */
export class WorkspaceProcessError extends A3sError {
  /** The program, e.g. `git`. */
  readonly program: string;
  constructor(program: string, message: string, cause?: unknown) {
    super('WORKSPACE_PROCESS', `${program}: ${message}`, { cause, details: { program } });
    this.program = program;
  }
}
