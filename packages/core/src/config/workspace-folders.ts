/**
 * The folders a workspace inherits from: a session opened in a subfolder of a git repository
 * (`repo/pkg`) is still in that project, so its config file and instruction files are looked for
 * from the repository's root down to the session folder. Never above the repository's root, and
 * never above the user's home folder; outside a git repository, only the session folder counts.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, resolve, sep } from 'node:path';

/**
 * The folders from the enclosing git repository's root down to `dir` (both included), `dir`
 * last; `[dir]` alone when `dir` is in no git repository (a `.git` folder or file in it or a
 * folder above), or when the repository's root is above the home folder `home` while `dir` is
 * under it (the search then stops at `home`).
 */
export function workspaceFolders(dir: string, home: string = homedir()): string[] {
  const start = resolve(dir);
  const top = resolve(home);
  const chain: string[] = [];
  let current = start;
  for (;;) {
    chain.push(current);
    if (hasGit(current)) return chain.reverse();
    const parent = dirname(current);
    // Never above the home folder (when the session is under it), never past the file system's root.
    if (current === top || parent === current) return [start];
    current = parent;
  }
}

/** True when `dir` holds a `.git` folder or file (a worktree's or submodule's link). */
function hasGit(dir: string): boolean {
  try {
    const st = statSync(`${dir}${dir.endsWith(sep) ? '' : sep}.git`);
    return st.isDirectory() || st.isFile();
  } catch {
    return false;
  }
}

/**
 * The folder a config file's relative paths and rules were written for: the folder holding
 * `a3s.config.json`, or the one holding the `.a3s` folder of `.a3s/config.json`.
 */
export function configFolderOf(file: string): string {
  const parent = dirname(resolve(file));
  return basename(file) === 'config.json' && basename(parent) === '.a3s' ? dirname(parent) : parent;
}
