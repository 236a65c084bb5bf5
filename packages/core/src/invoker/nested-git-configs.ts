/**
 * The configuration of repositories nested in the workspace. A command allowed unasked can make a
 * repository in a subfolder (`git init -q pkg`, `git clone`) and write a setting that runs a
 * program into its configuration (`echo '[diff] external = …' >> pkg/.git/config`): a later
 * session opened on `pkg`, or the user's own git there, would run it. So after each such command
 * the workspace's folders are looked through for nested repositories, and the configuration of
 * one the command created or changed has what it added under a key git may run taken out again
 * (as for the workspace's own, see `git-config-guard.ts`).
 *
 * Cost: the folders found are kept per workspace with their times and the folders in them; a later
 * look `stat`s each kept folder and lists again only one changed since it was listed, so it costs
 * one `stat` a folder (a few milliseconds a thousand folders; 10,000 took 55 to 100 ms on a busy
 * machine), plus a read of each nested configuration whose file changed. The first look of a
 * workspace lists every folder, before its first command (for what the configurations held then). The look never goes into a git folder, a folder named
 * `node_modules` or a symbolic link, and stops after {@link MAX_FOLDERS} folders (the result says
 * so).
 */
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type ConfigSnapshot, mendConfigs, snapshotConfigs } from './git-config-guard.js';
import { gitFolders } from './git-store.js';

/** Most folders looked at in one look. */
export const MAX_FOLDERS = 10_000;

// File times come from a coarse clock; a listing made this soon after a change is made again next time.
const CLOCK_SLACK_MS = 50;

/** Keys git may run that a new repository's configuration holds as made (`core.worktree` of a submodule). */
const AS_MADE = /^core\.(?:worktree|bare)$/i;

interface Folder {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly listedAt: number;
  readonly folders: readonly string[];
  readonly git: boolean;
}

interface Index {
  readonly folders: Map<string, Folder>;
  /** The nested configuration files as they were after the last look. */
  configs: Map<string, ConfigSnapshot>;
}

const indexes = new Map<string, Index>();

const skipped = (entry: Dirent): boolean =>
  !entry.isDirectory() || entry.name === '.git' || entry.name === 'node_modules';

/**
 * The folder `dir`, listed again only when it changed since it was last listed. Synchronous: a
 * `stat` takes a few microseconds, where an asynchronous one costs a round trip to the thread pool.
 */
function folderOf(index: Index, dir: string): Folder | undefined {
  const s = lstatSync(dir, { throwIfNoEntry: false });
  if (s === undefined || !s.isDirectory()) {
    index.folders.delete(dir);
    return undefined;
  }
  const kept = index.folders.get(dir);
  if (
    kept !== undefined &&
    kept.mtimeMs === s.mtimeMs &&
    kept.ctimeMs === s.ctimeMs &&
    kept.listedAt - s.ctimeMs > CLOCK_SLACK_MS
  )
    return kept;
  const listedAt = Date.now();
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    entries = [];
  }
  const folder: Folder = {
    mtimeMs: s.mtimeMs,
    ctimeMs: s.ctimeMs,
    listedAt,
    folders: entries.filter((e) => !skipped(e)).map((e) => join(dir, e.name)),
    git: entries.some((e) => e.name === '.git'),
  };
  index.folders.set(dir, folder);
  return folder;
}

/** The configuration files of the nested repositories under `root` (not its own), and whether all were looked at. */
function look(
  index: Index,
  root: string,
  limit = MAX_FOLDERS,
): { readonly files: string[]; readonly complete: boolean } {
  const files = new Set<string>();
  const seen = new Set<string>();
  const stack = [root];
  let complete = true;
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    if (seen.size >= limit) {
      complete = false;
      break;
    }
    seen.add(dir);
    const folder = folderOf(index, dir);
    if (folder === undefined) continue;
    if (folder.git && dir !== root) {
      const found = gitFolders(dir);
      if (found !== undefined) for (const f of [found.common, found.gitDir]) files.add(join(f, 'config'));
    }
    stack.push(...folder.folders);
  }
  if (complete) for (const dir of index.folders.keys()) if (!seen.has(dir)) index.folders.delete(dir);
  return { files: [...files], complete };
}

/** Makes sure the workspace `root` was looked through once, so a first command's changes are told from what was there. */
export async function prepareNested(root: string): Promise<void> {
  if (indexes.has(root)) return;
  const index: Index = { folders: new Map(), configs: new Map() };
  const { files } = look(index, root);
  const snaps = await snapshotConfigs(files.map((path) => ({ path, shown: relative(root, path) })));
  index.configs = new Map(snaps.map((s) => [s.path, s]));
  indexes.set(root, index);
}

/**
 * Looks through the workspace `root` after a command that started at `started` (see the module
 * comment), but for the files `watched` (mended with the workspace's own), at most `limit` folders: what the command added to a nested repository's configuration under a key git may run
 * is taken out. Returns the files changed so (`pkg/.git/config (diff.external)`), and a problem.
 */
export async function mendNested(
  root: string,
  started: number,
  watched: ReadonlySet<string>,
  limit = MAX_FOLDERS,
): Promise<{ readonly restored: string[]; readonly problem?: string }> {
  await prepareNested(root);
  const index = indexes.get(root)!;
  const { files, complete } = look(index, root, limit);
  const now = await snapshotConfigs(files.map((path) => ({ path, shown: relative(root, path) })));
  const changed: ConfigSnapshot[] = [];
  for (const snap of now) {
    if (watched.has(snap.path)) continue;
    const was = index.configs.get(snap.path);
    if (was !== undefined && was.link === snap.link && sameBytes(was.content, snap.content)) continue;
    // Changed by someone else between commands: taken as it is.
    const s = lstatSync(snap.path, { throwIfNoEntry: false });
    if (s === undefined || s.ctimeMs < started) continue;
    changed.push(was ?? { path: snap.path, shown: snap.shown, content: undefined, link: false });
  }
  const mended = changed.length === 0 ? { restored: [] } : await mendConfigs(changed, AS_MADE);
  // What the files hold now (after mending) is what the next command is compared with.
  const after = changed.length === 0 ? now : await snapshotConfigs(now.map(({ path, shown }) => ({ path, shown })));
  index.configs = new Map(after.map((s) => [s.path, s]));
  const partial = complete
    ? undefined
    : `more than ${limit} folders in the workspace: repositories nested past them were not checked for git settings that run a program`;
  const problem = [mended.problem, partial].filter((p) => p !== undefined).join('; ');
  return problem === '' ? { restored: mended.restored } : { restored: mended.restored, problem };
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && a.equals(b);
}

/** Forgets what was found of every workspace (for tests). */
export function forgetNested(): void {
  indexes.clear();
}
