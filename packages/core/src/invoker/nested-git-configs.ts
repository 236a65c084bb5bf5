/**
 * The configuration of repositories nested in the workspace. A command allowed unasked can make a
 * repository in a subfolder (`git init -q pkg`, `git clone`) and write a setting that runs a
 * program into its configuration (`echo '[diff] external = …' >> pkg/.git/config`): a later
 * session opened on `pkg`, or the user's own git there, would run it. So after each such command
 * the workspace's folders are looked through for nested repositories, and the configuration of
 * one the command created or changed has what it added under a key git may run taken out again
 * (as for the workspace's own, see `git-config-guard.ts`).
 *
 * Cost: the look through the folders (`folder-walk.ts`) is shared with the search for the agent's
 * configuration in subfolders made after the same command; it `lstat`s each folder and lists
 * again only one changed since it was listed, plus a read of each nested configuration. The first
 * look of a workspace is made before its first command (for what the configurations held then).
 * It never goes into a git folder, a folder named `node_modules` or a symbolic link, and fails
 * over {@link FOLDER_WALK_LIMIT} folders (the result says so).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FOLDER_WALK_LIMIT, walkFolders } from './folder-walk.js';
import { type ConfigSnapshot, mendConfigs, snapshotConfigs } from './git-config-guard.js';
import { gitFolders } from './git-store.js';

/** Keys git may run that a new repository's configuration holds as made (`core.worktree` of a submodule). */
const AS_MADE = /^core\.(?:worktree|bare)$/i;

interface Index {
  /** The nested configuration files as they were after the last look. */
  configs: Map<string, ConfigSnapshot>;
}

const indexes = new Map<string, Index>();

/** The real path of `root`, or `root` itself where it has none. */
function real(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/** The configuration files of the nested repositories under `root` (not its own). */
async function look(root: string, limit: number, since?: bigint): Promise<string[]> {
  const files = new Set<string>();
  for (const [rel, folder] of await walkFolders(real(root), since, limit)) {
    if (!folder.git || rel === '') continue;
    const found = gitFolders(join(root, rel));
    if (found !== undefined) for (const f of [found.common, found.gitDir]) files.add(join(f, 'config'));
  }
  return [...files];
}

/** Makes sure the workspace `root` was looked through once, so a first command's changes are told from what was there. */
export async function prepareNested(root: string): Promise<void> {
  if (indexes.has(root)) return;
  const index: Index = { configs: new Map() };
  const files = await look(root, FOLDER_WALK_LIMIT).catch(() => []);
  const snaps = await snapshotConfigs(files.map((path) => ({ path, shown: relative(root, path) })));
  index.configs = new Map(snaps.map((s) => [s.path, s]));
  indexes.set(root, index);
}

/**
 * Looks through the workspace `root` after a command that started at `started` (ms; see the module
 * comment), but for the files `watched` (mended with the workspace's own), at most `limit` folders: what the command added to a nested repository's configuration under a key git may run
 * is taken out. With `since` (a `process.hrtime.bigint()` reading taken after the command ended),
 * a look through the folders begun since is used if there is one. Returns the files changed so
 * (`pkg/.git/config (diff.external)`), and a problem.
 */
export async function mendNested(
  root: string,
  started: number,
  watched: ReadonlySet<string>,
  limit = FOLDER_WALK_LIMIT,
  since?: bigint,
): Promise<{ readonly restored: string[]; readonly problem?: string }> {
  await prepareNested(root);
  const index = indexes.get(root)!;
  let files: string[];
  try {
    files = await look(root, limit, since);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return {
      restored: [],
      problem: `more than ${limit.toLocaleString('en')} folders in the workspace: repositories nested in it were not checked for git settings that run a program`,
    };
  }
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
  return mended.problem === undefined ? { restored: mended.restored } : mended;
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && a.equals(b);
}

/** Forgets what was found of every workspace (for tests). */
export function forgetNested(): void {
  indexes.clear();
}
