/** Text helpers: binary detection, decoding, digests and bounded previews. */
import { createHash } from 'node:crypto';
import { hasUnopenableName } from '../../paths/byte-names.js';

const decoder = new TextDecoder('utf-8');

/** True when the bytes look binary: a NUL byte in the first 8 KiB, or mostly control bytes. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 7 || (b > 13 && b < 32 && b !== 27)) control++;
  }
  return n > 0 && control / n > 0.3;
}

/** A UTF-16 text encoding a file declares with its byte-order mark. */
export type Utf16Encoding = 'utf-16le' | 'utf-16be';

/** The UTF-16 encoding whose byte-order mark `bytes` starts with (`FF FE` or `FE FF`), if any. */
export function utf16Bom(bytes: Uint8Array): Utf16Encoding | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** A file's UTF-16 text encoding, and whether it was declared by a byte-order mark or recognised without one. */
export interface Utf16Text {
  readonly encoding: Utf16Encoding;
  /** Bytes of the byte-order mark in front of the text: 2, or 0 when it was recognised without one. */
  readonly bomBytes: 0 | 2;
}

/** Bytes looked at to recognise UTF-16 without a byte-order mark. */
const UTF16_SAMPLE_BYTES = 8192;

/**
 * The UTF-16 encoding the start of a file (its first 8 KiB are looked at) looks like when it has
 * no byte-order mark, as Windows tools write it: nearly every high byte of a code unit is NUL
 * while the low bytes are not (ASCII-range text), and they decode into text with no NUL and
 * hardly any control characters (binary data of 16-bit numbers fails here). The whole file must
 * still decode (see {@link utf16Text}).
 */
export function utf16Sample(bytes: Uint8Array): Utf16Encoding | undefined {
  const n = Math.min(bytes.length, UTF16_SAMPLE_BYTES);
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const units = n / 2;
  const encoding: Utf16Encoding | undefined =
    oddNul >= units * 0.7 && evenNul <= units * 0.05
      ? 'utf-16le'
      : evenNul >= units * 0.7 && oddNul <= units * 0.05
        ? 'utf-16be'
        : undefined;
  if (encoding === undefined) return undefined;
  let control = 0;
  try {
    const sample = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, n - (n % 2)), {
      stream: true,
    });
    for (let i = 0; i < sample.length; i++) {
      const c = sample.charCodeAt(i);
      if (c === 0) return undefined;
      if ((c < 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13 && c !== 27) || (c >= 0x7f && c <= 0x9f)) control++;
    }
    if (control > sample.length * 0.01) return undefined;
  } catch {
    return undefined;
  }
  return encoding;
}

/**
 * UTF-16 text without a byte-order mark: an even number of bytes, a start that looks like it
 * ({@link utf16Sample}), and the whole file decodes without an unpaired surrogate.
 */
function utf16WithoutBom(bytes: Uint8Array): Utf16Encoding | undefined {
  if (bytes.length < 4 || bytes.length % 2 !== 0) return undefined;
  const encoding = utf16Sample(bytes);
  if (encoding === undefined) return undefined;
  try {
    new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return encoding;
}

/** The UTF-16 encoding of `bytes`: declared by a byte-order mark, or recognised without one; else `undefined`. */
export function utf16Text(bytes: Uint8Array): Utf16Text | undefined {
  const bom = utf16Bom(bytes);
  if (bom !== undefined) return { encoding: bom, bomBytes: 2 };
  const sniffed = utf16WithoutBom(bytes);
  return sniffed === undefined ? undefined : { encoding: sniffed, bomBytes: 0 };
}

/** Decodes UTF-8 (invalid sequences become U+FFFD). */
export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** `sha256:<hex>` of a text or bytes. */
export function digestOf(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** UTF-8 byte length of a string. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cuts a text to at most `maxBytes` UTF-8 bytes (never splitting a character). */
export function cutBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (byteLength(text) <= maxBytes) return { text, cut: false };
  const buf = Buffer.from(text, 'utf8');
  let end = maxBytes;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return { text: buf.toString('utf8', 0, end), cut: true };
}

/**
 * Splits text into lines without their terminators (`\r\n` or `\n`; a text whose only line ends
 * are `\r`, as old Mac files have, at `\r`); no phantom last line.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(text.includes('\n') || !text.includes('\r') ? '\n' : '\r');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * A line as `read` and `grep` show it: a carriage return inside it (not its line end) is shown as
 * `^M`. Output loses such a CR (it would let later text redraw the line, or pose as a line of
 * its own), so it is named instead of dropped.
 */
export function shownLine(text: string): string {
  return text.includes('\r') ? text.replace(/\r/g, '^M') : text;
}

// C0 controls (newline and tab included), DEL and C1 controls.
const CONTROL_IN_NAME = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A path as a line of tool output shows it: as it is, or, when it holds a control character (a
 * newline would split the line, an escape would be stripped from the output), starts with a
 * double quote or holds a byte that is not UTF-8 (spelt `\udcXX`), as a JSON string, which says the
 * exact name.
 */
export function shownPath(path: string): string {
  return CONTROL_IN_NAME.test(path) || path.startsWith('"') || hasUnopenableName(path) ? JSON.stringify(path) : path;
}
