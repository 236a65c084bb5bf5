/**
 * Opening a fact log's file, for writing (the store) or for reading only (replay, the viewer,
 * a delegated worker's log). A log is a regular file of its own: a symbolic link in its place
 * (to another session's log, to a file outside the workspace), a hard-linked file, a FIFO, a
 * device or a folder is refused before a byte is read or written, so opening never waits for
 * ever, never reads without end and never truncates or appends to a file that is not the log.
 * The size is checked before reading (a log is read whole), and every complete line must be
 * UTF-8 as the store writes it.
 */
import { isUtf8, constants as bufferConstants } from 'node:buffer';
import { constants as fsConstants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { A3sError, FactParseError } from '@a3s-code/effect';

/**
 * The largest log that can be opened, in bytes: one JavaScript string holds its text (about
 * 512 MiB). A larger log is refused before it is read (`FACT_LOG_TOO_LARGE`).
 */
export const MAX_FACT_LOG_BYTES: number = bufferConstants.MAX_STRING_LENGTH;

/** The file at a log's (or its lock's) path is not a regular file of its own. Names the path and what it is. */
export class FactLogFileError extends A3sError {
  /** The offending path. */
  readonly path: string;
  /** What is wrong with it (`is a symbolic link`, `is a FIFO`, ...). */
  readonly problem: string;
  constructor(
    path: string,
    problem: string,
    cause?: unknown,
    allowed = 'a regular file with one link (remove it, or start a new session)',
  ) {
    super('FACT_LOG_FILE', `fact log file '${path}' ${problem}; allowed: ${allowed}`, {
      cause,
      details: { path, problem },
    });
    this.path = path;
    this.problem = problem;
  }
}

/** A log too large to read whole. Names the file, its size and the limit. */
export class FactLogTooLargeError extends A3sError {
  constructor(path: string, size: number, limit: number) {
    super(
      'FACT_LOG_TOO_LARGE',
      `fact log '${path}' is ${size} bytes (${mib(size)}), over the ${limit} bytes (${mib(limit)}) a log can have: it is read whole, and one JavaScript string holds no more; start a new session`,
      { details: { path, size, limit } },
    );
  }
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const { O_RDONLY, O_RDWR, O_APPEND, O_CREAT } = fsConstants;
// Not defined on Windows, where neither a FIFO nor this kind of link can take a log's place.
const O_NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;
// Opening a FIFO for reading would wait for a writer; with it, the open returns and fstat refuses it.
const O_NONBLOCK = fsConstants.O_NONBLOCK ?? 0;

/** Flags of the store's handle: read, append, create, never through a link, never waiting. */
const APPEND_FLAGS = O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK;
/** Flags for reading a file the runtime wrote itself (a log, a lock): never through a link, never waiting. */
export const READ_OWN_FLAGS: number = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/** What is at a path that is not a regular file (`is a FIFO (named pipe)`, ...), for an error. */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'is a folder';
  if (stats.isFIFO()) return 'is a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'is a device';
  if (stats.isSocket()) return 'is a socket';
  if (stats.isSymbolicLink()) return 'is a symbolic link';
  return 'is not a regular file';
}

/**
 * Opens `path` with `flags` and checks what was opened (not what the path named a moment
 * before): a regular file, with one link when `ownFile`. Closes the handle on refusal.
 * @throws FactLogFileError naming the path and what is there instead.
 */
export async function openRegular(
  path: string,
  flags: number,
  ownFile: boolean,
): Promise<{ readonly fh: FileHandle; readonly size: number; readonly mtimeMs: number }> {
  let fh: FileHandle;
  try {
    fh = await open(path, flags, 0o666);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ELOOP: O_NOFOLLOW met a link (EMLINK on FreeBSD); EISDIR: a folder opened for writing.
    if (code === 'ELOOP' || code === 'EMLINK') throw new FactLogFileError(path, 'is a symbolic link', e);
    if (code === 'EISDIR') throw new FactLogFileError(path, 'is a folder', e);
    if (code === 'ENXIO') throw new FactLogFileError(path, 'is a socket or a device with nothing behind it', e);
    // ENOENT stays as it is: a lock that is gone is no error.
    if (code === 'ENOENT' || code === undefined) throw e;
    throw new FactLogFileError(
      path,
      `cannot be opened (${code}${code === 'EACCES' || code === 'EPERM' ? ': permission denied' : ''})`,
      e,
      'a file this user can read and write',
    );
  }
  try {
    const stats = await fh.stat();
    if (!stats.isFile()) throw new FactLogFileError(path, kindOf(stats));
    if (ownFile && stats.nlink > 1) {
      throw new FactLogFileError(path, `has ${stats.nlink} hard links (it is also another file)`);
    }
    return { fh, size: stats.size, mtimeMs: stats.mtimeMs };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
}

/** About how many bytes each piece of a log's text holds (whole lines; a longer line is one piece). */
const PIECE_BYTES = 64 * 1024;

/**
 * Reads the whole file behind `fh` (`size` bytes by its fstat). Its text is decoded in pieces of
 * whole lines as it is iterated (again on each iteration): V8 makes many small strings far faster
 * than one of many megabytes (2–3 ms against 60–80 ms for 20 MiB), and a reader can let each go
 * once its lines are read.
 * @throws FactLogTooLargeError over {@link MAX_FACT_LOG_BYTES}. Iterating the text throws
 *   FactParseError (field `utf8`) at the piece holding a complete line that is not UTF-8.
 */
export async function readLogHandle(
  path: string,
  fh: FileHandle,
  size: number,
): Promise<{ text: Iterable<string>; bytes: number }> {
  if (size > MAX_FACT_LOG_BYTES) throw new FactLogTooLargeError(path, size, MAX_FACT_LOG_BYTES);
  const buf = await fh.readFile();
  if (buf.length > MAX_FACT_LOG_BYTES) throw new FactLogTooLargeError(path, buf.length, MAX_FACT_LOG_BYTES);
  return { text: { [Symbol.iterator]: () => pieces(buf) }, bytes: buf.length };
}

/** The text of `buf` in pieces of about {@link PIECE_BYTES}, each but the last ending with a newline. */
function* pieces(buf: Buffer): Generator<string> {
  let checked = false;
  let start = 0;
  while (start < buf.length) {
    let end = buf.length;
    if (buf.length - start > PIECE_BYTES) {
      // A newline byte never sits inside a UTF-8 character, so each piece decodes on its own.
      const before = buf.lastIndexOf(0x0a, start + PIECE_BYTES - 1);
      const after = before >= start ? before : buf.indexOf(0x0a, start + PIECE_BYTES);
      if (after >= 0) end = after + 1;
    }
    const piece = buf.toString('utf8', start, end);
    // The decoder replaces a byte that is not UTF-8 with U+FFFD; a log with none has none.
    if (!checked && piece.includes('\uFFFD')) {
      checked = true;
      if (!isUtf8(buf)) checkUtf8Lines(buf);
    }
    yield piece;
    start = end;
  }
}

/** How many bytes of UTF-8 the first `length` characters of `text` (its pieces joined) take. */
export function utf8BytesOf(text: Iterable<string>, length: number): number {
  let bytes = 0;
  let left = length;
  for (const piece of text) {
    if (left <= 0) break;
    const part = left >= piece.length ? piece : piece.slice(0, left);
    bytes += Buffer.byteLength(part, 'utf8');
    left -= part.length;
  }
  return bytes;
}

/**
 * Throws for the first line of `buf` that is not UTF-8, unless it is a last, unterminated line
 * that is no fact (a torn write, cut anywhere, even inside a character: it is cut off anyway).
 */
function checkUtf8Lines(buf: Buffer): void {
  let start = 0;
  for (let line = 1; start < buf.length; line++) {
    const nl = buf.indexOf(0x0a, start);
    const end = nl === -1 ? buf.length : nl;
    const bytes = buf.subarray(start, end);
    if (!isUtf8(bytes)) {
      // A write cut short ends inside a character at worst; a bad byte with more after it was written so.
      if (nl === -1 && endsInsideCharacter(bytes, firstBadByte(bytes)) && !isJson(bytes.toString('utf8'))) return;
      throw new FactParseError(
        line,
        'utf8',
        `is not valid UTF-8 (the byte at offset ${start + firstBadByte(bytes)} of the file); the store never writes such a line, so the file was changed by something else`,
      );
    }
    start = end + 1;
  }
}

/** True when `line` is JSON: no proper prefix of a fact's line is, so a torn line never is. */
function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Offset in `bytes` of the first byte that does not start a complete, valid UTF-8 character. */
/** True when the bytes of `bytes` from `at` on are the start of one UTF-8 character, cut before its end. */
function endsInsideCharacter(bytes: Buffer, at: number): boolean {
  const lead = bytes[at]!;
  const length =
    lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  const rest = bytes.length - at;
  if (rest >= length) return false;
  for (let i = at + 1; i < bytes.length; i++) if ((bytes[i]! & 0xc0) !== 0x80) return false;
  return true;
}

function firstBadByte(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const extra =
      lead < 0x80
        ? 0
        : lead >= 0xc2 && lead <= 0xdf
          ? 1
          : lead >= 0xe0 && lead <= 0xef
            ? 2
            : lead <= 0xf4 && lead >= 0xf0
              ? 3
              : -1;
    if (extra < 0 || !isUtf8(bytes.subarray(i, i + extra + 1)) || i + extra >= bytes.length) return i;
    i += extra + 1;
  }
  return i;
}

/** Opens a log for appending (creating it) without reading it: the store's handle. */
export async function openLogHandle(path: string): Promise<FileHandle> {
  return (await openRegular(path, APPEND_FLAGS, true)).fh;
}

/** Opens a log for appending (creating it): the store's handle and the log's text. */
export async function openLogForAppend(
  path: string,
): Promise<{ fh: FileHandle; text: Iterable<string>; bytes: number }> {
  const { fh, size } = await openRegular(path, APPEND_FLAGS, true);
  try {
    return { fh, ...(await readLogHandle(path, fh, size)) };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
}

/** How {@link readFactLogFile} opens a log. */
export interface ReadFactLogOptions {
  /**
   * Follow a symbolic link at the path (default false: refuse it, as the store does). A path the
   * user named explicitly may be a link; one found under `.a3s/effect-log` may not.
   */
  readonly followLinks?: boolean;
}

/**
 * The text of the fact log at `path`, for reading only (nothing is written). Refuses what is not
 * a regular file (a FIFO, a device, a folder, a link unless `followLinks`) without waiting.
 * @throws FactLogFileError, FactLogTooLargeError, FactParseError (a complete line that is not UTF-8).
 */
export async function readFactLogFile(path: string, options: ReadFactLogOptions = {}): Promise<string> {
  const flags = options.followLinks === true ? O_RDONLY | O_NONBLOCK : READ_OWN_FLAGS;
  const { fh, size } = await openRegular(path, flags, false);
  try {
    return [...(await readLogHandle(path, fh, size)).text].join('');
  } finally {
    await fh.close().catch(() => undefined);
  }
}
