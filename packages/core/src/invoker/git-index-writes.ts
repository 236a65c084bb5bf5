/**
 * What a held command put in git's index or history where the write rules deny it. The rules keep
 * files from the working tree (see `created-denied.ts`), but git holds files that need never be on
 * disk (`git update-index --cacheinfo …,.github/workflows/x.yml`), or keeps in its index one the
 * sweep removed from the tree (`git checkout other -- .github`), and a commit ships them. So when
 * a held command changed the index or moved `HEAD`, the paths staged against `HEAD` and those the
 * commits it added on top of its starting `HEAD` touch are judged by the write rules: such commits
 * are undone (`git reset --soft` to where the command started, their other changes left staged)
 * and the denied paths' index entries are set back to `HEAD`'s. The result names them.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalSpellings } from '../permissions/path-spelling.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { DeniedWrites, WorkspaceGit } from '../workspace/workspace-services.js';

/** Git's state where a command started: the stamp of its index and the commit `HEAD` named. */
export interface GitMark {
  readonly index: string;
  readonly head: string | undefined;
}

function stampOf(path: string): string {
  const s = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return s === undefined ? '-' : `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

function text(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The commit `HEAD` of the git folder `dir` names (through its branch), or `undefined`. */
function headOf(dir: string): string | undefined {
  const head = text(join(dir, 'HEAD'));
  if (head === undefined || !head.startsWith('ref: ')) return head;
  const ref = head.slice(5);
  const loose = text(join(dir, ref));
  if (loose !== undefined) return loose;
  const packed = text(join(dir, 'packed-refs'));
  return packed
    ?.split('\n')
    .find((l) => l.endsWith(` ${ref}`))
    ?.split(' ')[0];
}

/** Git's state in the workspace at `root` (a repository whose `.git` is a folder), or `undefined`. */
export function markGit(root: string): GitMark | undefined {
  const dir = join(root, '.git');
  if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) return undefined;
  return { index: stampOf(join(dir, 'index')), head: headOf(dir) };
}

async function git(service: WorkspaceGit, args: readonly string[]): Promise<string | undefined> {
  const r = await service.run(args);
  if (r.exitCode !== 0) return undefined;
  if (r.stdout.truncated) throw new Error(`git ${args[0]} listed more paths than can be judged`);
  return r.stdout.head;
}

const names = (out: string | undefined): string[] => (out ?? '').split('\0').filter((p) => p.length > 0);

/**
 * Undoes what the command that started at `before` put in git's index or history where the write
 * rules of `policy` (`ask`: its ask rules too) deny it (see the module comment); what it undid, or
 * `undefined`.
 */
export async function undoDeniedGitWrites(
  root: string,
  service: WorkspaceGit,
  policy: PermissionPolicy,
  ask: boolean,
  before: GitMark,
): Promise<DeniedWrites | undefined> {
  const after = markGit(root);
  if (after === undefined || (after.index === before.index && after.head === before.head)) return undefined;
  const denied = (path: string): boolean => {
    const spelled = canonicalSpellings(path, root);
    return (policy.denyingWriteRule(spelled) ?? (ask ? policy.askingWriteRule(spelled) : undefined)) !== undefined;
  };
  const problems: string[] = [];
  const removed: string[] = [];
  // Commits the command added on top of where it started (not a branch it switched to).
  if (before.head !== undefined && after.head !== undefined && after.head !== before.head) {
    const ahead = await service.run(['merge-base', '--is-ancestor', before.head, after.head]);
    if (ahead.exitCode === 0) {
      const touched = names(await git(service, ['diff', '--name-only', '-z', '--no-renames', before.head, after.head]));
      if (touched.some(denied)) {
        const reset = await service.run(['reset', '-q', '--soft', before.head]);
        if (reset.exitCode === 0) removed.push(`commit ${after.head.slice(0, 12)} (undone: its changes are staged)`);
        else problems.push('the commits this command made add paths the write rules deny, and could not be undone');
      }
    }
  }
  const unborn = markGit(root)?.head === undefined;
  const staged = names(
    unborn
      ? await git(service, ['ls-files', '-z'])
      : await git(service, ['diff', '--cached', '--name-only', '-z', '--no-renames']),
  ).filter(denied);
  if (staged.length > 0) {
    const reset = await service.run([...(unborn ? ['rm', '--cached', '-q', '--'] : ['reset', '-q', '--']), ...staged]);
    if (reset.exitCode === 0) removed.push(...staged.map((p) => `${p} (git's index)`));
    else problems.push(`git's index still holds ${staged.join(', ')}, which the write rules deny`);
  }
  if (removed.length === 0 && problems.length === 0) return undefined;
  return { removed, ...(problems.length === 0 ? {} : { problem: problems.join('; ') }) };
}
