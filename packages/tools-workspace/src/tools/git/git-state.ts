/**
 * `git` keeps out of the workspace's private `.a3s/` folder (fact logs, their locks, saved
 * sessions, attachments, configuration) as every file tool does. Git counts ignored files as
 * expendable, so a checkout of a branch that tracks `.a3s/effect-log/<session>.jsonl` would
 * silently replace the live log, and a stash would put `.a3s/` files back or take them away. Before
 * such an operation runs, the files it would write or remove under `.a3s/` (in any letter case, for
 * case-insensitive file systems) are listed from the repository; one refuses the whole operation.
 */
import { PermissionDeniedError, type ToolContext, type WorkspaceGit } from '@a3s-code/core';
import { PROTECTED_DIR } from '../../paths/normalize.js';
import type { GitArgs } from './git-schema.js';
import { git } from './git-run.js';

/** The workspace's `.a3s` (git runs in the workspace root), in any letter case. */
const STATE_PATHSPEC = `:(icase)${PROTECTED_DIR}`;

const names = (out: string): string[] => out.split('\0').filter((n) => n !== '');
const isOid = (s: string): boolean => /^[0-9a-f]{40,64}$/.test(s);

/** The commit `rev` names, or `undefined`. */
async function commitOf(service: WorkspaceGit, ctx: ToolContext, rev: string): Promise<string | undefined> {
  const r = await service.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    signal: ctx.signal,
  });
  const oid = r.exitCode === 0 ? (r.stdout.head + r.stdout.tail).trim() : '';
  return isOid(oid) ? oid : undefined;
}

/** The empty tree, to list every file of a commit as a change (no `HEAD` yet, a stash's untracked files). */
async function emptyTree(service: WorkspaceGit, ctx: ToolContext): Promise<string> {
  return (await git(service, ctx, ['hash-object', '-t', 'tree', '/dev/null'])).trim();
}

/** Workspace-relative paths under `.a3s/` that differ between `from` and `to` (trees, or the working tree). */
async function stateDiff(service: WorkspaceGit, ctx: ToolContext, range: readonly string[]): Promise<string[]> {
  return names(
    await git(service, ctx, [
      'diff',
      '--name-only',
      '-z',
      '--no-renames',
      '--relative',
      ...range,
      '--',
      STATE_PATHSPEC,
    ]),
  );
}

/** The commits a checkout of `ref` may check out: the one it names, else the remote branches of that name. */
async function checkoutTargets(service: WorkspaceGit, ctx: ToolContext, ref: string): Promise<string[]> {
  const own = await commitOf(service, ctx, ref);
  if (own !== undefined) return [own];
  // `git checkout <name>` with no such branch creates it from a remote branch of that name.
  const remote = await git(service, ctx, ['for-each-ref', '--format=%(objectname)', `refs/remotes/*/${ref}`]);
  return remote.split('\n').filter(isOid);
}

/** Paths under `.a3s/` that `args` (a checkout or a stash) would write or remove. */
async function stateFilesChangedBy(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<string[]> {
  const out: string[] = [];
  if (args.operation === 'checkout' && !args.create) {
    const head = (await commitOf(service, ctx, 'HEAD')) ?? (await emptyTree(service, ctx));
    for (const target of await checkoutTargets(service, ctx, args.ref!))
      out.push(...(await stateDiff(service, ctx, [head, target])));
  } else if (args.operation === 'stash' && (args.action ?? 'push') === 'push') {
    if ((await commitOf(service, ctx, 'HEAD')) === undefined) return out;
    out.push(...(await stateDiff(service, ctx, ['HEAD'])), ...(await stateDiff(service, ctx, ['--cached'])));
    if (args.include_untracked === true)
      out.push(
        ...names(await git(service, ctx, ['ls-files', '-z', '--others', '--exclude-standard', '--', STATE_PATHSPEC])),
      );
  } else if (args.operation === 'stash' && (args.action === 'pop' || args.action === 'apply')) {
    const stash = await commitOf(service, ctx, `stash@{${args.index ?? 0}}`);
    if (stash === undefined) return out;
    out.push(...(await stateDiff(service, ctx, [`${stash}^1`, stash])));
    const untracked = await commitOf(service, ctx, `${stash}^3`);
    if (untracked !== undefined)
      out.push(...(await stateDiff(service, ctx, [await emptyTree(service, ctx), untracked])));
  }
  return out;
}

/**
 * Refuses (`PERMISSION_DENIED`, before anything runs) a checkout or stash that would write or
 * remove a file under the workspace's `.a3s/` folder, naming the first such file.
 */
export async function refuseStateWrites(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<void> {
  const paths = [...new Set(await stateFilesChangedBy(service, ctx, args))];
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
