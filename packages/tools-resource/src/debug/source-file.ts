/**
 * The source files a breakpoint names, read without ever blocking: opened non-blocking and checked
 * by descriptor to be a regular file before anything is read, so a FIFO swapped in for a source
 * file (a command can make one) never stops the host's thread, and `/dev/zero` is never read.
 */
import { readFileSync } from 'node:fs';
import { withRegularFileSync } from '../shared/regular-file.js';

/** Largest source file whose lines are counted (64 MiB): no source file is that big. */
const MAX_SOURCE_BYTES = 64 * 2 ** 20;

/**
 * The lines of a source file (a last line without a newline counts); infinity for a file too
 * large to be one; undefined when it is not a regular file.
 */
export function lineCount(path: string): number | undefined {
  try {
    return withRegularFileSync(path, (fd, size) => {
      if (size > MAX_SOURCE_BYTES) return Number.POSITIVE_INFINITY;
      const text = readFileSync(fd);
      let n = 0;
      for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) n++;
      return text.length > 0 && text[text.length - 1] !== 10 ? n + 1 : n;
    });
  } catch {
    return undefined;
  }
}
