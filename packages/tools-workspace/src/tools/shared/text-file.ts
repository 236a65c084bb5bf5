/**
 * Read-modify-write of a text file for `edit`, `patch` and `write` (append): the file is decoded
 * only when writing its text back cannot change a byte the change did not mean to (so binary
 * files and invalid UTF-8 are refused, and a UTF-8 byte-order mark is kept), and it is written
 * back only while it still holds the bytes that were read (a concurrent writer's change is
 * reported, never overwritten).
 */
import type { WorkspaceFileSystem } from '@a3s-code/core';
import { WorkspaceFileError } from '../../errors.js';
import { looksBinary, utf16Text, type Utf16Text } from './text.js';

/** The UTF-8 byte-order mark, as text. */
const BOM = '\ufeff';

/** Largest file decoded for a change (its text must fit one string, with room for the result). */
const EDITABLE_MAX_BYTES = 128 * 1024 * 1024;

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A file's text for describing a change (diff, digests): byte-order mark kept, so the digest is
 * the file's; invalid sequences shown as U+FFFD. Never written back.
 */
export function describedText(bytes: Uint8Array): string {
  return lenient.decode(bytes);
}

/** A file's bytes as read, or `undefined` when it did not exist. */
export type ReadBytes = Uint8Array | undefined;

/** A text file decoded for a change. */
export interface EditableText {
  /** The text without its byte-order mark. */
  readonly text: string;
  /** `'\ufeff'` when the file starts with a UTF-8 byte-order mark (written back in front), else `''`. */
  readonly bom: string;
}

/**
 * Decodes `bytes` of `path` for a change. Throws `WORKSPACE_ENCODING` for a binary file or one
 * that is not valid UTF-8: its text could not be written back without altering those bytes.
 * `what` names the tool's operation in the message (e.g. `edit`).
 */
export function decodeEditable(path: string, bytes: Uint8Array, what: string): EditableText {
  if (bytes.length > EDITABLE_MAX_BYTES)
    throw new WorkspaceFileError(
      path,
      'io',
      `is ${bytes.length} bytes; ${what} changes files of up to ${EDITABLE_MAX_BYTES} bytes (use a command for larger ones), so nothing was written`,
    );
  const utf16 = utf16Text(bytes);
  if (utf16 !== undefined) throw utf16Error(path, utf16, what);
  if (looksBinary(bytes))
    throw new WorkspaceFileError(
      path,
      'encoding',
      `is a binary file (NUL bytes or mostly control characters); ${what} changes UTF-8 text files only, so nothing was written`,
    );
  const hasBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return { text: strict.decode(hasBom ? bytes.subarray(3) : bytes), bom: hasBom ? BOM : '' };
  } catch {
    throw new WorkspaceFileError(
      path,
      'encoding',
      `is not valid UTF-8 (${describeInvalid(bytes)}); ${what} changes UTF-8 text files only, because writing the text back would replace those bytes, so nothing was written`,
    );
  }
}

/**
 * `WORKSPACE_ENCODING` for a UTF-16 file: read shows it decoded, but `what` (a change) would
 * write its text back as UTF-8, so it refuses.
 */
export function utf16Error(path: string, utf16: Utf16Text, what: string): WorkspaceFileError {
  const how = utf16.bomBytes === 0 ? 'recognised without a byte-order mark' : 'it starts with a UTF-16 byte-order mark';
  return new WorkspaceFileError(
    path,
    'encoding',
    `is ${utf16.encoding.toUpperCase()} text (${how}); ${what} changes UTF-8 text files only, so nothing was written (convert the file to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8, if that is intended)`,
  );
}

/** Where the first invalid UTF-8 sequence is, for the message. */
function describeInvalid(bytes: Uint8Array): string {
  const first = firstInvalidByte(bytes);
  if (first === undefined) return 'invalid byte sequence';
  let line = 1;
  for (let i = 0; i < first; i++) if (bytes[i] === 10) line++;
  return `invalid byte 0x${bytes[first]!.toString(16).padStart(2, '0')} at byte ${first}, line ${line}`;
}

/** Offset of the first byte that starts no valid UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 0 || i + n > bytes.length) return i;
    try {
      strict.decode(bytes.subarray(i, i + n));
    } catch {
      return i;
    }
    i += n;
  }
  return undefined;
}

/** The bytes of `path` now, or `undefined` when it does not exist. */
export async function readBytes(fs: WorkspaceFileSystem, path: string, signal: AbortSignal): Promise<ReadBytes> {
  if ((await fs.stat(path, { signal })) === undefined) return undefined;
  try {
    return await fs.readFile(path, { signal });
  } catch (error) {
    // Removed between the stat and the read: it does not exist.
    if (error instanceof WorkspaceFileError && error.problem === 'not_found') return undefined;
    throw error;
  }
}

function sameBytes(a: ReadBytes, b: ReadBytes): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/**
 * Throws `WORKSPACE_CHANGED` unless `path` still holds `read` (the bytes the change was computed
 * from; `undefined`: it did not exist). Called right before writing, so another program's write
 * in the meantime is reported instead of being overwritten.
 */
export async function assertUnchanged(
  fs: WorkspaceFileSystem,
  path: string,
  read: ReadBytes,
  signal: AbortSignal,
): Promise<void> {
  const now = await readBytes(fs, path, signal);
  if (sameBytes(read, now)) return;
  const what =
    read === undefined
      ? 'was created by someone else'
      : now === undefined
        ? 'was deleted by someone else'
        : 'was changed by someone else';
  throw new WorkspaceFileError(
    path,
    'changed',
    `${what} after it was read for this change, so nothing was written (the other change is kept); read the file again and redo the change on its current content`,
  );
}
