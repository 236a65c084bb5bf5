/**
 * The agent's configuration in the workspace's subfolders. A session opened on a subfolder reads
 * its `a3s.config.json` (else `.a3s/config.json`), `.a3s/instructions.md`, `.a3s/agents/` and
 * `.a3s/skills/`: their permission rules, hooks, MCP servers, model and instructions apply to
 * it. A command a rule allows without asking is held to them as to the root's (see
 * `protected-writes.ts`): those that exist are read-only for it, and what it creates is removed
 * after it. They may be at any depth, so every folder of the workspace is looked at, before and
 * after each such command.
 *
 * Cost: the first search of a workspace lists every folder (as `find` would); the folders are
 * remembered with their change time (ctime, which a command cannot set back), so a later search
 * looks up each folder once (one `lstat`) and lists again only those changed since, or changed
 * too shortly before the last listing to be sure of it. The search runs in slices of
 * {@link SLICE} folders, letting other work run between them. For 18,600 folders holding 200,000
 * entries, on two cores under a load of 17: the first search took 4 s, each later one 0.4 s.
 * Over {@link NESTED_CONFIG_FOLDER_LIMIT} folders the search fails and the command is not run
 * (fail closed). Symbolic links, `.git` and `node_modules` folders are not followed, and a `.a3s`
 * folder is not searched below its configuration entries.
 */
import { type BigIntStats, type Dirent, lstatSync, readdirSync } from 'node:fs';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import { CONFIG_FILE_NAMES } from '../config/load-config.js';
import { WORKSPACE_AGENT_DIR } from '../delegation/agent-catalog.js';
import { INSTRUCTION_FILES } from '../prompt/system-prompt.js';
import { WORKSPACE_SKILL_DIR } from '../skills/skill-catalog.js';

/** Most folders a search looks at before it fails (and the command is not run). */
export const NESTED_CONFIG_FOLDER_LIMIT = 100_000;

const STATE = '.a3s';
const inState = (path: string): string | undefined =>
  path.startsWith(`${STATE}/`) ? path.slice(STATE.length + 1).split('/')[0] : undefined;

/** The names in a folder that configure a session opened on it: `a3s.config.json`. */
const FOLDER_NAMES: readonly string[] = CONFIG_FILE_NAMES.filter((n) => !n.includes('/'));

/** The entries of its `.a3s` folder that do: `config.json`, `instructions.md`, `agents`, `skills`. */
const STATE_NAMES: readonly string[] = [
  ...new Set(
    [...CONFIG_FILE_NAMES, ...INSTRUCTION_FILES, WORKSPACE_AGENT_DIR, WORKSPACE_SKILL_DIR]
      .map(inState)
      .filter((n): n is string => n !== undefined),
  ),
];

/** True where names differ by letter case alone only on file systems that fold it. */
const FOLDS_CASE = process.platform === 'darwin' || process.platform === 'win32';
const fold = (name: string): string => (FOLDS_CASE ? name.toLowerCase() : name);
const isName = (name: string, names: readonly string[]): boolean => names.some((n) => fold(n) === fold(name));

const held = new WeakSet<PermissionPolicy>();

/** Marks `policy` as holding its commands to the agent's configuration in every subfolder. */
export function holdNestedConfigs(policy: PermissionPolicy): void {
  held.add(policy);
}

/** True when `policy` holds its commands to the agent's configuration in every subfolder. */
export function holdsNestedConfigs(policy: PermissionPolicy): boolean {
  return held.has(policy);
}

/** A folder as last listed: its identity and change time, its subfolders and configuration entries. */
interface Listed {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly ctime: bigint;
  /** When it was listed (ns, before the listing). */
  readonly at: bigint;
  readonly folders: readonly string[];
  readonly found: readonly string[];
}

// Folders not searched: git's own (commands cannot write a repository's settings unasked, and a
// session is not opened inside one) and installed packages (a session is not opened inside one;
// they would make most JavaScript workspaces too large to search).
const SKIPPED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

// A folder changed less than this before it was listed is listed again (coarse file clocks).
const SLACK_NS = 2_000_000_000n;
// Workspaces whose folders are remembered, the most recently searched.
const REMEMBERED = 8;
// Folders looked at between two turns of the event loop.
const SLICE = 512;

const indexes = new Map<string, Map<string, Listed>>();

function remember(root: string, index: Map<string, Listed>): void {
  indexes.delete(root);
  indexes.set(root, index);
  while (indexes.size > REMEMBERED) indexes.delete(indexes.keys().next().value as string);
}

const fresh = (was: Listed | undefined, st: BigIntStats): was is Listed =>
  was !== undefined &&
  was.dev === st.dev &&
  was.ino === st.ino &&
  was.ctime === st.ctimeNs &&
  st.ctimeNs < was.at - SLACK_NS;

/**
 * The agent's configuration entries below `root` (a real, absolute folder path), as absolute
 * paths: each `a3s.config.json` in a subfolder, and in each subfolder's `.a3s` its configuration
 * entries (the `.a3s` itself where it is not a folder). Throws `RangeError` over `limit` folders.
 */
export async function nestedConfigs(root: string, limit = NESTED_CONFIG_FOLDER_LIMIT): Promise<string[]> {
  const base = root.replace(/\/+$/, '');
  const old = indexes.get(base);
  const next = new Map<string, Listed>();
  const found: string[] = [];
  let seen = 0;
  // Folders still to look at, `state` for a `.a3s` one (of which only the configuration entries count).
  let level: { readonly rel: string; readonly state: boolean }[] = [{ rel: '', state: false }];
  while (level.length > 0) {
    const deeper: typeof level = [];
    for (const { rel, state } of level) {
      if (++seen > limit) throw new RangeError('too many folders');
      // Other work runs between slices of the search.
      if (seen % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const abs = rel === '' ? base : `${base}/${rel}`;
      const st = lstatQuietly(abs);
      if (st === undefined || !st.isDirectory()) continue;
      const was = old?.get(rel);
      const now = fresh(was, st) ? was : listing(abs, state, st);
      next.set(rel, now);
      const under = (name: string): string => (rel === '' ? name : `${rel}/${name}`);
      // The root's own configuration and `.a3s` are held by the rules of `protected-writes.ts`.
      if (rel !== '') for (const name of now.found) found.push(`${base}/${under(name)}`);
      for (const name of now.folders) {
        const isState = isName(name, [STATE]);
        if (rel !== '' || !isState) deeper.push({ rel: under(name), state: isState });
      }
    }
    level = deeper;
  }
  remember(base, next);
  return found.sort();
}

function lstatQuietly(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Lists the folder `abs` (`state`: a `.a3s` folder) as of `st`. */
function listing(abs: string, state: boolean, st: BigIntStats): Listed {
  const at = BigInt(Date.now()) * 1_000_000n;
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    // Gone or unreadable since: nothing in it to find.
  }
  const folders: string[] = [];
  const names: string[] = [];
  for (const e of entries) {
    if (state) {
      if (isName(e.name, STATE_NAMES)) names.push(e.name);
    } else if (isName(e.name, FOLDER_NAMES)) names.push(e.name);
    else if (isName(e.name, [STATE]) && !e.isDirectory()) names.push(e.name);
    else if (e.isDirectory() && !SKIPPED.has(e.name)) folders.push(e.name);
  }
  return { dev: st.dev, ino: st.ino, ctime: st.ctimeNs, at, folders, found: names };
}
