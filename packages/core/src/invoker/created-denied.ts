/**
 * What a held command created where the path rules deny writing. Hiding keeps a command from the
 * files that exist when it starts; a file or folder it creates where a write rule forbids one
 * (`Write(.github/workflows/**)` with no such folder yet, `Write(.env)` with no `.env`) cannot
 * be kept from it beforehand. So after the command, the write rules are searched again: what is
 * covered now, was not covered before the command, and was made while it ran is removed, and the
 * result names it.
 */
import { lstat, realpath, rm } from 'node:fs/promises';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { DeniedWrites, ExecHiding } from '../workspace/workspace-services.js';
import { filesToHide } from './files-to-hide.js';

/** True when the policy has write rules a command is held to (`ask`: its ask rules too). */
export function holdsWrites(policy: PermissionPolicy, ask: boolean): boolean {
  return policy.hasWriteDenyRules || (ask && policy.hasWriteAskRules);
}

/** What {@link removeCreatedDenied} found: the paths it removed, and those it could not. */
export interface CreatedDenied {
  /** Workspace-relative where under the root, else absolute. */
  readonly removed: readonly string[];
  /** Set when the search or a removal failed: then the paths above may not be all. */
  readonly problem?: string;
}

const within = (path: string, before: ReadonlySet<string>): boolean => {
  for (let at = path; at.length > 1; at = at.slice(0, Math.max(at.lastIndexOf('/'), 1)))
    if (before.has(at)) return true;
  return false;
};

/** True when `path`, or a folder between the root and it, changed at or after `startedMs`. */
async function changedSince(root: string, path: string, startedMs: number): Promise<boolean> {
  const stat = await lstat(path).catch(() => undefined);
  if (stat === undefined) return false;
  if (stat.ctimeMs >= startedMs) return true;
  const base = root.replace(/\/+$/, '');
  if (!path.startsWith(`${base}/`)) return false;
  for (let at = path.lastIndexOf('/'); at > base.length; at = path.lastIndexOf('/', at - 1)) {
    const folder = await lstat(path.slice(0, at)).catch(() => undefined);
    if (folder !== undefined && folder.ctimeMs >= startedMs) return true;
  }
  return false;
}

/**
 * Removes what a command created, since `startedMs`, that the write rules of `policy` cover and
 * that `before` (the files hidden from it when it started) did not hold. `since` (a
 * `process.hrtime.bigint()` reading taken after the command ended): a look through the
 * workspace's folders begun since may serve.
 */
export async function removeCreatedDenied(
  root: string,
  policy: PermissionPolicy,
  ask: boolean,
  toolName: string,
  before: ExecHiding,
  startedMs: number,
  since?: bigint,
): Promise<CreatedDenied> {
  let after: ExecHiding;
  try {
    // Other names of kept files are not looked for: a command cannot link to a file kept from it.
    after = await filesToHide(root, policy, ask, toolName, undefined, true, false, since);
  } catch (e) {
    return { removed: [], problem: `the write rules could not be searched again: ${(e as Error).message}` };
  }
  const held = new Set([...before.unreadable, ...before.unwritable]);
  const realRoot = await realpath(root).catch(() => root);
  const shown = (path: string): string => {
    const base = [realRoot, root.replace(/\/+$/, '')].find((r) => path.startsWith(`${r}/`));
    return base === undefined ? path : path.slice(base.length + 1);
  };
  const removed: string[] = [];
  const failed: string[] = [];
  for (const path of after.unwritable) {
    if (within(path, held)) continue;
    // Made before the command started (a file another writer put there), and not moved here
    // since in a folder (whose own change time is then newer than the file's): not the command's.
    if (!(await changedSince(realRoot, path, startedMs))) continue;
    // The path is as the search found it, with no link on the way (a process left running could
    // have put one there since): what it names is removed, nothing a link leads to.
    const parent = path.slice(0, Math.max(path.lastIndexOf('/'), 1));
    if ((await realpath(parent).catch(() => undefined)) !== parent) {
      failed.push(`${shown(path)} (a folder on its path changed since it was found)`);
      continue;
    }
    try {
      await rm(path, { recursive: true, force: true });
      removed.push(shown(path));
    } catch (e) {
      failed.push(`${shown(path)} (${(e as Error).message})`);
    }
  }
  return failed.length === 0 ? { removed } : { removed, problem: `could not remove ${failed.join(', ')}` };
}

/** `created` as a result reports it, or `undefined` when nothing was removed and nothing failed. */
export function deniedWrites(created: CreatedDenied): DeniedWrites | undefined {
  if (created.removed.length === 0 && created.problem === undefined) return undefined;
  return { removed: created.removed, ...(created.problem === undefined ? {} : { problem: created.problem }) };
}

// Most paths named in the line; the metadata lists all.
const LISTED = 5;

/**
 * The bracketed line a tool adds to its output for what the kernel removed after its processes
 * (see `DeniedWrites`), or `''` when there is nothing to say.
 */
export function describeDeniedWrites(denied: DeniedWrites | undefined, by = 'this call'): string {
  if (denied === undefined) return '';
  const n = denied.removed.length;
  const listed = denied.removed.slice(0, LISTED);
  if (n > LISTED) listed.push(`and ${n - LISTED} more`);
  const removed =
    n === 0
      ? ''
      : `refused: the path rules deny writing ${listed.join(', ')}; ${n === 1 ? 'it was' : 'they were'} created by ${by} and removed.`;
  const mended = denied.restored ?? [];
  const restored =
    mended.length === 0
      ? ''
      : `refused: git settings that run a program, or git's pointers to another repository, changed by ${by} in ${mended.join(', ')}, were taken out again (a command a rule allows without asking may not add them; one a person approves may).`;
  const problem = denied.problem === undefined ? '' : `the write rules could not all be enforced: ${denied.problem}.`;
  return `[${[removed, restored, problem].filter((t) => t !== '').join(' ')}]`;
}

/** The reports as one (each path once, every problem), or `undefined` when none is. */
export function mergeDeniedWrites(...reports: readonly (DeniedWrites | undefined)[]): DeniedWrites | undefined {
  const present = reports.filter((r): r is DeniedWrites => r !== undefined);
  if (present.length === 0) return undefined;
  const removed = [...new Set(present.flatMap((r) => r.removed))];
  const restored = [...new Set(present.flatMap((r) => r.restored ?? []))];
  const problems = present.flatMap((r) => (r.problem === undefined ? [] : [r.problem]));
  return {
    removed,
    ...(restored.length === 0 ? {} : { restored }),
    ...(problems.length === 0 ? {} : { problem: problems.join('; ') }),
  };
}
