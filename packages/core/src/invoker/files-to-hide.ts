/**
 * The existing files a command must not reach under the policy's path rules: those a read deny
 * rule covers (`Read(.env)`, `Read(secret/**)`) are hidden from it, those a write deny rule covers
 * (`Write(secret/**)`, `Edit(…)`) are made read-only for it (see `WorkspaceExecRequest.hide`). A
 * folder every path under which a rule covers is given whole; otherwise the search goes into it
 * only where some rule's pattern can still match. Where every pattern names the next name
 * literally (plain ASCII, no wildcard), that name is looked up instead of the folder listed, so
 * `Read(.env)` costs one lookup and `Read(/home/me/.ssh/**)` (searched from `/`, along its own
 * path) never lists `/home`, however many entries it holds. Symbolic links are given as they are (the kernel follows them when it hides one)
 * and never followed into.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { PermissionDeniedError } from '../errors/tool-errors.js';
import { STATE_FOLDER_NAME, STATE_SUBFOLDERS } from '../store/state-folder.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { ExecHiding } from '../workspace/workspace-services.js';
import { linkedFiles, otherNames } from './link-names.js';
import { holdsNestedConfigs, NESTED_CONFIG_FOLDER_LIMIT, nestedConfigs } from './nested-config.js';

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
  /** Whether some rule covers reads, writes; whether some pattern is absolute (then every spelling is tried). */
  readonly reads: boolean;
  readonly writes: boolean;
  readonly absolute: boolean;
  seen: number;
}

function readRule(s: Search, spelled: readonly string[]): string | undefined {
  if (!s.reads) return undefined;
  return s.policy.denyingReadRule(spelled) ?? (s.ask ? s.policy.askingReadRule(spelled) : undefined);
}

function writeRule(s: Search, spelled: readonly string[]): string | undefined {
  if (!s.writes) return undefined;
  return s.policy.denyingWriteRule(spelled) ?? (s.ask ? s.policy.askingWriteRule(spelled) : undefined);
}

const under = (spelled: readonly string[], depth: number): string[] =>
  spelled.map((p) => [p, ...Array<string>(depth).fill(PROBE)].join('/'));

/** A rule covers the whole folder: a name in it, and a name in a folder in it. */
const wholeFolder = (rule: (spelled: readonly string[]) => string | undefined, spelled: readonly string[]) =>
  rule(under(spelled, 1)) !== undefined && rule(under(spelled, 2)) !== undefined;

/** What the walk needs of a folder entry (a `Dirent`, or a looked-up name). */
interface Entry {
  readonly name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

async function entries(dir: string): Promise<Entry[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

// A name segment matched only by itself: no wildcard, no other Unicode form, not `.` or `..`.
const LITERAL = /^[\x20-\x29\x2b-\x2e\x30-\x3e\x40-\x7e]+$/;

/**
 * The names the patterns give literally at `depth` (the entries of a folder at that depth some
 * pattern may match), or `undefined` when one of them is not literal and the folder must be listed.
 * A `**` above `depth` matches any number of folders, so what follows it can be at any depth: the
 * folder is listed then too (a `.env` after a `**` is a `.env` at every depth, not only at the second).
 */
export function literalNames(patterns: readonly string[], depth: number): string[] | undefined {
  const names = new Set<string>();
  for (const pattern of patterns) {
    const parts = (pattern.endsWith(':*') ? `${pattern.slice(0, -2)}**` : pattern).split('/');
    if (parts.slice(0, depth).some((p) => p.includes('**'))) return undefined;
    const part = parts[depth];
    if (part === undefined || part === '.' || part === '..' || !LITERAL.test(part)) return undefined;
    names.add(part);
  }
  return [...names];
}

/** The named entries of `dir` that exist, as a listing would give them (links not followed). */
async function lookUp(dir: string, names: readonly string[]): Promise<Entry[]> {
  const found = await Promise.all(
    names.map(async (name): Promise<Entry | undefined> => {
      try {
        const stat = await lstat(dir === '/' ? `/${name}` : `${dir}/${name}`);
        return { name, isDirectory: () => stat.isDirectory(), isSymbolicLink: () => stat.isSymbolicLink() };
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((e): e is Entry => e !== undefined);
}

/** A folder still to list: its path, workspace-relative path, depth, the patterns left, and whether it is read-only. */
interface Pending {
  readonly abs: string;
  readonly rel: string | undefined;
  readonly depth: number;
  readonly patterns: readonly string[];
  readonly readOnly: boolean;
}

// Folders listed at once: a walk waits mostly on the file system, not on this thread.
const LISTINGS_AT_ONCE = 16;

/** Looks at the entries of one folder; returns the folders under it still to list. */
function visit(s: Search, at: Pending, list: readonly Entry[]): Pending[] {
  const next: Pending[] = [];
  for (const e of list) {
    if (++s.seen > s.limit) throw new RangeError('too many files');
    const path = at.abs === '/' ? `/${e.name}` : `${at.abs}/${e.name}`;
    const rel = at.rel === undefined ? undefined : at.rel === '' ? e.name : `${at.rel}/${e.name}`;
    const spelled = rel === undefined ? [path] : s.absolute ? [rel, `${s.root}/${rel}`, `${s.realRoot}/${rel}`] : [rel];
    const folder = e.isDirectory();
    // A link in a folder's place (`ln -s cfg config` under `Write(config/**)`) is held as the folder.
    const asFolder = folder || e.isSymbolicLink();
    if (readRule(s, spelled) !== undefined || (asFolder && wholeFolder((p) => readRule(s, p), spelled))) {
      s.unreadable.push(path);
      continue;
    }
    let readOnly = at.readOnly;
    if (
      !readOnly &&
      (writeRule(s, spelled) !== undefined || (asFolder && wholeFolder((p) => writeRule(s, p), spelled)))
    ) {
      s.unwritable.push(path);
      readOnly = true;
    }
    if (!folder) continue;
    const segments = (rel ?? path.slice(1)).split('/');
    const patterns = at.patterns.filter((p) => mayMatchUnder(p, segments));
    if (patterns.length > 0) next.push({ abs: path, rel, depth: at.depth + 1, patterns, readOnly });
  }
  return next;
}

/** Lists the folders from `start` down, at most {@link LISTINGS_AT_ONCE} listings in flight. */
async function walk(s: Search, start: Pending): Promise<void> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const list = async (at: Pending): Promise<Entry[]> => {
    if (running >= LISTINGS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      const names = literalNames(at.patterns, at.depth);
      return await (names === undefined ? entries(at.abs) : lookUp(at.abs, names));
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  const down = async (at: Pending): Promise<void> => {
    const next = visit(s, at, await list(at));
    await Promise.all(next.map(down));
  };
  await down(start);
}

/**
 * The files under `root` (and the absolute paths outside it) that the policy's path deny rules,
 * and with `ask` its path ask rules, keep from a command. Throws `PERMISSION_DENIED` for
 * `toolName` when they cannot all be listed (over `limit` entries to look at). A root that is not
 * a folder on this machine gives nothing to hide. `writesOnly`: only what the write rules cover
 * (all in `unwritable`), whatever the read rules say. `linkNames`: each other name (hard link) in
 * the workspace of a file found is kept the same way (see `link-names.ts`). `since` (a
 * `process.hrtime.bigint()` reading): a look through the workspace's folders begun since serves
 * the search for the agent's configuration in subfolders.
 */
export async function filesToHide(
  root: string,
  policy: PermissionPolicy,
  ask: boolean,
  toolName: string,
  limit = HIDE_SEARCH_LIMIT,
  writesOnly = false,
  linkNames = true,
  since?: bigint,
): Promise<ExecHiding> {
  const realRoot = isAbsolute(root) ? await realpath(root).catch(() => undefined) : undefined;
  if (realRoot === undefined) return { unreadable: [], unwritable: [] };
  const kinds = writesOnly ? (['write'] as const) : (['read', 'write'] as const);
  const patterns = kinds.flatMap((kind) => [
    ...policy.pathPatterns(kind),
    ...(ask ? policy.pathPatterns(kind, true) : []),
  ]);
  const s: Search = {
    root: root.replace(/\/+$/, ''),
    realRoot,
    policy,
    ask,
    unreadable: [],
    unwritable: [],
    limit,
    reads: !writesOnly && (policy.hasReadDenyRules || (ask && policy.hasReadAskRules)),
    writes: policy.hasWriteDenyRules || (ask && policy.hasWriteAskRules),
    absolute: patterns.some((p) => p.startsWith('/')),
    seen: 0,
  };
  const inside: string[] = [];
  const outside: string[] = [];
  for (const p of new Set(patterns)) {
    if (!p.startsWith('/')) inside.push(p);
    else {
      const base = [s.root, realRoot].find((r) => p.startsWith(`${r}/`));
      if (base === undefined) outside.push(p.slice(1));
      else inside.push(p.slice(base.length + 1));
    }
  }
  // The agent's configuration in subfolders, where the policy holds commands to it (searched meanwhile).
  const nested = holdsNestedConfigs(policy)
    ? nestedConfigs(realRoot, undefined, since).then(
        (found) => ({ found }),
        (error: unknown) => ({ error }),
      )
    : undefined;
  try {
    if (inside.length > 0) await walk(s, { abs: realRoot, rel: '', depth: 0, patterns: inside, readOnly: false });
    if (outside.length > 0) await walk(s, { abs: '/', rel: undefined, depth: 0, patterns: outside, readOnly: false });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new PermissionDeniedError(
      toolName,
      `the files the path rules cover could not all be listed (over ${limit.toLocaleString('en')} entries) to keep them from the command; it was not run`,
    );
  }
  // The runtime's own state (fact logs, artifacts, saved sessions, memories, workflow runs) can
  // hold what the read rules keep from the model: the output of calls the host made with its trust.
  if (s.reads) {
    const kept = new Set(s.unreadable);
    for (const path of await stateFolders(realRoot)) if (!isUnder(path, kept)) s.unreadable.push(path);
  }
  const more = await nested;
  if (more !== undefined) {
    if ('error' in more) {
      if (!(more.error instanceof RangeError)) throw more.error;
      throw new PermissionDeniedError(
        toolName,
        `the workspace has over ${NESTED_CONFIG_FOLDER_LIMIT.toLocaleString('en')} folders, too many to search for the agent's configuration (a3s.config.json, .a3s/) in its subfolders, which a command a rule allows without asking may not create or change; it was not run (a person's approval runs it)`,
      );
    }
    // Not where a rule already keeps the folder whole.
    const kept = new Set([...s.unreadable, ...s.unwritable]);
    for (const path of more.found) if (!isUnder(path, kept)) s.unwritable.push(path);
  }
  // Another name of a kept file (a hard link) is kept the same way.
  for (const list of linkNames ? [s.unreadable, s.unwritable] : []) {
    const names = await otherNames(realRoot, await linkedFiles(list));
    for (const name of names.keys()) if (!list.includes(name)) list.push(name);
  }
  // Parents before what is under them, and the same order every time.
  const unreadable = [...new Set(s.unreadable)].sort();
  const unwritable = [...new Set(s.unwritable)].sort();
  const folders = foldersOnTheWay(realRoot, [...unreadable, ...unwritable]);
  return folders.length === 0 ? { unreadable, unwritable } : { unreadable, unwritable, folders };
}

/** The runtime's state folders that exist under the workspace's `.a3s` (links are given as they are). */
async function stateFolders(realRoot: string): Promise<string[]> {
  const base = `${realRoot === '/' ? '' : realRoot}/${STATE_FOLDER_NAME}`;
  const found = await lookUp(base, STATE_SUBFOLDERS);
  return found.map((e) => `${base}/${e.name}`);
}

/** True when `path` or a folder above it is in `paths`. */
function isUnder(path: string, paths: ReadonlySet<string>): boolean {
  for (let at = path; at.length > 1; at = at.slice(0, Math.max(at.lastIndexOf('/'), 1))) if (paths.has(at)) return true;
  return false;
}

/**
 * The folders strictly between `root` and each of `paths`, shallowest first: a command that
 * renamed one (`mv config config2`) would carry a hidden file to a path no rule names. The root
 * itself is not among them: a command's working folder was entered before any bind, and a root
 * bound onto itself would leave every path relative to it on the unbound mount beneath.
 */
function foldersOnTheWay(root: string, paths: readonly string[]): string[] {
  const base = root.replace(/\/+$/, '');
  const found = new Set<string>();
  for (const path of paths) {
    if (!path.startsWith(`${base}/`)) continue;
    for (let at = path.lastIndexOf('/'); at > base.length; at = path.lastIndexOf('/', at - 1))
      found.add(path.slice(0, at));
  }
  return [...found].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));
}
