/**
 * One look through every folder of a workspace, shared by the checks made around each command a
 * rule allows unasked: the agent's configuration in subfolders (`nested-config.ts`) and the
 * configuration of nested git repositories (`nested-git-configs.ts`). After a command both need
 * the folders as the command left them; one look taken after it ended serves both.
 *
 * Cost: the first look of a workspace lists every folder (as `find` would); the folders are
 * remembered with their change time (ctime, which a command cannot set back), so a later look
 * `lstat`s each folder once and lists again only those changed since, or changed too shortly
 * before the last listing to be sure of it. The look runs in slices of {@link SLICE} folders,
 * letting other work run between them. Over {@link FOLDER_WALK_LIMIT} folders it fails with a
 * `RangeError`, and for the next 30 seconds a look of that workspace fails at once (a refusal,
 * where it matters, is the safe side). Symbolic links, `.git` and `node_modules` folders are not
 * entered.
 */
import { type BigIntStats, type Dirent, lstatSync, readdirSync } from 'node:fs';
import { CONFIG_FILE_NAMES } from '../config/load-config.js';
import { WORKSPACE_AGENT_DIR } from '../delegation/agent-catalog.js';
import { INSTRUCTION_FILES } from '../prompt/system-prompt.js';
import { WORKSPACE_SKILL_DIR } from '../skills/skill-catalog.js';

/** Most folders a look goes through before it fails. */
export const FOLDER_WALK_LIMIT = 100_000;

/** The folder of the agent's runtime state and configuration in a workspace. */
export const STATE_FOLDER = '.a3s';

const inState = (path: string): string | undefined =>
  path.startsWith(`${STATE_FOLDER}/`) ? path.slice(STATE_FOLDER.length + 1).split('/')[0] : undefined;

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

/** True when `name` is that of the state folder `.a3s` (in the letter case the file system tells apart). */
export const isStateName = (name: string): boolean => isName(name, [STATE_FOLDER]);

/** A folder as last listed: its identity and change time, its subfolders and the entries that matter. */
export interface WalkedFolder {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly ctime: bigint;
  /** When it was listed (ns, before the listing). */
  readonly at: bigint;
  /** Subfolders entered (not `.git`, `node_modules` or links). */
  readonly folders: readonly string[];
  /**
   * Entries that configure a session opened here: `a3s.config.json`, a `.a3s` that is not a
   * folder, and for a `.a3s` folder its configuration entries.
   */
  readonly configs: readonly string[];
  /** True when it holds an entry `.git` (a repository's). */
  readonly git: boolean;
}

/** The folders of a workspace, by path relative to its root (`''` for the root). */
export type FolderWalk = ReadonlyMap<string, WalkedFolder>;

const SKIPPED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

// A folder changed less than this before it was listed is listed again (coarse file clocks).
const SLACK_NS = 2_000_000_000n;
// Workspaces whose folders are remembered, the most recently looked through.
const REMEMBERED = 8;
// Folders looked at between two turns of the event loop.
const SLICE = 512;

const indexes = new Map<string, FolderWalk>();
/** When a look of each workspace last found it over the limit (`Date.now()`). */
const overLimit = new Map<string, number>();
// For so long after a look found a workspace over the limit, a look fails at once (as it would again).
const OVER_LIMIT_MS = 30_000;
/** The last look begun of each workspace, with when it began (`process.hrtime`). */
const lastLooks = new Map<string, { readonly began: bigint; readonly walk: Promise<FolderWalk> }>();

function remember<T>(map: Map<string, T>, root: string, value: T): void {
  map.delete(root);
  map.set(root, value);
  while (map.size > REMEMBERED) map.delete(map.keys().next().value as string);
}

/**
 * The folders below `root` (a real, absolute folder path). With `since` (a `process.hrtime.bigint()`
 * reading), a look begun at or after it (one in progress too) is shared instead of a new one; a
 * look's result is never older than the call that asked for it. Rejects with `RangeError` over
 * `limit` folders.
 */
export function walkFolders(root: string, since?: bigint, limit = FOLDER_WALK_LIMIT): Promise<FolderWalk> {
  const base = root.replace(/\/+$/, '');
  const over = overLimit.get(`${limit}\0${base}`);
  if (over !== undefined && Date.now() - over < OVER_LIMIT_MS)
    return Promise.reject(new RangeError(`more than ${limit} folders`));
  const last = lastLooks.get(base);
  if (since !== undefined && limit === FOLDER_WALK_LIMIT && last !== undefined && last.began >= since) return last.walk;
  const began = process.hrtime.bigint();
  const walk = look(base, limit);
  if (limit === FOLDER_WALK_LIMIT) remember(lastLooks, base, { began, walk });
  // A failed look is told to its callers; nothing unhandled is left when none awaits it.
  walk.catch(() => undefined);
  return walk;
}

/** Forgets every workspace's folders (for tests). */
export function forgetFolderWalks(): void {
  indexes.clear();
  lastLooks.clear();
  overLimit.clear();
}

const fresh = (was: WalkedFolder | undefined, st: BigIntStats): was is WalkedFolder =>
  was !== undefined &&
  was.dev === st.dev &&
  was.ino === st.ino &&
  was.ctime === st.ctimeNs &&
  st.ctimeNs < was.at - SLACK_NS;

async function look(base: string, limit: number): Promise<FolderWalk> {
  const old = indexes.get(base);
  const next = new Map<string, WalkedFolder>();
  let seen = 0;
  let level: { readonly rel: string; readonly state: boolean }[] = [{ rel: '', state: false }];
  while (level.length > 0) {
    const deeper: typeof level = [];
    for (const { rel, state } of level) {
      if (++seen > limit) {
        // What was listed is kept (a later look lists again only what changed), and for a while
        // a look fails at once: a workspace this large does not shrink between two commands.
        remember(indexes, base, new Map([...(old ?? []), ...next]));
        remember(overLimit, `${limit}\0${base}`, Date.now());
        throw new RangeError(`more than ${limit} folders`);
      }
      if (seen % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const abs = rel === '' ? base : `${base}/${rel}`;
      const st = lstatQuietly(abs);
      if (st === undefined || !st.isDirectory()) continue;
      const was = old?.get(rel);
      const now = fresh(was, st) ? was : listing(abs, state, st);
      next.set(rel, now);
      for (const name of now.folders)
        deeper.push({ rel: rel === '' ? name : `${rel}/${name}`, state: isStateName(name) });
    }
    level = deeper;
  }
  remember(indexes, base, next);
  return next;
}

function lstatQuietly(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Lists the folder `abs` (`state`: a `.a3s` folder) as of `st`. */
function listing(abs: string, state: boolean, st: BigIntStats): WalkedFolder {
  const at = BigInt(Date.now()) * 1_000_000n;
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    // Gone or unreadable since: nothing in it to find.
  }
  const folders: string[] = [];
  const configs: string[] = [];
  let git = false;
  for (const e of entries) {
    if (e.name === '.git') git = true;
    if (state ? isName(e.name, STATE_NAMES) : isName(e.name, FOLDER_NAMES) || (isStateName(e.name) && !e.isDirectory()))
      configs.push(e.name);
    if (e.isDirectory() && !SKIPPED.has(e.name)) folders.push(e.name);
  }
  return { dev: st.dev, ino: st.ino, ctime: st.ctimeNs, at, folders, configs, git };
}
