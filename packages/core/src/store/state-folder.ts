/**
 * The workspace's state folder `.a3s/` (fact logs, saved sessions). Everything the runtime writes
 * there creates its folders through {@link mkdirState}, so the first write also leaves a
 * `.a3s/.gitignore` holding `*`: run state never shows up in `git status`. A `.a3s/` the user made
 * (for `config.json`, `skills/`, `agents/`) is left without one, so what they put there stays
 * committable; each state folder the runtime keeps in it (`effect-log/`, `sessions/`, ...) then
 * gets a `.gitignore` of its own. A state folder that is a symbolic link (or not a folder) is refused with a
 * `WORKSPACE_PATH` error naming it ({@link checkStateFolder}), before anything is created there.
 */
import { lstat, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, parse, resolve, sep } from 'node:path';
import { StateFolderError } from '../errors/persistence-errors.js';

/** The state folder's name inside a workspace. */
export const STATE_FOLDER_NAME = '.a3s';

/** The folders under `.a3s` the runtime keeps state in: fact logs, attachments, snapshots, memories, workflows, nested-call journals. */
export const STATE_SUBFOLDERS: readonly string[] = Object.freeze([
  'effect-log',
  'artifacts',
  'sessions',
  'memory',
  'workflows',
  'call-journal',
]);

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
 * Checks that `folder` and every folder between it and the `.a3s` folder it lies in (that one
 * included) is a real folder, not a symbolic link: state must not be read from or written to
 * somewhere else, possibly outside the workspace. Parts that do not exist yet pass.
 * @throws StateFolderError (`WORKSPACE_PATH`) naming the first link (or non-folder) found.
 */
export async function checkStateFolder(folder: string): Promise<void> {
  const stateRoot = stateRootOf(folder);
  if (stateRoot === undefined) return;
  const rest = resolve(folder)
    .slice(stateRoot.length)
    .split(sep)
    .filter((p) => p !== '');
  let at = stateRoot;
  for (const part of ['', ...rest]) {
    at = part === '' ? at : join(at, part);
    const stat = await lstat(at).catch(() => undefined);
    if (stat === undefined) return;
    if (stat.isSymbolicLink()) throw new StateFolderError(at, 'is a symbolic link');
    if (!stat.isDirectory()) throw new StateFolderError(at, 'is not a folder');
  }
}

/**
 * Checks the state folders `subfolders` (names under `.a3s`, default all of {@link STATE_SUBFOLDERS})
 * of workspace `dir`, as a session does when it opens. @throws StateFolderError naming the first link found.
 */
export async function checkStateFolders(dir: string, subfolders: readonly string[] = STATE_SUBFOLDERS): Promise<void> {
  for (const sub of subfolders) await checkStateFolder(join(dir, STATE_FOLDER_NAME, sub));
}

/**
 * Creates `folder` and its parents (after {@link checkStateFolder}). When `folder` lies inside a `.a3s` folder that does not exist
 * yet, that folder is created first with a `.gitignore` of `*`.
 */
export async function mkdirState(folder: string): Promise<void> {
  await checkStateFolder(folder);
  const stateRoot = stateRootOf(folder);
  if (stateRoot !== undefined) {
    const created = await mkdirTelling(stateRoot);
    if (created !== undefined) await ignoreAll(stateRoot);
    await mkdirTelling(folder);
    // In a `.a3s` the user made, each state folder of the runtime is kept out of git on its own.
    const first = resolve(folder)
      .slice(stateRoot.length + 1)
      .split(sep)[0];
    if (
      created === undefined &&
      first !== undefined &&
      STATE_SUBFOLDERS.includes(first) &&
      // A subfolder already seen holding one: no file is read again on the next write there.
      !ignored.has(join(stateRoot, first)) &&
      !(await ignoresAll(stateRoot))
    )
      await ignoreAll(join(stateRoot, first));
    return;
  }
  await mkdirTelling(folder);
}

/** Folders known to hold the `.gitignore` of `*` in this process. */
const ignored = new Set<string>();

/** True when `folder/.gitignore` is the one the runtime writes (`*`): everything below is kept out of git already. */
async function ignoresAll(folder: string): Promise<boolean> {
  if (ignored.has(folder)) return true;
  const text = await readFile(join(folder, '.gitignore'), 'utf8').catch(() => undefined);
  if (text !== STATE_GITIGNORE) return false;
  ignored.add(folder);
  return true;
}

/** Writes `folder/.gitignore` holding `*` unless it has one (whatever it holds). */
async function ignoreAll(folder: string): Promise<void> {
  if (ignored.has(folder)) return;
  await writeFile(join(folder, '.gitignore'), STATE_GITIGNORE, { flag: 'wx' }).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  });
  ignored.add(folder);
}

/**
 * `mkdir -p folder`, failing with the real reason: on a read-only file system Node's recursive
 * `mkdir` reports `ENOENT` for a folder whose parent exists, so the first missing folder is made
 * on its own, which fails with `EROFS` (or `EACCES`) as it should.
 */
async function mkdirTelling(folder: string): Promise<string | undefined> {
  try {
    return await mkdir(folder, { recursive: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    let first = folder;
    while (dirname(first) !== first && !(await exists(dirname(first)))) first = dirname(first);
    await mkdir(first);
    return mkdir(folder, { recursive: true });
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Makes every state folder of the workspace at `root` that is missing (`.a3s/effect-log`, ...),
 * as {@link mkdirState} does; one that cannot be made (a read-only workspace, a link in its place)
 * is left as it is. A folder can be kept from a process only while it exists: made before a
 * command starts, one the runtime fills later stays out of reach of the command's background jobs.
 */
export async function mkdirStateFolders(root: string): Promise<void> {
  await Promise.all(
    STATE_SUBFOLDERS.map((name) => mkdirState(join(root, STATE_FOLDER_NAME, name)).catch(() => undefined)),
  );
}
