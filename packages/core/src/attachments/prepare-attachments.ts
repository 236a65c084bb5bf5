/**
 * Turns a prompt's attachment inputs into checked bytes and log references, reading nothing
 * outside the workspace and writing nothing: the caller stores the bytes and appends the fact
 * only when every attachment passed. Paths go through the workspace's own path checks (no `..`,
 * no absolute path outside the root, no symlink out); sizes are capped before a file is read;
 * images are recognised by their bytes alone.
 */
import { createHash } from 'node:crypto';
import { A3sError, MAX_ATTACHMENT_NAME, type AttachmentRef } from '@a3s-code/effect';
import { realRootOf, spellings } from '../invoker/write-guard.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import { AttachmentError } from './attachment-errors.js';
import { ATTACHMENT_LIMITS, type AttachmentLimits } from './attachment-input.js';
import { canonicalImageType, decodeText, sniffImage } from './sniff.js';

/** An attachment that passed every check: its reference (for the log) and its bytes (for the artifact folder). */
export interface PreparedAttachment {
  readonly ref: AttachmentRef;
  readonly bytes: Uint8Array;
}

/** Options of {@link prepareAttachments}. */
export interface PrepareAttachmentsOptions {
  /** The workspace paths resolve in (its `fs` must serve `fs.read` for path attachments). */
  readonly workspace: WorkspaceServices;
  readonly limits?: AttachmentLimits;
  readonly signal?: AbortSignal;
  /** How errors name the list (default `attachments`; a tool passes `args.attachments`). */
  readonly field?: string;
  /**
   * The session's permission policy: a path under one of its read deny rules (`Read(.env)`) is
   * refused, however it is spelled, as the model may not read it and an attachment goes to the model.
   */
  readonly policy?: PermissionPolicy;
}

const KEYS = new Set(['type', 'path', 'data', 'mediaType', 'name']);
const FORMATS = 'PNG, JPEG, GIF or WebP';

const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;

/**
 * Checks and reads every attachment, in order. Resolves with them all, or rejects with the first
 * {@link AttachmentError} (naming the attachment and what is allowed).
 */
export async function prepareAttachments(
  inputs: unknown,
  options: PrepareAttachmentsOptions,
): Promise<PreparedAttachment[]> {
  const limits = options.limits ?? ATTACHMENT_LIMITS;
  const list = options.field ?? 'attachments';
  if (!Array.isArray(inputs))
    throw new AttachmentError(list, 'invalid', 'must be an array of {type: "image" | "file", path | data}');
  if (inputs.length > limits.maxAttachments)
    throw new AttachmentError(
      list,
      'too_many',
      `${inputs.length} attachments; allowed: at most ${limits.maxAttachments}`,
    );
  const out: PreparedAttachment[] = [];
  let total = 0;
  for (let i = 0; i < inputs.length; i++) {
    const prepared = await prepareOne(inputs[i], `${list}[${i}]`, limits, options);
    total += prepared.bytes.length;
    if (total > limits.maxPromptBytes)
      throw new AttachmentError(
        list,
        'prompt_too_large',
        `the attachments add up to more than ${mb(limits.maxPromptBytes)} (${limits.maxPromptBytes} bytes) at ${list}[${i}]; allowed: at most ${mb(limits.maxPromptBytes)} a prompt`,
      );
    out.push(prepared);
  }
  return out;
}

async function prepareOne(
  raw: unknown,
  field: string,
  limits: AttachmentLimits,
  options: PrepareAttachmentsOptions,
): Promise<PreparedAttachment> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new AttachmentError(field, 'invalid', 'must be an object {type: "image" | "file", path | data}');
  const a = raw as Record<string, unknown>;
  for (const key of Object.keys(a))
    if (!KEYS.has(key))
      throw new AttachmentError(
        `${field}.${key}`,
        'invalid',
        'is not an attachment field; allowed: type, path, data, mediaType, name',
      );
  if (a.type !== 'image' && a.type !== 'file')
    throw new AttachmentError(`${field}.type`, 'invalid', `must be "image" or "file", got ${JSON.stringify(a.type)}`);
  if (
    a.name !== undefined &&
    (typeof a.name !== 'string' || a.name.length === 0 || a.name.length > MAX_ATTACHMENT_NAME)
  )
    throw new AttachmentError(`${field}.name`, 'invalid', `must be a string of 1..${MAX_ATTACHMENT_NAME} characters`);
  if (a.mediaType !== undefined && (a.type === 'file' || typeof a.mediaType !== 'string'))
    throw new AttachmentError(
      `${field}.mediaType`,
      'invalid',
      a.type === 'file' ? 'is not accepted for a file (its type comes from its bytes)' : 'must be a string',
    );
  const hasPath = a.path !== undefined;
  const hasData = a.data !== undefined;
  if (a.type === 'file' && hasData)
    throw new AttachmentError(`${field}.data`, 'invalid', 'is accepted only for an image; a file comes from a path');
  if (hasPath === hasData)
    throw new AttachmentError(
      field,
      'invalid',
      a.type === 'file' ? 'needs a path' : 'needs exactly one of path or data',
    );
  const cap = a.type === 'image' ? limits.maxImageBytes : Math.max(limits.maxImageBytes, limits.maxFileBytes);
  const bytes = hasPath
    ? await readPath(a.path, `${field}.path`, cap, options)
    : decodeData(a.data, `${field}.data`, limits.maxImageBytes);
  const name = typeof a.name === 'string' ? a.name : hasPath ? (a.path as string) : undefined;
  const image = sniffImage(bytes);
  let mediaType: AttachmentRef['media_type'];
  if (a.type === 'image' || image !== undefined) {
    if (image === undefined)
      throw new AttachmentError(
        field,
        'not_an_image',
        `the bytes are not a ${FORMATS} image (recognised by their first bytes; names, extensions and declared types are not trusted)`,
      );
    if (typeof a.mediaType === 'string' && canonicalImageType(a.mediaType) !== image)
      throw new AttachmentError(
        `${field}.mediaType`,
        'media_type_mismatch',
        `declares ${JSON.stringify(a.mediaType)} but the bytes are ${image}; allowed: the type the bytes are, or no mediaType`,
      );
    tooLarge(bytes.length, limits.maxImageBytes, field, 'an image');
    mediaType = image;
  } else {
    if (decodeText(bytes) === undefined)
      throw new AttachmentError(
        field,
        'binary_file',
        `is a binary file (not UTF-8 text) and not a ${FORMATS} image; allowed: text files and images`,
      );
    tooLarge(bytes.length, limits.maxFileBytes, field, 'a text file');
    mediaType = 'text/plain';
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const ref: AttachmentRef =
    name === undefined
      ? { sha256, media_type: mediaType, size: bytes.length }
      : { sha256, media_type: mediaType, size: bytes.length, name };
  return { ref, bytes };
}

function tooLarge(size: number, cap: number, field: string, what: string): void {
  if (size > cap)
    throw new AttachmentError(
      field,
      'too_large',
      `is ${size} bytes; allowed: at most ${mb(cap)} (${cap} bytes) for ${what}`,
    );
}

/** Reads a workspace file through the workspace (its path checks apply), refusing one over `cap` before reading it. */
async function readPath(
  path: unknown,
  field: string,
  cap: number,
  options: PrepareAttachmentsOptions,
): Promise<Uint8Array> {
  if (typeof path !== 'string' || path.trim() === '')
    throw new AttachmentError(field, 'invalid', 'must be a non-empty path inside the workspace');
  const fs = options.workspace.fs;
  if (fs === undefined || !options.workspace.capabilities.has('fs.read'))
    throw new AttachmentError(
      field,
      'no_workspace',
      'cannot be read: the session has no readable workspace; pass an image as data instead',
    );
  const signal = options.signal ? { signal: options.signal } : undefined;
  const policy = options.policy;
  if (policy?.hasReadDenyRules === true) {
    const root = options.workspace.root;
    const rule = policy.denyingReadRule(await spellings(root, realRootOf(root), path));
    if (rule !== undefined)
      throw new AttachmentError(
        field,
        'denied',
        `${JSON.stringify(path)} is under the read deny rule ${rule}: the model may not read it, so it cannot be attached`,
      );
  }
  try {
    const stat = await fs.stat(path, signal);
    if (stat === undefined)
      throw new AttachmentError(field, 'not_found', `${JSON.stringify(path)} does not exist in the workspace`);
    if (stat.kind !== 'file')
      throw new AttachmentError(
        field,
        'not_a_file',
        stat.kind === 'directory'
          ? `${JSON.stringify(path)} is a directory, not a file`
          : `${JSON.stringify(path)} is not a regular file (a FIFO, device or socket); allowed: a regular file`,
      );
    tooLarge(stat.size, cap, field, 'an attachment');
    const bytes = await fs.readFile(path, signal);
    tooLarge(bytes.length, cap, field, 'an attachment');
    return bytes;
  } catch (e) {
    if (e instanceof AttachmentError) throw e;
    throw fromWorkspaceError(e, field, path);
  }
}

function fromWorkspaceError(e: unknown, field: string, path: string): A3sError {
  const code = A3sError.isInstance(e) ? e.code : undefined;
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'CANCELLED') return e as A3sError;
  if (code === 'WORKSPACE_PATH') return new AttachmentError(field, 'path', message, e);
  if (code === 'WORKSPACE_NOT_FOUND')
    return new AttachmentError(field, 'not_found', `${JSON.stringify(path)} does not exist in the workspace`, e);
  if (code === 'WORKSPACE_IS_DIRECTORY')
    return new AttachmentError(field, 'not_a_file', `${JSON.stringify(path)} is a directory, not a file`, e);
  return new AttachmentError(field, 'unreadable', `${JSON.stringify(path)} could not be read: ${message}`, e);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:[^,;]*;base64,/i;

/** The bytes of `data`: a `Uint8Array` (copied) or strict base64 text (optionally a `data:` URL). */
function decodeData(data: unknown, field: string, cap: number): Uint8Array {
  if (data instanceof Uint8Array) {
    tooLarge(data.length, cap, field, 'an image');
    return new Uint8Array(data);
  }
  if (typeof data !== 'string') throw new AttachmentError(field, 'invalid', 'must be a Uint8Array or base64 text');
  const text = data.replace(DATA_URL, '').replace(/\s+/g, '');
  if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text))
    throw new AttachmentError(
      field,
      'invalid',
      'is not valid base64 (A-Z a-z 0-9 + /, padded with = to a multiple of 4)',
    );
  tooLarge(
    Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0),
    cap,
    field,
    'an image',
  );
  return new Uint8Array(Buffer.from(text, 'base64'));
}
