/**
 * A user message with attachments, as a provider receives it: images as base64 parts, text files
 * inlined after the text with their names. The bytes are loaded from the attachment store by the
 * SHA-256 the log recorded and checked against it; a missing or altered artifact is an
 * {@link AttachmentMissingError} naming it.
 */
import { createHash } from 'node:crypto';
import { isImageMediaType, type AttachmentRef, type Message } from '@a3s-code/effect';
import type { LlmImage } from '../llm/llm-client.js';
import { AttachmentMissingError } from './attachment-errors.js';
import type { AttachmentStore } from './attachment-store.js';
import type { ImageMediaType } from './sniff.js';

/** Attachment bytes by SHA-256, loaded for one request. */
export type AttachmentBytes = ReadonlyMap<string, Uint8Array>;

/** Loads (and checks) the bytes of every attachment of `messages`. */
export async function loadAttachmentBytes(
  store: AttachmentStore | undefined,
  messages: readonly Message[],
): Promise<AttachmentBytes> {
  const out = new Map<string, Uint8Array>();
  for (const m of messages) {
    if (m.role !== 'user' || m.attachments === undefined) continue;
    for (const ref of m.attachments) {
      if (out.has(ref.sha256)) continue;
      const bytes = await store?.get(ref.sha256);
      const where = store?.locate(ref.sha256);
      if (bytes === undefined) throw new AttachmentMissingError(ref, 'missing', where);
      if (createHash('sha256').update(bytes).digest('hex') !== ref.sha256)
        throw new AttachmentMissingError(ref, 'corrupt', where);
      out.set(ref.sha256, bytes);
    }
  }
  return out;
}

/** How a text file appears in the message text. */
export function inlinedFile(name: string, text: string): string {
  return `<attached_file name=${JSON.stringify(name)}>\n${text}${text.endsWith('\n') ? '' : '\n'}</attached_file>`;
}

/** How an attachment whose bytes are not sent (a compaction request) is mentioned instead. */
function mention(ref: AttachmentRef): string {
  const kind = isImageMediaType(ref.media_type) ? 'image' : 'file';
  return `[attached ${kind}: ${ref.name ?? '(unnamed)'} (${ref.media_type}, ${ref.size} bytes)]`;
}

/**
 * The content of a user message with `attachments`: the text with each text file inlined (or,
 * without `bytes`, each attachment mentioned by name), and the images.
 */
export function attachmentContent(
  text: string,
  attachments: readonly AttachmentRef[],
  bytes: AttachmentBytes | undefined,
): { content: string; images: LlmImage[] } {
  const parts = [text];
  const images: LlmImage[] = [];
  for (const ref of attachments) {
    const b = bytes?.get(ref.sha256);
    if (b === undefined) parts.push(mention(ref));
    else if (isImageMediaType(ref.media_type)) {
      images.push({
        mediaType: ref.media_type as ImageMediaType,
        data: Buffer.from(b).toString('base64'),
        ...(ref.name === undefined ? {} : { name: ref.name }),
      });
    } else parts.push(inlinedFile(ref.name ?? 'attachment.txt', new TextDecoder().decode(b)));
  }
  return { content: parts.join('\n\n'), images };
}
