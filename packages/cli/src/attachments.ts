/**
 * Attachments named on the command line (`a3s run --image/--file`, `/image` and `/file` in
 * `a3s code`): a path is resolved against the folder the command started in and, when it lies in
 * the workspace, passed on workspace-relative (the name the model and the log see). Whether it
 * may be read is the workspace's decision: its path checks refuse anything outside the root.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { AttachmentInput } from '@a3s-code/sdk';
import { UsageError } from './errors.js';

/** One attachment for `path`, typed `image` or `file`. */
export function attachmentFor(
  type: 'image' | 'file',
  path: string,
  startedIn: string,
  workspace: string,
): AttachmentInput {
  if (path.trim() === '')
    throw new UsageError(`--${type}: needs a path, e.g. --${type} ${type === 'image' ? 'shot.png' : 'app.log'}`);
  const absolute = resolve(startedIn, path);
  const rel = relative(workspace, absolute);
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  const where = inside ? rel.split(sep).join('/') : absolute;
  return type === 'image' ? { type, path: where } : { type, path: where };
}

/** The attachments of `--image` and `--file` flags (images first, each in the order given). */
export function flagAttachments(
  images: readonly string[] | undefined,
  files: readonly string[] | undefined,
  startedIn: string,
  workspace: string,
): AttachmentInput[] {
  return [
    ...(images ?? []).map((p) => attachmentFor('image', p, startedIn, workspace)),
    ...(files ?? []).map((p) => attachmentFor('file', p, startedIn, workspace)),
  ];
}

/** A short description of attachments for the terminal: `shot.png (image), app.log (file)`. */
export function describeAttachments(attachments: readonly AttachmentInput[]): string {
  return attachments.map((a) => `${'path' in a ? a.path : (a.name ?? 'data')} (${a.type})`).join(', ');
}
