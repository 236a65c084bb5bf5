/**
 * The flags every ripgrep call of the ripgrep engine shares: which files it selects (hidden files
 * included, only `.gitignore` rules honoured, `.git` and the workspace's `.a3s/` skipped) and, for a
 * glob with a literal folder prefix, the folders beside that prefix left out of the walk.
 */

/** rg's flags for the engine's file selection. */
export const BASE_ARGS = [
  '--no-config',
  '--hidden',
  '--no-ignore-parent',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--no-require-git',
  '--no-messages',
  '--color',
  'never',
];

/** `p` without rg's leading `./`. */
export function stripDot(p: string): string {
  return p.startsWith('./') ? p.slice(2) : p;
}

/** The most override globs one pruned walk is given (a longer prefix is pruned down to there). */
const MAX_PRUNE_GLOBS = 200;

/**
 * Override globs that leave out of a walk every path beside `folder` (root-relative literal
 * components) below its first `from` components, where the walk starts: for each component `c`,
 * the names that differ from `c` at some character, are a proper prefix of it, or extend it. They
 * only exclude (an override that excludes never re-includes what a `.gitignore` ignores), and
 * match no folder on `folder`'s way nor anything under it, so rg lists exactly the files it
 * listed, less those outside `folder`.
 */
export function pruneArgs(folder: readonly string[], from: number): string[] {
  const globs: string[] = [];
  for (let k = from; k < folder.length; k++) {
    const c = folder[k]!;
    const base = k === 0 ? '/' : `/${folder.slice(0, k).join('/')}/`;
    const here = [`${base}${c}?*`];
    for (let i = 0; i < c.length; i++) here.push(`${base}${c.slice(0, i)}[!${c[i]}]*`);
    for (let i = 1; i < c.length; i++) here.push(`${base}${c.slice(0, i)}`);
    if (globs.length + here.length > MAX_PRUNE_GLOBS) break;
    globs.push(...here);
  }
  return globs.flatMap((g) => ['--glob', `!${g}`]);
}
