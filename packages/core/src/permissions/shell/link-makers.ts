/**
 * Commands that may make a symbolic link, or put one in place, where the judge cannot see it: git
 * checking out, resetting, merging or applying (a tracked path may be a link, written into the
 * repository before), other version control tools, archive extractors (`tar x`, `unzip`, `7z x`,
 * `cpio -i`), `patch` (git-style patches make links), and copies or moves that keep links as
 * they are (`cp -r`, `cp -P`, `rsync -a`, `mv`). A file another command of the same line writes
 * may then be reached through such a link, wherever it leads: the link did not exist when the line
 * was judged. `ln` is not here: what it links to is one of the files it writes, judged as such.
 */
import { gitSubcommand } from './git-writes.js';
import { isOption, operands } from './option-words.js';

/** Where a command may make links: anywhere, or at and below the files it writes (`'written'`). */
export type LinkScope = 'anywhere' | 'written';

/** git subcommands that leave the working tree as it is (they may write the index, refs or objects). */
const GIT_KEEPS_TREE = new Set([
  'add',
  'annotate',
  'archive',
  'blame',
  'branch',
  'bundle',
  'cat-file',
  'check-attr',
  'check-ignore',
  'check-ref-format',
  'cherry',
  'clean',
  'commit',
  'commit-tree',
  'config',
  'count-objects',
  'describe',
  'diff',
  'diff-files',
  'diff-index',
  'diff-tree',
  'fetch',
  'for-each-ref',
  'format-patch',
  'fsck',
  'gc',
  'grep',
  'hash-object',
  'help',
  'init',
  'log',
  'ls-files',
  'ls-remote',
  'ls-tree',
  'merge-base',
  'mktag',
  'mktree',
  'name-rev',
  'notes',
  'prune',
  'push',
  'range-diff',
  'reflog',
  'remote',
  'repack',
  'rev-list',
  'rev-parse',
  'rm',
  'shortlog',
  'show',
  'show-branch',
  'show-ref',
  'stage',
  'status',
  'symbolic-ref',
  'tag',
  'update-index',
  'update-ref',
  'var',
  'verify-commit',
  'verify-tag',
  'version',
  'whatchanged',
  'write-tree',
]);

/** Other version control tools: any of their commands may check files out. */
const VCS = new Set(['hg', 'svn', 'fossil', 'bzr', 'brz', 'jj', 'darcs', 'cvs', 'sl']);
/** Extractors of archives and patches, which may make links among the files they make. */
const EXTRACTORS = new Set([
  'unzip',
  '7z',
  '7za',
  '7zr',
  'cpio',
  'bsdcpio',
  'pax',
  'patch',
  'unsquashfs',
  'dpkg-deb',
  'rpm2cpio',
]);

// `git checkout -b new` and `git switch -c new` make a branch where HEAD is: the files stay.
function newBranchOnly(sub: string, rest: readonly string[]): boolean {
  if (sub !== 'checkout' && sub !== 'switch') return false;
  const creates = rest.some((a) => /^-[bBcC]$/.test(a) || /^--(?:create|force-create|orphan)$/.test(a));
  return creates && operands(rest).length <= 1;
}

// tar makes links when it extracts, or when its mode cannot be read as creating or listing.
function tarMayLink(args: readonly string[]): boolean {
  const mode = args.find((a) => /^-?[A-Za-z]+$/.test(a) && !a.startsWith('--')) ?? '';
  if (/x/.test(mode) || args.some((a) => /^--(?:extract|get)$/.test(a))) return true;
  const creates = /[crut]/.test(mode) || args.some((a) => /^--(?:create|append|update|list)$/.test(a));
  return !creates;
}

// cp keeps links as links when it copies folders or is told not to follow them; it makes them with -s/-l.
function cpMayLink(args: readonly string[]): boolean {
  return args.some(
    (a) =>
      (/^-[A-Za-z]+$/.test(a) && /[rRaPdsl]/.test(a)) ||
      (a.startsWith('--') &&
        !/^--(?:force|interactive|verbose|no-clobber|update|backup|suffix|target-directory|no-target-directory|strip-trailing-slashes|remove-destination|dereference)(?:=|$)/.test(
          a,
        )),
  );
}

/**
 * Where the command `base` with arguments `args` (after quote removal, holes kept) may make a
 * symbolic link the judge cannot see (see the module comment), or `undefined` when it makes none.
 */
export function linkScope(base: string, args: readonly string[]): LinkScope | undefined {
  if (base === 'git') {
    const { sub, rest } = gitSubcommand(args);
    if (sub === undefined) return undefined;
    return GIT_KEEPS_TREE.has(sub) || newBranchOnly(sub, rest) ? undefined : 'anywhere';
  }
  if (VCS.has(base) || EXTRACTORS.has(base)) return 'anywhere';
  if (base === 'tar' || base === 'gtar' || base === 'bsdtar') return tarMayLink(args) ? 'anywhere' : undefined;
  if (base === 'wget')
    return args.some((a) => /^-[A-Za-z]*[rm]/.test(a) || /^--(?:recursive|mirror)$/.test(a)) ? 'anywhere' : undefined;
  if (base === 'mv' || base === 'rsync') return 'written';
  if (base === 'cp') return cpMayLink(args) ? 'written' : undefined;
  if ((base === 'docker' || base === 'podman' || base === 'kubectl') && args.some((a) => !isOption(a) && a === 'cp'))
    return 'anywhere';
  return undefined;
}
