/**
 * Reading a definition file a workspace brings (a skill's `SKILL.md`, an agent's `.md`): it must
 * be a regular file of at most {@link MAX_DEFINITION_FILE_BYTES} inside the folder it was found
 * in. A checked-in link to a file elsewhere (a secret, `/dev/zero`), a FIFO or a device, or a
 * file too large for any model's context is refused, naming the file, before anything is read.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { SessionConfigurationError } from '../errors/session-errors.js';

/** Largest definition file read (1 MiB): instructions beyond that could not fit a model's context anyway. */
export const MAX_DEFINITION_FILE_BYTES = 1024 * 1024;

/**
 * The text of `file`, found under the folder `root` (`folder` names it in errors: `skills folder`).
 * @throws SessionConfigurationError naming the file when it leads outside `root` (a symbolic link),
 *   is not a regular file, is too large or cannot be read.
 */
export function readDefinitionFile(file: string, root: string, folder: string): string {
  const allowed = `a regular file of at most ${MAX_DEFINITION_FILE_BYTES} bytes inside its ${folder}`;
  let fd: number | undefined;
  try {
    const real = realpathSync(file);
    const rel = relative(realpathSync(root), real);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
      throw new SessionConfigurationError(file, `is a link to '${real}', outside its ${folder}; allowed: ${allowed}`);
    // No blocking on a FIFO or a device: the type is checked before anything is read.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new SessionConfigurationError(file, `is not a regular file; allowed: ${allowed}`);
    if (stat.size > MAX_DEFINITION_FILE_BYTES)
      throw new SessionConfigurationError(file, `is ${stat.size} bytes; allowed: ${allowed}`);
    return readFileSync(fd, 'utf8');
  } catch (e) {
    if (e instanceof SessionConfigurationError) throw e;
    throw new SessionConfigurationError(file, `cannot be read (${(e as Error).message}); allowed: ${allowed}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
