/**
 * Errors of prompt attachments: an attachment that cannot be sent (bad input, a path the
 * workspace refuses, too large, not an image, a binary file), and an attachment the log refers to
 * whose bytes are gone from the artifact folder.
 */
import { A3sError, type AttachmentRef } from '@a3s-code/effect';

/** What is wrong with an attachment. */
export type AttachmentProblem =
  | 'invalid'
  | 'too_many'
  | 'no_workspace'
  | 'path'
  | 'not_found'
  | 'denied'
  | 'not_a_file'
  | 'unreadable'
  | 'too_large'
  | 'prompt_too_large'
  | 'not_an_image'
  | 'media_type_mismatch'
  | 'binary_file';

/**
 * An attachment cannot be sent. Thrown before anything is written: the log gets no fact and the
 * artifact folder no file. `field` names the attachment (`attachments[1].path`).
 */
export class AttachmentError extends A3sError {
  /** The offending field, e.g. `attachments[0].path` (or `attachments` for the whole list). */
  readonly field: string;
  readonly problem: AttachmentProblem;
  constructor(field: string, problem: AttachmentProblem, message: string, cause?: unknown) {
    super('ATTACHMENT_INVALID', `${field}: ${message}`, { cause, details: { field, problem } });
    this.field = field;
    this.problem = problem;
  }
}

/**
 * A message in the log refers to an attachment whose bytes are missing from the session's artifact
 * folder (or no longer match their SHA-256), so the conversation cannot be sent as it was.
 */
export class AttachmentMissingError extends A3sError {
  /** SHA-256 of the missing bytes: the artifact's file name. */
  readonly sha256: string;
  /** Where the bytes were looked for (`<workspace>/.a3s/artifacts/<sha256>`), when on disk. */
  readonly location: string | undefined;
  constructor(ref: AttachmentRef, reason: 'missing' | 'corrupt', location?: string) {
    const what =
      ref.name === undefined ? `attachment ${ref.media_type}` : `attachment '${ref.name}' (${ref.media_type})`;
    const where = location === undefined ? '' : ` at ${location}`;
    const why = reason === 'missing' ? 'is missing from the artifact store' : 'does not match its sha256 (corrupt)';
    super('ATTACHMENT_MISSING', `${what} with sha256 ${ref.sha256}${where} ${why}`, {
      details: { sha256: ref.sha256, name: ref.name, media_type: ref.media_type, reason, location },
    });
    this.sha256 = ref.sha256;
    this.location = location;
  }
}
