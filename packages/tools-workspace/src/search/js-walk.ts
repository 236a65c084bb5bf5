/**
 * The JS engine's file walk over any `WorkspaceFileSystem`: depth first, entries by name, so
 * files come out in lexical order; honours `.gitignore` files from the root down, skips `.git`,
 * symlinks and special files, exactly as the ripgrep engine is configured to. The workspace's
 * own `.a3s/` folder (fact logs, snapshots) is skipped too, unless the walk starts inside it, and
 * the runtime's state folders in it unless the walk starts in one.
 */
import type { WorkspaceFileSystem } from '@a3s-code/core';
import { throwIfAborted } from '../local/fs-errors.js';
import { isProtectedPath, isRuntimeStatePath, joinRel, PROTECTED_DIR } from '../paths/normalize.js';
import { isIgnored, parseGitignore, type IgnoreFile } from './gitignore.js';
import { hasUnopenableName } from '../paths/byte-names.js';

async function readIgnore(fs: WorkspaceFileSystem, dir: string): Promise<IgnoreFile | undefined> {
  try {
    const bytes = await fs.readFile(joinRel(dir, '.gitignore'));
    return parseGitignore(dir, new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** Ignore files of the ancestors of `start` (root first), excluding `start` itself. */
async function ancestorIgnores(fs: WorkspaceFileSystem, start: string): Promise<IgnoreFile[]> {
  const stack: IgnoreFile[] = [];
  if (start === '') return stack;
  const parts = start.split('/');
  for (let i = 0; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    const file = await readIgnore(fs, dir);
    if (file) stack.push(file);
  }
  return stack;
}

/**
 * Yields root-relative file paths under directory `start` in lexical order. With `folder` (the
 * root-relative components of a folder at or under `start`, see `matchFolder`), only the files
 * under it: the walk goes down to it one folder at a time, each checked as before, and enters no
 * other folder on the way.
 */
export async function* walkFiles(
  fs: WorkspaceFileSystem,
  start: string,
  signal?: AbortSignal,
  folder: readonly string[] = [],
): AsyncGenerator<string> {
  const base = await ancestorIgnores(fs, start);
  const skipState = !isProtectedPath(start);
  // Inside `.a3s/`, its runtime state folders are skipped unless the walk starts in one.
  const skipRuntime = !isRuntimeStatePath(start);
  async function* visit(dir: string, stack: IgnoreFile[], depth: number): AsyncGenerator<string> {
    throwIfAborted(signal, 'search');
    const entries = await fs.list(dir);
    let here = stack;
    if (entries.some((e) => e.name === '.gitignore' && e.kind === 'file')) {
      const own = await readIgnore(fs, dir);
      if (own) here = [...stack, own];
    }
    const way = depth < folder.length ? folder[depth] : undefined;
    for (const entry of entries) {
      if (way !== undefined && (entry.name !== way || entry.kind !== 'directory')) continue;
      if (entry.name === '.git') continue;
      if (skipState && dir === '' && entry.name === PROTECTED_DIR) continue;
      const rel = joinRel(dir, entry.name);
      if (skipRuntime && isRuntimeStatePath(rel)) continue;
      if (entry.kind === 'directory') {
        // A folder whose name is not UTF-8 cannot be opened by name here (see nameFromBytes).
        if (!isIgnored(here, rel, true) && !hasUnopenableName(entry.name)) yield* visit(rel, here, depth + 1);
      } else if (entry.kind === 'file') {
        if (!isIgnored(here, rel, false)) yield rel;
      }
    }
  }
  yield* visit(start, base, start === '' ? 0 : start.split('/').length);
}
