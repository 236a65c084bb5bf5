import type { Checker } from './check.js';

/**
 * Media types an attachment reference may carry: the four image formats a prompt sends as images,
 * and `text/plain` for a text file the prompt inlines with its name.
 */
export const ATTACHMENT_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'text/plain'] as const;

/** One of {@link ATTACHMENT_MEDIA_TYPES}. */
export type AttachmentMediaType = (typeof ATTACHMENT_MEDIA_TYPES)[number];

/** Most attachments one `user.message` may reference. */
export const MAX_ATTACHMENTS = 32;

/** Longest attachment name, in characters. */
export const MAX_ATTACHMENT_NAME = 1024;

/**
 * An attachment of a `user.message`, by reference: its bytes live outside the log, in the
 * session's artifact folder under their SHA-256, so the log stays small and replayable.
 */
export interface AttachmentRef {
  /** Lower-case hex SHA-256 of the bytes (64 characters): the artifact's name. */
  sha256: string;
  /** What the bytes are (sniffed when the attachment was made, never taken from a name). */
  media_type: AttachmentMediaType;
  /** Size of the bytes. */
  size: number;
  /** The file name or workspace path it came from, when it had one. */
  name?: string;
}

/** True for the media types sent to a model as images. */
export function isImageMediaType(type: string): boolean {
  return type !== 'text/plain' && (ATTACHMENT_MEDIA_TYPES as readonly string[]).includes(type);
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Checks `payload.attachments` when present (absent in older logs and in messages without any). */
export function validateAttachments(c: Checker, p: Record<string, unknown>, path: string): void {
  if (p.attachments === undefined) return;
  const list = c.array(p, 'attachments', path);
  if (list.length === 0 || list.length > MAX_ATTACHMENTS)
    c.fail(`${path}.attachments`, `must hold 1..${MAX_ATTACHMENTS} references (omit the field for none)`);
  list.forEach((raw, i) => {
    const at = `${path}.attachments[${i}]`;
    const a = c.object(raw, at);
    if (!SHA256.test(c.string(a, 'sha256', at))) c.fail(`${at}.sha256`, 'must be 64 lower-case hex characters');
    c.oneOf(a, 'media_type', at, ATTACHMENT_MEDIA_TYPES);
    c.integer(a, 'size', at);
    if (a.name !== undefined && (typeof a.name !== 'string' || a.name.length > MAX_ATTACHMENT_NAME))
      c.fail(`${at}.name`, `must be a string of at most ${MAX_ATTACHMENT_NAME} characters or absent`);
  });
}

/** The fast-path twin of {@link validateAttachments}: true only for values it accepts. */
export function wellFormedAttachments(list: unknown): boolean {
  if (list === undefined) return true;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_ATTACHMENTS) return false;
  for (const a of list) {
    if (typeof a !== 'object' || a === null || Array.isArray(a)) return false;
    const r = a as Record<string, unknown>;
    if (typeof r.sha256 !== 'string' || !SHA256.test(r.sha256)) return false;
    if (typeof r.media_type !== 'string' || !(ATTACHMENT_MEDIA_TYPES as readonly string[]).includes(r.media_type))
      return false;
    if (typeof r.size !== 'number' || !Number.isSafeInteger(r.size) || r.size < 0) return false;
    if (r.name !== undefined && (typeof r.name !== 'string' || r.name.length > MAX_ATTACHMENT_NAME)) return false;
  }
  return true;
}
