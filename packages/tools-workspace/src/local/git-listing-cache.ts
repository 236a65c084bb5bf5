/**
 * The configuration listing and the location of a repository, kept between the `git` tool's
 * commands while nothing they were read from changed, so that a command needs one git process
 * (the pinned one) instead of three.
 *
 * What a listing and a location depend on is read again before every command, and compared
 * whole: the texts of every file git reads configuration from (the repository's `config` and
 * `config.worktree`, the user's `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config`, or their
 * absence), the identity of the workspace's `.git` folder and its `commondir` pointer, the
 * workspace's real path, `HOME` and `XDG_CONFIG_HOME`. Only a plain repository is kept (its
 * `.git` a folder at the workspace's root, which is the work tree's top), and only a listing
 * without includes (an included file, or a branch an `includeIf` looks at, can change
 * elsewhere). The key is taken before git lists: a file changed while git reads it gives a key
 * the next command no longer matches. A kept listing is only used where the command runs pinned
 * to the configuration listed (`git-pin.ts`), so git never reads a file the listing did not.
 */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { GitPlaces } from './git-pin.js';
import type { GitConfigEntry } from './git-safety.js';

/** A repository's configuration as listed, and where it is. */
export interface KeptListing {
  readonly listed: readonly GitConfigEntry[];
  readonly places: GitPlaces;
}

const kept = new Map<string, { readonly key: string; readonly listing: KeptListing }>();

const INCLUDE = /^(?:include|includeif\..+)\.path$/i;

function textOrMissing(path: string | undefined): string {
  if (path === undefined) return '-';
  try {
    return `+${readFileSync(path, 'latin1')}`;
  } catch (e) {
    return `!${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/**
 * What the listing and location of the repository at `root` depend on (see the module comment),
 * or `undefined` when they are not kept: the workspace's `.git` is not a folder.
 */
export function listingKey(root: string, env: Readonly<Record<string, string>>): string | undefined {
  const dotGit = join(root, '.git');
  let real: string;
  let id: string;
  try {
    const st = lstatSync(dotGit, { bigint: true });
    if (!st.isDirectory()) return undefined;
    id = `${st.dev}:${st.ino}`;
    real = realpathSync(root);
  } catch {
    return undefined;
  }
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME;
  const userConfig = xdg ? join(xdg, 'git', 'config') : home ? join(home, '.config', 'git', 'config') : undefined;
  return [
    real,
    id,
    home ?? '-',
    xdg ?? '-',
    textOrMissing(join(dotGit, 'commondir')),
    textOrMissing(join(dotGit, 'config')),
    textOrMissing(join(dotGit, 'config.worktree')),
    textOrMissing(home ? join(home, '.gitconfig') : undefined),
    textOrMissing(userConfig),
  ].join('\0');
}

/** The listing kept for `root` under `key`, if any. */
export function keptListing(root: string, key: string | undefined): KeptListing | undefined {
  if (key === undefined) return undefined;
  const entry = kept.get(root);
  return entry?.key === key ? entry.listing : undefined;
}

/**
 * Keeps `listing` for `root` under `key` (taken before it was listed) when it may be kept: a
 * plain repository at `root` and no includes; forgets what was kept otherwise.
 */
export function keepListing(root: string, key: string | undefined, listing: KeptListing): void {
  const { places, listed } = listing;
  let plain = false;
  try {
    const dotGit = realpathSync(join(root, '.git'));
    plain =
      realpathSync(places.gitDir) === dotGit &&
      realpathSync(places.commonDir) === dotGit &&
      realpathSync(places.top) === realpathSync(root);
  } catch {
    plain = false;
  }
  if (key === undefined || !plain || listed.some((e) => INCLUDE.test(e.key))) kept.delete(root);
  else kept.set(root, { key, listing });
}
