/**
 * Reading a file a command could have replaced without ever blocking: the file is opened
 * non-blocking and must be a regular file before anything is read. A FIFO (opening one for reading
 * waits for a writer, holding one of the process's few file-system threads, or the host's own
 * thread, for good) or a device (`/dev/zero` never ends) is refused, and so is a file larger than
 * the limit.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Largest file the lsp tools read (16 MiB): no language server works on more. */
export const MAX_LSP_FILE_BYTES = 16 * 1024 * 1024;

/** Why a file was not read: `not_regular` or `too_large`, with the message. */
export class UnreadableFileError extends Error {
  readonly problem: 'not_regular' | 'too_large';
  constructor(problem: 'not_regular' | 'too_large', message: string) {
    super(message);
    this.name = 'UnreadableFileError';
    this.problem = problem;
  }
}

/**
 * The bytes of the regular file at `abs`.
 * @throws UnreadableFileError when it is not a regular file or is larger than `maxBytes`; the
 *   file system's error when it cannot be opened.
 */
export async function readRegularFile(abs: string, maxBytes = MAX_LSP_FILE_BYTES): Promise<Buffer> {
  const handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile())
      throw new UnreadableFileError(
        'not_regular',
        `is a ${stat.isFIFO() ? 'FIFO (named pipe)' : stat.isDirectory() ? 'folder' : 'socket or device'}, not a regular file`,
      );
    if (stat.size > maxBytes)
      throw new UnreadableFileError('too_large', `is ${stat.size} bytes, more than the ${maxBytes} the lsp tools read`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * `use(fd, size)` on a descriptor of `path` when it is a regular file, or undefined when it is
 * not one. The descriptor is closed afterwards.
 * @throws the file system's error when `path` cannot be opened, and whatever `use` throws.
 */
export function withRegularFileSync<T>(path: string, use: (fd: number, size: number) => T): T | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    return stat.isFile() ? use(fd, stat.size) : undefined;
  } finally {
    closeSync(fd);
  }
}
