/**
 * The workspace's state folder `.a3s/` (fact logs, saved sessions). Everything the runtime writes
 * there creates its folders through {@link mkdirState}, so the first write also leaves a
 * `.a3s/.gitignore` holding `*`: run state never shows up in `git status`. A `.a3s/` the user made
 * (for `config.json`, `skills/`, `agents/`) is left without one, so what they put there stays
 * committable.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, parse, resolve, sep } from 'node:path';

/** The state folder's name inside a workspace. */
export const STATE_FOLDER_NAME = '.a3s';

/** What the `.gitignore` of a state folder created by the runtime holds. */
export const STATE_GITIGNORE = '*\n';

/** The `.a3s` folder `folder` lies in (the last such segment), or `undefined` when it lies in none. */
function stateRootOf(folder: string): string | undefined {
  const abs = resolve(folder);
  const { root } = parse(abs);
  const parts = abs.slice(root.length).split(sep);
  const at = parts.lastIndexOf(STATE_FOLDER_NAME);
  return at === -1 ? undefined : join(root, ...parts.slice(0, at + 1));
}

/**
 * Creates `folder` and its parents. When `folder` lies inside a `.a3s` folder that does not exist
 * yet, that folder is created first with a `.gitignore` of `*`.
 */
export async function mkdirState(folder: string): Promise<void> {
  const stateRoot = stateRootOf(folder);
  if (stateRoot !== undefined) {
    const created = await mkdir(stateRoot, { recursive: true });
    if (created !== undefined) {
      await writeFile(join(stateRoot, '.gitignore'), STATE_GITIGNORE, { flag: 'wx' }).catch((e: unknown) => {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      });
    }
  }
  await mkdir(folder, { recursive: true });
}
