/**
 * The temporary files of atomic writes: `.<name>.a3s-tmp-<pid>-<random>` beside the file written,
 * and the removal of those a process left behind when it died between creating one and renaming it
 * over its target (a crash, a SIGKILL). A leftover is removed only when its name has exactly that
 * shape for the very file being written, it is a regular file, and its writer is gone: another
 * process no longer running, or this process not writing it now. A name of the older shape
 * `.<name>.a3s-tmp-<random>` (no process id) counts as gone once it is a minute old.
 */
import { randomBytes } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';

/** Longest name a file system here takes (`NAME_MAX`), in bytes. */
const NAME_MAX_BYTES = 255;

/** How old a leftover of the older shape (no process id) must be to be removed. */
const UNOWNED_AGE_MS = 60_000;

/** The folders and names already swept by this process (a crash leaves leftovers of other processes only). */
const swept = new Set<string>();
const SWEPT_MAX = 10_000;

/** Temporary files this process is writing now, by folder key and name. */
const writing = new Set<string>();

const SHAPE = /^\.(.*)\.a3s-tmp-(?:(\d{1,10})-)?([0-9a-f]{12})$/s;

/** `name` cut (at a character boundary) so that `.` + it + `suffix` fits `NAME_MAX`. */
function headOf(name: string, suffixLength: number): string {
  let head = name;
  while (Buffer.byteLength(head) + suffixLength + 1 > NAME_MAX_BYTES) head = head.slice(0, -1);
  // A cut that split a surrogate pair keeps no lone half.
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  return head;
}

/**
 * A new temporary name beside `name` in the folder `folderKey` (any string naming that folder),
 * marked as being written until `done` is called.
 */
export function takeTempName(folderKey: string, name: string): { readonly name: string; readonly done: () => void } {
  const suffix = `.a3s-tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  const temp = `.${headOf(name, suffix.length)}${suffix}`;
  const key = `${folderKey}\0${temp}`;
  writing.add(key);
  return { name: temp, done: () => writing.delete(key) };
}

/** True while process `pid` runs (one of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes, once per process for each file, the temporary files of `name` in the folder reached at
 * `folderAt` that a writer no longer running left. Never fails: what cannot be judged or removed stays.
 */
export async function sweepLeftTemps(folderAt: string, folderKey: string, name: string): Promise<void> {
  const once = `${folderKey}\0${name}`;
  if (swept.has(once)) return;
  if (swept.size >= SWEPT_MAX) swept.clear();
  swept.add(once);
  const entries = await readdir(folderAt).catch(() => [] as string[]);
  for (const entry of entries) {
    const m = SHAPE.exec(entry);
    if (m === null) continue;
    const [, head, pid, random] = m;
    const suffixLength = `.a3s-tmp-${pid === undefined ? '' : `${pid}-`}${random}`.length;
    if (head !== headOf(name, suffixLength)) continue;
    if (pid !== undefined) {
      const owner = Number(pid);
      if (owner === process.pid ? writing.has(`${folderKey}\0${entry}`) : running(owner)) continue;
    }
    const at = `${folderAt}/${entry}`;
    const stat = await lstat(at).catch(() => undefined);
    if (stat === undefined || !stat.isFile()) continue;
    if (pid === undefined && Date.now() - stat.mtimeMs < UNOWNED_AGE_MS) continue;
    await unlink(at).catch(() => undefined);
  }
}
