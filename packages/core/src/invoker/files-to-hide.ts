/**
 * The existing files a command must not reach under the policy's path rules: those a read deny
 * rule covers (`Read(.env)`, `Read(secret/**)`) are hidden from it, those a write deny rule covers
 * (`Write(secret/**)`, `Edit(…)`) are made read-only for it (see `WorkspaceExecRequest.hide`). A
 * folder every path under which a rule covers is given whole; otherwise the search goes into it
 * only where some rule's pattern can still match, so `Read(.env)` costs one listing of the root.
 * Absolute patterns outside the workspace (`Read(/home/me/.ssh/**)`) are searched from `/`, along
 * their own path. Symbolic links are given as they are (the kernel follows them when it hides one)
 * and never followed into.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { PermissionDeniedError } from '../errors/tool-errors.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { ExecHiding } from '../workspace/workspace-services.js';

/** Most directory entries looked at for one command before it is refused (fail closed). */
export const HIDE_SEARCH_LIMIT = 100_000;

// A file name no rule names literally, to ask whether a rule covers everything in a folder.
const PROBE = '\u0001';

/** True when a pattern segment matches a name (`*` and `?` within the segment). */
function segmentMatches(pattern: string, name: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === name;
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${body}$`, 's').test(name);
}

/**
 * True when some path under the folder `segments` may match `pattern` (split at `/`): read
 * generously, so a doubt means yes. A `**` (or a trailing `:*`) matches at any depth.
 */
export function mayMatchUnder(pattern: string, segments: readonly string[]): boolean {
  const parts = (pattern.endsWith(':*') ? `${pattern.slice(0, -2)}**` : pattern).split('/');
  for (let i = 0; i < segments.length; i++) {
    const part = parts[i];
    if (part === undefined) return false;
    if (part.includes('**')) return true;
    if (!segmentMatches(part, segments[i]!)) return false;
  }
  return parts.length > segments.length;
}

interface Search {
  readonly root: string;
  readonly realRoot: string;
  readonly policy: PermissionPolicy;
  readonly ask: boolean;
  readonly unreadable: string[];
  readonly unwritable: string[];
  readonly limit: number;
  seen: number;
}

function readRule(s: Search, spelled: readonly string[]): string | undefined {
  return s.policy.denyingReadRule(spelled) ?? (s.ask ? s.policy.askingReadRule(spelled) : undefined);
}

function writeRule(s: Search, spelled: readonly string[]): string | undefined {
  return s.policy.denyingWriteRule(spelled) ?? (s.ask ? s.policy.askingWriteRule(spelled) : undefined);
}

const under = (spelled: readonly string[], depth: number): string[] =>
  spelled.map((p) => [p, ...Array<string>(depth).fill(PROBE)].join('/'));

/** A rule covers the whole folder: a name in it, and a name in a folder in it. */
const wholeFolder = (rule: (spelled: readonly string[]) => string | undefined, spelled: readonly string[]) =>
  rule(under(spelled, 1)) !== undefined && rule(under(spelled, 2)) !== undefined;

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * Walks the folder `abs`: `rel` its workspace-relative path (`undefined` outside the workspace),
 * `patterns` what may match below it, `readOnly` when a folder above is already unwritable.
 */
async function walk(
  s: Search,
  abs: string,
  rel: string | undefined,
  patterns: readonly string[],
  readOnly: boolean,
): Promise<void> {
  for (const e of await entries(abs)) {
    if (++s.seen > s.limit) throw new RangeError('too many files');
    const path = abs === '/' ? `/${e.name}` : `${abs}/${e.name}`;
    const relPath = rel === undefined ? undefined : rel === '' ? e.name : `${rel}/${e.name}`;
    const spelled = relPath === undefined ? [path] : [relPath, `${s.root}/${relPath}`, `${s.realRoot}/${relPath}`];
    const folder = e.isDirectory();
    if (readRule(s, spelled) !== undefined || (folder && wholeFolder((p) => readRule(s, p), spelled))) {
      s.unreadable.push(path);
      continue;
    }
    let below = readOnly;
    if (
      !readOnly &&
      (writeRule(s, spelled) !== undefined || (folder && wholeFolder((p) => writeRule(s, p), spelled)))
    ) {
      s.unwritable.push(path);
      below = true;
    }
    if (!folder) continue;
    const segments = (relPath ?? path.slice(1)).split('/');
    const deeper = patterns.filter((p) => mayMatchUnder(p, segments));
    if (deeper.length > 0) await walk(s, path, relPath, deeper, below);
  }
}

/**
 * The files under `root` (and the absolute paths outside it) that the policy's path deny rules,
 * and with `ask` its path ask rules, keep from a command. Throws `PERMISSION_DENIED` for
 * `toolName` when they cannot all be listed (over `limit` entries to look at). A root that is not
 * a folder on this machine gives nothing to hide.
 */
export async function filesToHide(
  root: string,
  policy: PermissionPolicy,
  ask: boolean,
  toolName: string,
  limit = HIDE_SEARCH_LIMIT,
): Promise<ExecHiding> {
  const realRoot = isAbsolute(root) ? await realpath(root).catch(() => undefined) : undefined;
  if (realRoot === undefined) return { unreadable: [], unwritable: [] };
  const s: Search = {
    root: root.replace(/\/+$/, ''),
    realRoot,
    policy,
    ask,
    unreadable: [],
    unwritable: [],
    limit,
    seen: 0,
  };
  const inside: string[] = [];
  const outside: string[] = [];
  const patterns = [
    ...policy.pathPatterns('read'),
    ...policy.pathPatterns('write'),
    ...(ask ? [...policy.pathPatterns('read', true), ...policy.pathPatterns('write', true)] : []),
  ];
  for (const p of new Set(patterns)) {
    if (!p.startsWith('/')) inside.push(p);
    else {
      const base = [s.root, realRoot].find((r) => p.startsWith(`${r}/`));
      if (base === undefined) outside.push(p.slice(1));
      else inside.push(p.slice(base.length + 1));
    }
  }
  try {
    if (inside.length > 0) await walk(s, realRoot, '', inside, false);
    if (outside.length > 0) await walk(s, '/', undefined, outside, false);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new PermissionDeniedError(
      toolName,
      `the files the path rules cover could not all be listed (over ${limit.toLocaleString('en')} entries) to keep them from the command; it was not run`,
    );
  }
  return { unreadable: s.unreadable, unwritable: s.unwritable };
}
