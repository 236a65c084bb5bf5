/**
 * Lexical path checks shared by every backend: a tool's path argument becomes a normalised
 * workspace-relative path (`''` is the root) or a {@link WorkspacePathError}. Symlinks are checked
 * by the backends that have them (`LocalWorkspace`), after this step.
 */
import { CONFIG_FILE_NAMES, STATE_SUBFOLDERS } from '@a3s-code/core';
import { WorkspacePathError } from '../errors.js';
import { loneSurrogateAt } from './byte-names.js';

/** The workspace's private state folder; tools may read it but never write into it. */
export const PROTECTED_DIR = '.a3s';

/** Options of {@link normalizeWorkspacePath}. */
export interface NormalizeOptions {
  /** Name of the argument that carried the path, for the error message. Default `path`. */
  readonly field?: string;
  /** Absolute root (already resolved); absolute inputs under it are accepted. */
  readonly root: string;
}

/**
 * Normalises `input` to a root-relative path with `/` separators and no `.`/`..` segments.
 * Refuses NUL bytes, `~` paths, absolute paths outside `root`, `..` that climbs above it, and
 * names or paths longer than the file system takes.
 */
export function normalizeWorkspacePath(input: unknown, options: NormalizeOptions): string {
  const field = options.field ?? 'path';
  if (typeof input !== 'string') throw new WorkspacePathError(field, String(input), 'not_a_string', 'is not a string');
  if (input.includes('\0')) throw new WorkspacePathError(field, input, 'nul_byte', 'contains a NUL byte');
  const lone = loneSurrogateAt(input);
  if (lone >= 0) throw notUtf8Error(field, input, input.charCodeAt(lone));
  if (input === '~' || input.startsWith('~/'))
    throw new WorkspacePathError(field, input, 'home_relative', 'is relative to a home directory');
  let rest = input;
  if (rest.startsWith('/')) {
    const root = options.root.endsWith('/') ? options.root.slice(0, -1) : options.root;
    if (rest === root) rest = '';
    else if (rest.startsWith(`${root}/`)) rest = rest.slice(root.length + 1);
    else throw new WorkspacePathError(field, input, 'absolute_outside', 'is an absolute path outside the workspace');
  }
  const out: string[] = [];
  for (const seg of rest.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0)
        throw new WorkspacePathError(field, input, 'escapes_root', 'climbs above the workspace root with ..');
      out.pop();
      continue;
    }
    if (Buffer.byteLength(seg) > MAX_NAME_BYTES)
      throw new WorkspacePathError(
        field,
        input,
        'too_long',
        `has a name of ${Buffer.byteLength(seg)} bytes; a file or folder name may be at most ${MAX_NAME_BYTES} bytes`,
      );
    out.push(seg);
  }
  const rel = out.join('/');
  if (Buffer.byteLength(rel) > MAX_PATH_BYTES)
    throw new WorkspacePathError(
      field,
      input,
      'too_long',
      `is ${Buffer.byteLength(rel)} bytes long; a workspace path may be at most ${MAX_PATH_BYTES} bytes`,
    );
  return rel;
}

/**
 * The refusal of a path holding a lone surrogate: the spelling of a byte that is not UTF-8 (as
 * ls, glob and grep show such a name) or half of a character. The system would receive U+FFFD in
 * its place and could open a different file, so nothing is opened.
 */
function notUtf8Error(field: string, input: string, unit: number): WorkspacePathError {
  const hex = unit.toString(16);
  return new WorkspacePathError(
    field,
    input,
    'not_utf8',
    unit >= 0xdc80 && unit <= 0xdcff
      ? `has a name that is not valid UTF-8 (\\u${hex} stands for its byte 0x${(unit - 0xdc00).toString(16)}); the file tools cannot open such a name, so nothing was read, listed or written`
      : `holds half of a character (lone UTF-16 surrogate \\u${hex}), which no file name holds, so nothing was read or written`,
  );
}

/** Longest file or folder name the file systems here take (`NAME_MAX`), in bytes. */
const MAX_NAME_BYTES = 255;
/** Longest workspace-relative path accepted, in bytes (`PATH_MAX` is 4096 with the root and the NUL). */
const MAX_PATH_BYTES = 3072;

/** Git's internal folder, at any depth (nested repositories and worktrees have their own). */
export const GIT_DIR = '.git';

/** True when the relative path is inside (or is) the protected `.a3s` folder. */
export function isProtectedPath(rel: string): boolean {
  const first = rel.split('/', 1)[0] ?? '';
  return first.toLowerCase() === PROTECTED_DIR;
}

/**
 * True when the relative path is, or is inside, one of the folders the runtime keeps its own
 * state in (`.a3s/effect-log`, `.a3s/workflows`, `.a3s/sessions`, `.a3s/artifacts`,
 * `.a3s/memory`), in any letter case: fact logs, workflow runs and saved sessions hold what other
 * runs and sessions read and produced, under their rules. What a user keeps in `.a3s/` for the
 * agent (`config.json`, `instructions.md`, `agents/`, `skills/`) is not runtime state.
 */
export function isRuntimeStatePath(rel: string): boolean {
  const [first, second] = rel.split('/', 2);
  if (first?.toLowerCase() !== PROTECTED_DIR || second === undefined) return false;
  const sub = second.toLowerCase();
  return STATE_SUBFOLDERS.some((name) => name === sub);
}

/**
 * Throws when `rel` is in the runtime's state (see {@link isRuntimeStatePath}): the file tools
 * never read, list or search it.
 */
export function assertNotRuntimeState(rel: string, field: string, original: string): void {
  if (isRuntimeStatePath(rel))
    throw new WorkspacePathError(
      field,
      original,
      'runtime_state',
      "is inside the runtime's own state (fact logs, workflow runs, saved sessions, attachments, memories), which the file tools do not read",
    );
}

/**
 * True when the relative path is, or is inside, a `.git` folder (or file) at any depth, in any
 * letter case. Git runs programs named by files in there (`config`, `hooks/`), so writing them
 * would hand a file tool the power of a shell.
 */
export function isGitInternalPath(rel: string): boolean {
  return rel.split('/').some((segment) => segment.toLowerCase() === GIT_DIR);
}

/**
 * The workspace's configuration files at its root (core's `CONFIG_FILE_NAMES` outside `.a3s/`,
 * which is protected as a whole): `a3s.config.json`.
 */
export const ROOT_CONFIG_FILES: readonly string[] = CONFIG_FILE_NAMES.filter((name) => !name.includes('/'));

/**
 * True when the relative path is the workspace's configuration file at its root, in any letter
 * case. Its permission rules, hooks and MCP servers apply to later sessions, so writing it would
 * let a file tool grant itself commands that run unasked.
 */
export function isRootConfigPath(rel: string): boolean {
  const lower = rel.toLowerCase();
  return ROOT_CONFIG_FILES.some((name) => name.toLowerCase() === lower);
}

/**
 * True where names differ by letter case alone only on file systems that fold it (macOS and
 * Windows by default); elsewhere `.A3S` is not the agent's folder and stays writable.
 */
const FOLDS_CASE = process.platform === 'darwin' || process.platform === 'win32';

const sameName = (name: string, wanted: string): boolean =>
  FOLDS_CASE ? name.toLowerCase() === wanted.toLowerCase() : name === wanted;

/**
 * True when the relative path is an agent configuration below the root: a file named like the
 * root's configuration file (`a3s.config.json`) in any subfolder, or anything in (or) a `.a3s`
 * folder in a subfolder. A session opened on that subfolder applies its permission rules, hooks,
 * MCP servers, agents and skills, so writing it would let a file tool grant a later session
 * commands that run unasked. Letter case counts where the file system tells names apart by it.
 */
export function isNestedConfigPath(rel: string): boolean {
  const segments = rel.split('/');
  if (segments.length < 2) return false;
  const last = segments[segments.length - 1] ?? '';
  if (ROOT_CONFIG_FILES.some((name) => sameName(last, name))) return true;
  return segments.slice(1).some((segment) => sameName(segment, PROTECTED_DIR));
}

/**
 * Throws when `rel` may not be written (the `.a3s` internals, Git's `.git` internals, the
 * workspace's configuration file, or an agent configuration in a subfolder).
 */
export function assertWritable(rel: string, field: string, original: string): void {
  if (rel === '')
    throw new WorkspacePathError(
      field,
      original,
      'protected',
      'is the workspace root itself, which cannot be written as a file',
    );
  if (isProtectedPath(rel))
    throw new WorkspacePathError(
      field,
      original,
      'protected',
      `is inside the workspace's private ${PROTECTED_DIR}/ folder, which tools may not write`,
    );
  if (isGitInternalPath(rel))
    throw new WorkspacePathError(
      field,
      original,
      'protected',
      `is inside a ${GIT_DIR}/ folder (Git's configuration and hooks), which tools may not write`,
    );
  if (isRootConfigPath(rel))
    throw new WorkspacePathError(
      field,
      original,
      'protected',
      "is the workspace's configuration file (its permission rules, hooks and MCP servers apply to later sessions), which tools may not write; the person running the agent edits it",
    );
  if (isNestedConfigPath(rel))
    throw new WorkspacePathError(
      field,
      original,
      'protected',
      `is an agent configuration in a subfolder (an ${ROOT_CONFIG_FILES.join(', ')} or something in a ${PROTECTED_DIR}/ folder: a session opened on that subfolder applies its permission rules, hooks and MCP servers), which tools may not write; the person running the agent edits it`,
    );
}

/** Joins a relative directory and a name (`''` is the root). */
export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** The parent of a relative path (`''` for top-level entries). */
export function parentRel(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}
