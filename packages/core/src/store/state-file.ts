/**
 * Reading a file the runtime keeps under `.a3s` (a saved session, an attachment's bytes). Such a
 * file is only ever written there by the runtime, by atomic replace, as a regular file; anything
 * else in its place was put there by something else (a tool, a command) and is refused before a
 * byte is read: a symbolic link is not followed (it may lead outside the workspace, or to
 * `/dev/zero`), and a FIFO is not waited on.
 */
import { constants as fsConstants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { StateFileError } from '../errors/persistence-errors.js';
import { kindOf } from './log-file.js';

// Neither is defined on Windows, where neither a FIFO nor this kind of link can take a file's place.
const FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);

/**
 * The bytes of the state file at `path`, or `undefined` when there is none.
 * @throws StateFileError naming the path when it is not a regular file (a symbolic link, a FIFO,
 *   a device, a folder), is larger than `maxBytes`, or cannot be opened.
 */
export async function readStateFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(path, FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // ELOOP: O_NOFOLLOW met a link (EMLINK on FreeBSD).
    if (code === 'ELOOP' || code === 'EMLINK') throw new StateFileError(path, 'is a symbolic link', e);
    if (code === 'ENXIO') throw new StateFileError(path, 'is a socket or a device with nothing behind it', e);
    throw new StateFileError(path, `cannot be opened (${code ?? (e as Error).message})`, e);
  }
  try {
    const stats = await fh.stat();
    if (!stats.isFile()) throw new StateFileError(path, kindOf(stats));
    if (stats.size > maxBytes)
      throw new StateFileError(path, `is ${stats.size} bytes, over the ${maxBytes} bytes such a file can have`);
    return await fh.readFile();
  } finally {
    await fh.close().catch(() => undefined);
  }
}
