/**
 * Reading a definition file a workspace brings (a skill's `SKILL.md`, an agent's `.md`): it must
 * be a regular file of at most {@link MAX_DEFINITION_FILE_BYTES} inside the folder it was found
 * in. A checked-in link to a file elsewhere (a secret, `/dev/zero`), a FIFO or a device, or a
 * file too large for any model's context is refused, naming the file, before anything is read.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { notInside, withRegularFileSync } from './regular-file.js';

/** Largest definition file read (1 MiB): instructions beyond that could not fit a model's context anyway. */
export const MAX_DEFINITION_FILE_BYTES = 1024 * 1024;

/**
 * The text of `file`, found under the folder `root` (`folder` names it in errors: `skills folder`).
 * @throws SessionConfigurationError naming the file when it leads outside `root` (a symbolic link),
 *   is not a regular file, is too large or cannot be read.
 */
export function readDefinitionFile(file: string, root: string, folder: string): string {
  const allowed = `a regular file of at most ${MAX_DEFINITION_FILE_BYTES} bytes inside its ${folder}`;
  try {
    const real = realpathSync(file);
    if (notInside(realpathSync(root), real))
      throw new SessionConfigurationError(file, `is a link to '${real}', outside its ${folder}; allowed: ${allowed}`);
    const text = withRegularFileSync(real, (fd, size) => {
      if (size > MAX_DEFINITION_FILE_BYTES)
        throw new SessionConfigurationError(file, `is ${size} bytes; allowed: ${allowed}`);
      return readFileSync(fd, 'utf8');
    });
    if (text === undefined) throw new SessionConfigurationError(file, `is not a regular file; allowed: ${allowed}`);
    return text;
  } catch (e) {
    if (e instanceof SessionConfigurationError) throw e;
    throw new SessionConfigurationError(file, `cannot be read (${(e as Error).message}); allowed: ${allowed}`);
  }
}
