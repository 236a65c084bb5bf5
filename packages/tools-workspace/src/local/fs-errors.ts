/** Maps Node's `fs` error codes to {@link WorkspaceFileError}. */
import { CancelledError } from '@a3s-code/core';
import { WorkspaceFileError } from '../errors.js';

/** Rethrows a Node fs error as a typed workspace error (other errors pass through). */
export function mapFsError(error: unknown, rel: string): never {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENOENT') throw new WorkspaceFileError(rel, 'not_found', 'no such file or directory', error);
  if (code === 'EISDIR') throw new WorkspaceFileError(rel, 'is_directory', 'is a directory, not a file', error);
  if (code === 'ENOTDIR')
    throw new WorkspaceFileError(rel, 'not_directory', 'a parent of this path is not a directory', error);
  if (code === 'ENOTEMPTY') throw new WorkspaceFileError(rel, 'not_empty', 'the directory is not empty', error);
  // Opening a socket (or a device with nothing behind it) fails so; a file was what was wanted.
  if (code === 'ENXIO') throw notRegularError(rel, 'a socket or device');
  if (code === 'ABORT_ERR') throw new CancelledError(`workspace operation on ${rel || '.'}`);
  // Node reads a file whole into one buffer, which holds at most 2 GiB.
  if (code === 'ERR_FS_FILE_TOO_LARGE')
    throw new WorkspaceFileError(
      rel,
      'io',
      `${(error as Error).message.replace(/\s*\(ERR_FS_FILE_TOO_LARGE\)$/, '')}: the file tools read files of up to 2 GiB whole; allowed: a part of it through a command (head, tail, sed -n '1000,1100p'), or grep`,
      error,
    );
  if (typeof code === 'string')
    throw new WorkspaceFileError(rel, 'io', `${systemReason(error as Error, code)} (${code})`, error);
  throw error;
}

/** What a special file is, for messages: `a FIFO (named pipe)`, `a socket`, ... */
export function specialKind(s: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/**
 * The error for a FIFO, socket or device where a regular file was expected: reading one could
 * wait forever (a FIFO with no writer) or never end (`/dev/zero`), so it is refused before any read.
 */
export function notRegularError(rel: string, kind: string, allowed = 'a regular file'): WorkspaceFileError {
  return new WorkspaceFileError(rel, 'not_regular', `is ${kind}, not a regular file; allowed: ${allowed}`);
}

/**
 * What the system said, without the code it begins with and the call and paths it ends with
 * (`EACCES: permission denied, open '/proc/self/fd/20/x'` → `permission denied`): the path is the
 * workspace path the error names already, and a descriptor path means nothing to the reader.
 */
function systemReason(error: Error, code: string): string {
  const text = String(error.message ?? '');
  const bare = (text.startsWith(`${code}: `) ? text.slice(code.length + 2) : text).replace(
    /, [a-z_]+(?: '[^']*')?(?: -> '[^']*')?$/,
    '',
  );
  return bare.trim() === '' ? 'input/output error' : bare;
}

/** Throws `CANCELLED` when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new CancelledError(what, signal.reason);
}
