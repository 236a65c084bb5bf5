/**
 * The files of a repository's own git folder that a change snapshot takes: what git runs (its
 * hooks) or obeys (its config, `info/`). Git never names them as changed, yet a hook planted in
 * `.git/hooks/` runs at the next commit; the rest of the folder (objects, refs, the index) changes
 * with every git command and is not walked.
 */
import type { WorkspaceCallOptions, WorkspaceFileSystem } from './workspace-services.js';

/** The repository's git folder at the workspace's root. */
const GIT_DIR = '.git';

/** Most entries taken from the git folder's `hooks/` and `info/` (they hold a few dozen). */
const MAX_ENTRIES = 2_000;

/**
 * The workspace paths of `.git/config` and of every file (or link) under `.git/hooks/` and
 * `.git/info/`, as far as they exist; `undefined` when there are more than {@link MAX_ENTRIES}.
 */
export async function gitDirFiles(
  fs: WorkspaceFileSystem,
  options: WorkspaceCallOptions,
): Promise<string[] | undefined> {
  const out: string[] = [`${GIT_DIR}/config`];
  const folders = [`${GIT_DIR}/hooks`, `${GIT_DIR}/info`];
  let seen = 0;
  for (let i = 0; i < folders.length; i++) {
    const folder = folders[i]!;
    const entries = await fs.list(folder, options).catch(() => []);
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return undefined;
      const path = `${folder}/${e.name}`;
      if (e.kind === 'directory') folders.push(path);
      else out.push(path);
    }
  }
  return out;
}
