/**
 * What a host attaches to a prompt, and the limits attachments are held to. An image comes from a
 * workspace path or from bytes (`data`); a file comes from a workspace path and is inlined as text
 * with its name (an image file is sent as an image; any other binary file is refused).
 */
import { MAX_ATTACHMENTS } from '@a3s-code/effect';

/** An image from a workspace path. `mediaType` is checked against the bytes, never trusted. */
export interface ImagePathAttachment {
  readonly type: 'image';
  /** Path inside the workspace (relative, or absolute under its root); the tools' path checks apply. */
  readonly path: string;
  /** The type the caller expects (`image/png`...); the sniffed type must agree. */
  readonly mediaType?: string;
  /** Name shown to the model and in the log (default: the path). */
  readonly name?: string;
}

/** An image given as bytes: a `Uint8Array`, or base64 text (a `data:image/...;base64,` URL is accepted too). */
export interface ImageDataAttachment {
  readonly type: 'image';
  readonly data: Uint8Array | string;
  /** The type the caller expects; the sniffed type must agree. */
  readonly mediaType?: string;
  /** Name shown to the model and in the log. */
  readonly name?: string;
}

/** A text file from a workspace path, inlined with its name (an image file is sent as an image). */
export interface FileAttachment {
  readonly type: 'file';
  /** Path inside the workspace (relative, or absolute under its root); the tools' path checks apply. */
  readonly path: string;
  /** Name shown to the model and in the log (default: the path). */
  readonly name?: string;
}

/** One attachment of a prompt (`session.send(prompt, { attachments })`). */
export type AttachmentInput = ImagePathAttachment | ImageDataAttachment | FileAttachment;

/** Limits on the attachments of one prompt, in bytes and count. */
export interface AttachmentLimits {
  /** Largest image. */
  readonly maxImageBytes: number;
  /** Largest text file. */
  readonly maxFileBytes: number;
  /** Largest total of one prompt's attachments. */
  readonly maxPromptBytes: number;
  /** Most attachments of one prompt. */
  readonly maxAttachments: number;
}

const MB = 1024 * 1024;

/** The default limits: 5 MB an image or file, 20 MB a prompt, 32 attachments. */
export const ATTACHMENT_LIMITS: AttachmentLimits = Object.freeze({
  maxImageBytes: 5 * MB,
  maxFileBytes: 5 * MB,
  maxPromptBytes: 20 * MB,
  maxAttachments: MAX_ATTACHMENTS,
});

/** Options of a prompt run (`send`, `stream`). */
export interface SendOptions {
  /** Images and text files sent with the prompt (kept in the log by reference). */
  readonly attachments?: readonly AttachmentInput[];
  /**
   * Cancels the run when aborted, at any stage, as `interrupt` does (it settles `cancelled`); one
   * already aborted starts nothing and the call fails with `CANCELLED`.
   */
  readonly signal?: AbortSignal;
}
