/**
 * `git` keeps out of the workspace's private `.a3s/` folder (fact logs, their locks, saved
 * sessions, attachments, configuration) as every file tool does. Git counts ignored files as
 * expendable, so a checkout of a branch that tracks `.a3s/effect-log/<session>.jsonl` would
 * silently replace the live log, and a stash would put `.a3s/` files back or take them away. Before
 * such an operation runs, the files it would write or remove (`git-changes.ts`) are held to
 * `.a3s/` (in any letter case, for case-insensitive file systems); one refuses the whole operation.
 */
import { PermissionDeniedError, type ToolContext } from '@a3s-code/core';
import { isProtectedPath, PROTECTED_DIR } from '../../paths/normalize.js';
import type { ChangedFile } from './git-changes.js';
import type { GitArgs } from './git-schema.js';

/**
 * Refuses (`PERMISSION_DENIED`, before anything runs) a checkout or stash whose `changed` files
 * include one under the workspace's `.a3s/` folder, naming the first such file.
 */
export async function refuseStateWrites(
  ctx: ToolContext,
  args: GitArgs,
  changed: readonly ChangedFile[],
): Promise<void> {
  if (args.operation !== 'checkout' && args.operation !== 'stash') return;
  const paths = changed.map((f) => f.workspace).filter(isProtectedPath);
  if (paths.length === 0) return;
  const hidden = ctx.workspace.readDenied;
  const first =
    hidden !== undefined && (await hidden(paths[0]!)) !== undefined ? 'a file this session may not read' : paths[0]!;
  const more = paths.length > 1 ? ` and ${paths.length - 1} more file${paths.length > 2 ? 's' : ''}` : '';
  throw new PermissionDeniedError(
    'git',
    `git ${args.operation}${args.action === undefined ? '' : ` ${args.action}`} would change ${first}${more} inside the workspace's private ${PROTECTED_DIR}/ folder (the session's fact logs, locks and saved state), which tools may not write; nothing was changed`,
  );
}
