/**
 * Atomic replace of a file: the bytes go to a temporary file in the same folder,
 * which is fsynced, renamed over the target, and then the folder is fsynced so the rename itself
 * survives a power loss. A crash at any point leaves either the old file or the new one.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { mkdirState } from '../store/state-folder.js';

/** Prefix of temporary files; readers and listings skip names that start with it. */
export const TEMP_PREFIX = '.tmp-';

/**
 * Writes `text` (UTF-8) or bytes to `path` by atomic replace. On failure the temporary file is
 * removed and the old file is untouched.
 */
export async function writeFileAtomic(path: string, text: string | Uint8Array): Promise<void> {
  const folder = dirname(path);
  await mkdirState(folder);
  const temp = join(folder, `${TEMP_PREFIX}${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    const fh = await open(temp, 'wx', 0o600);
    try {
      await (typeof text === 'string' ? fh.writeFile(text, 'utf8') : fh.writeFile(text));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncFolder(folder);
}

/** Fsyncs a folder so a rename inside it is durable. Platforms that cannot open folders (Windows) skip it. */
async function syncFolder(folder: string): Promise<void> {
  let fh: FileHandle;
  try {
    fh = await open(folder, 'r');
  } catch {
    return;
  }
  try {
    await fh.sync();
  } catch (e) {
    // Some file systems refuse fsync on a directory (EINVAL/EISDIR); the rename is still atomic there.
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw e;
  } finally {
    await fh.close();
  }
}
