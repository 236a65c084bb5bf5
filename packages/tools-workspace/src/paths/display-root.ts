/**
 * What the workspaces without a local disk (in memory, in an S3 bucket) share: the capabilities
 * they serve (files and search; no `exec`, no `git`) and their display root.
 */
import type { WorkspaceServiceCapability } from '@a3s-code/core';
import { WorkspaceConfigurationError } from '../errors.js';

/** The capabilities of a workspace that serves files only. */
export function fileOnlyCapabilities(): ReadonlySet<WorkspaceServiceCapability> {
  return new Set<WorkspaceServiceCapability>(['fs.read', 'fs.write', 'fs.list', 'search']);
}

/**
 * The display root (default `/workspace`), without a trailing `/`.
 * @throws WorkspaceConfigurationError when it is not an absolute POSIX path.
 */
export function displayRoot(root: string | undefined): string {
  const r = root ?? '/workspace';
  if (typeof r !== 'string' || !r.startsWith('/') || r.includes('\0')) {
    throw new WorkspaceConfigurationError('root', `must be an absolute POSIX path, got ${JSON.stringify(r)}`);
  }
  return r.length > 1 && r.endsWith('/') ? r.slice(0, -1) : r;
}
