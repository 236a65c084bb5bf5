/**
 * Attachments named on the command line (`a3s run --image/--file`, `/image` and `/file` in
 * `a3s code`): a path is resolved against the folder the command started in and, when it lies in
 * the workspace, passed on workspace-relative (the name the model and the log see). Whether it
 * may be read is the workspace's decision: its path checks refuse anything outside the root (the
 * CLI's own early check below only names a mistake sooner).
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { sniffImage } from '@a3s-code/core';
import { ATTACHMENT_LIMITS, type AttachmentInput } from '@a3s-code/sdk';
import { UsageError } from './errors.js';

const FORMATS = 'PNG, JPEG, GIF or WebP';
const mb = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * One attachment for `path`, typed `image` or `file`, checked now so a mistake is named at once
 * (before a session or a prompt): the path lies in the workspace, is a file, is not too large,
 * and is an image (by its bytes) or UTF-8 text. `label` names it in errors (`--image`, `/image`).
 * The SDK checks it again when it is sent (the authority).
 * @throws UsageError naming the label, the path and what is allowed.
 */
export function attachmentFor(
  type: 'image' | 'file',
  path: string,
  startedIn: string,
  workspace: string,
  label = `--${type}`,
): AttachmentInput {
  if (path.trim() === '')
    throw new UsageError(`${label}: needs a path, e.g. ${label} ${type === 'image' ? 'shot.png' : 'app.log'}`);
  const absolute = resolve(startedIn, path);
  const rel = relative(workspace, absolute);
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  const bad = (what: string): UsageError => new UsageError(`${label} ${path}: ${what}`);
  if (rel === '') throw bad('is the workspace folder; allowed: a file inside it');
  if (!inside) throw bad(`lies outside the workspace ${workspace}; allowed: a file inside it`);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(absolute);
  } catch {
    throw bad(`no such file (looked for ${absolute})`);
  }
  if (stat.isDirectory()) throw bad(`is a folder; allowed: a file`);
  if (!stat.isFile())
    throw bad(
      `is ${stat.isFIFO() ? 'a FIFO (named pipe)' : stat.isSocket() ? 'a socket' : 'a device'}, not a regular file; allowed: a regular file`,
    );
  const cap = type === 'image' ? ATTACHMENT_LIMITS.maxImageBytes : ATTACHMENT_LIMITS.maxFileBytes;
  if (stat.size > cap)
    throw bad(
      `is ${stat.size} bytes; allowed: at most ${mb(cap)} (${cap} bytes) for ${type === 'image' ? 'an image' : 'a file'}`,
    );
  const bytes = readFileSync(absolute);
  const image = sniffImage(bytes);
  if (type === 'image' && image === undefined)
    throw bad(
      `is not a ${FORMATS} image (judged by its bytes)${isText(bytes) ? `; send a text file with ${label === '--image' ? '--file' : '/file'}` : ''}`,
    );
  if (type === 'file' && image === undefined && !isText(bytes))
    throw bad(`is a binary file (not UTF-8 text); allowed: text files and ${FORMATS} images`);
  const where = rel.split(sep).join('/');
  return type === 'image' ? { type, path: where } : { type, path: where };
}

/** Whether `bytes` are UTF-8 text without NUL bytes. */
function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The attachments of `--image` and `--file` flags (images first, each in the order given). */
export function flagAttachments(
  images: readonly string[] | undefined,
  files: readonly string[] | undefined,
  startedIn: string,
  workspace: string,
): AttachmentInput[] {
  const all = [
    ...(images ?? []).map((p) => attachmentFor('image', p, startedIn, workspace)),
    ...(files ?? []).map((p) => attachmentFor('file', p, startedIn, workspace)),
  ];
  if (all.length > ATTACHMENT_LIMITS.maxAttachments)
    throw new UsageError(`${all.length} attachments; allowed: at most ${ATTACHMENT_LIMITS.maxAttachments} a prompt`);
  return all;
}

/** A short description of attachments for the terminal: `shot.png (image), app.log (file)`. */
export function describeAttachments(attachments: readonly AttachmentInput[]): string {
  return attachments.map((a) => `${'path' in a ? a.path : (a.name ?? 'data')} (${a.type})`).join(', ');
}
