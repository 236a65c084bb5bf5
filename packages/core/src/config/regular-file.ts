/**
 * Reading a file the workspace brings without ever blocking on it: the file is opened
 * non-blocking and checked by descriptor to be a regular file before anything is read, so a FIFO
 * (which waits for a writer) or a device (`/dev/zero` never ends) put in its place is never read.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

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

/** Whether the real path `real` is `root` itself or lies outside it (both real paths). */
export function notInside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}
