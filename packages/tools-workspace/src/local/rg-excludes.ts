/**
 * The folders the ripgrep engine never searches, as rg flags (the JS engine's walk skips the same
 * ones).
 */
import { STATE_SUBFOLDERS } from '@a3s-code/core';
import { isProtectedPath, isRuntimeStatePath } from '../paths/normalize.js';

/**
 * Folders never searched: `.git`, and the workspace's own `.a3s/` (fact logs, snapshots) unless
 * the search targets a path inside it; even then the runtime's state folders in it
 * (`.a3s/effect-log`, `.a3s/workflows`, ...) are left out, unless the search starts in one. Override
 * globs are rooted at rg's working folder, the workspace root (or a folder's view, which mirrors
 * its paths: see `rg-target.ts`), so `/.a3s` names only the top-level folder.
 */
export function excludeArgs(rel: string): string[] {
  if (!isProtectedPath(rel)) return ['--glob', '!.git', '--glob', '!/.a3s'];
  if (isRuntimeStatePath(rel)) return ['--glob', '!.git'];
  return ['--glob', '!.git', ...STATE_SUBFOLDERS.flatMap((name) => ['--iglob', `!/.a3s/${name}`])];
}
