/**
 * What attached bytes are, from the bytes alone: the four image formats by their magic numbers,
 * and text (valid UTF-8 without NUL bytes). Names, extensions and declared types are never used.
 */
import type { AttachmentMediaType } from '@a3s-code/effect';

/** The image media types an attachment may have. */
export type ImageMediaType = Exclude<AttachmentMediaType, 'text/plain'>;

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89 = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

/** The image format of `bytes` by its magic number (PNG, JPEG, GIF, WebP), or `undefined`. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return undefined;
}

/** The text of `bytes` when they are valid UTF-8 without NUL bytes, else `undefined` (a binary file). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** `declared` as a canonical image media type (`image/jpg` is `image/jpeg`), or `undefined` when it names none. */
export function canonicalImageType(declared: string): ImageMediaType | undefined {
  const t = declared.trim().toLowerCase();
  if (t === 'image/jpg') return 'image/jpeg';
  return t === 'image/png' || t === 'image/jpeg' || t === 'image/gif' || t === 'image/webp' ? t : undefined;
}
