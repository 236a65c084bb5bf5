/**
 * The images of one cell, as the host accepts them from its kernel. A kernel's messages are the
 * cell's to forge (the protocol channel is reachable from the cell), so each image is checked
 * before it is kept: its media type must be one of {@link CELL_IMAGE_TYPES}, its data base64 whose
 * bytes start with that type's signature, and the cell's images together stay within
 * {@link MAX_CELL_IMAGES} and {@link MAX_CELL_IMAGE_BYTES}. An image that fails is dropped and the
 * cell's output says why.
 */
import type { CellImage } from './kernel-types.js';

/** The most images one cell may return. */
export const MAX_CELL_IMAGES = 50;
/** The most image bytes (decoded) one cell may return. */
export const MAX_CELL_IMAGE_BYTES = 32 * 2 ** 20;

/** The media types a cell's image may have, with the bytes each must start with. */
export const CELL_IMAGE_TYPES: Readonly<Record<string, readonly (readonly (number | undefined)[])[]>> = {
  'image/png': [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  ],
  // RIFF, four bytes of size, WEBP.
  'image/webp': [[0x52, 0x49, 0x46, 0x46, undefined, undefined, undefined, undefined, 0x57, 0x45, 0x42, 0x50]],
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const startsWith = (bytes: Buffer, signature: readonly (number | undefined)[]): boolean =>
  bytes.length >= signature.length && signature.every((b, i) => b === undefined || bytes[i] === b);

/** Collects a cell's images; {@link add} returns the note for the output when it drops one. */
export class CellImages {
  readonly #images: CellImage[] = [];
  #bytes = 0;
  #offered = 0;

  /** The images kept. */
  get list(): readonly CellImage[] {
    return this.#images;
  }

  /** Keeps the image a kernel sent, or returns why it was dropped (a line for the output). */
  add(mime: unknown, data: unknown): string | undefined {
    this.#offered += 1;
    const why = this.#reject(mime, data);
    return why === undefined ? undefined : `[image ${this.#offered} dropped: ${why}]\n`;
  }

  #reject(mime: unknown, data: unknown): string | undefined {
    const signatures = typeof mime === 'string' ? CELL_IMAGE_TYPES[mime] : undefined;
    if (signatures === undefined)
      return `its media type ${JSON.stringify(String(mime)).slice(0, 80)} is not allowed (allowed: ${Object.keys(CELL_IMAGE_TYPES).join(', ')})`;
    if (typeof data !== 'string' || data.length % 4 !== 0 || !BASE64.test(data)) return 'its data is not base64';
    if (this.#images.length >= MAX_CELL_IMAGES) return `a cell returns at most ${MAX_CELL_IMAGES} images`;
    const size = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
    if (this.#bytes + size > MAX_CELL_IMAGE_BYTES)
      return `a cell's images hold at most ${MAX_CELL_IMAGE_BYTES / 2 ** 20} MB together (this one has ${size} bytes); save large images to files instead`;
    const head = Buffer.from(data.slice(0, 24), 'base64');
    if (!signatures.some((s) => startsWith(head, s))) return `its data does not start with the ${mime} signature`;
    this.#bytes += size;
    this.#images.push({ mime: mime as string, data });
    return undefined;
  }
}
