/**
 * `git` under write deny rules (`Write(secret/**)`, `Edit(…)`, `Patch(…)`): checkout, stash and
 * worktree change files without going through the workspace's `fs`, so before one runs, every file
 * it would change is listed from the repository (`git-changes.ts`) and held to the call's rules
 * (the workspace's `writeDenied`). One denied file refuses the whole operation before anything
 * changes. A ref that does not name a local commit is refused as well (checkout could guess a
 * remote branch, whose files cannot be listed beforehand).
 */
import { PermissionDeniedError, type ToolContext } from '@a3s-code/core';
import type { ChangedFile } from './git-changes.js';
import type { GitArgs } from './git-schema.js';

/** The call's write deny check. */
export type WriteDenied = (path: string) => Promise<string | undefined>;

/** Why a ref that names no local commit is refused while write deny rules are set. */
export const WRITE_DENY_REFS = 'write deny rules are set';

/** The call's write deny check, or `undefined` when its workspace denies no write. */
export function writeDeniedOf(ctx: ToolContext): WriteDenied | undefined {
  return ctx.workspace.writeDenied;
}

/**
 * Refuses (`PERMISSION_DENIED`) a mutation that would write or remove a file the call's write deny
 * rules protect, naming the rule and the file. `changed`: what the operation would change, listed
 * with {@link WRITE_DENY_REFS}.
 */
export async function refuseDeniedWrites(
  ctx: ToolContext,
  denied: WriteDenied,
  args: GitArgs,
  changed: readonly ChangedFile[],
): Promise<void> {
  const hidden = ctx.workspace.readDenied;
  for (const { workspace: path } of changed) {
    const rule = await denied(path);
    if (rule === undefined) continue;
    // A file the call may not read either is not named.
    const shown =
      hidden !== undefined && (await hidden(path)) !== undefined ? 'a file this session may not read' : path;
    throw new PermissionDeniedError(
      'git',
      `${rule} (git ${args.operation}${args.action === undefined ? '' : ` ${args.action}`} would change ${shown}; nothing was changed)`,
    );
  }
}
