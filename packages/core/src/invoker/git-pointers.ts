/**
 * Git's pointers: the `.git` file of a worktree or submodule (`gitdir: …`), and a git folder's
 * `commondir`, send git to another folder for its configuration, hooks and objects. A pointer
 * turned towards a repository a command made (`git init evil`, whose `evil/.git/config` sets an
 * alias or `core.fsmonitor`) would have every later git in the workspace, the user's own included,
 * run what that configuration names. For a command allowed unasked the workspace's own pointers
 * are read-only (see `protected-writes.ts`); this module checks, before such a command, that the
 * pointers lead to a git folder outside the workspace (a command could have written a folder
 * inside it), and after it, that it made no pointer of its own: a `.git` file or link where there
 * was no repository, or a `commondir` of another worktree changed or made to lead elsewhere.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { lstat, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { notInside } from '../config/regular-file.js';
import type { DeniedWrites } from '../workspace/workspace-services.js';
import { type GitFolders, textOf } from './git-store.js';

/** Most folders climbed from the workspace to find the repository it is in. */
const MAX_CLIMB = 64;

const isDir = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** How a message names `path`: workspace-relative where under `root`, else as it is. */
function named(root: string, path: string): string {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith('/') ? rel : path;
}

/** Why the folder a pointer at `from` names (`target`, as written) cannot be trusted, or undefined. */
function targetProblem(root: string, realRoot: string, from: string, target: string): string | undefined {
  let real: string;
  try {
    real = realpathSync.native(target);
  } catch {
    return `${named(root, from)} names ${named(root, target)}, which does not exist`;
  }
  if (!isDir(real)) return `${named(root, from)} names ${named(root, target)}, which is not a folder`;
  if (!notInside(realRoot, real) || real === realRoot)
    return `${named(root, from)} leads to ${named(realRoot, real)}, a folder inside the workspace, where commands can write: git would take its settings (and the programs they name) from there`;
  return undefined;
}

/**
 * Why the git pointers of the repository the workspace `root` is part of cannot be trusted (see
 * the module comment), or `undefined` when they can or there is no repository. Synchronous: a few
 * `lstat` calls and small reads.
 */
export function gitPointerProblem(root: string): string | undefined {
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return undefined;
  }
  let dir = resolve(root);
  for (let i = 0; i < MAX_CLIMB; i++) {
    const dotGit = join(dir, '.git');
    const s = lstatSync(dotGit, { throwIfNoEntry: false });
    if (s !== undefined) return chainProblem(root, realRoot, dotGit, s.isDirectory());
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

function chainProblem(root: string, realRoot: string, dotGit: string, folder: boolean): string | undefined {
  let gitDir = dotGit;
  if (!folder) {
    if (isDir(dotGit)) {
      // A symbolic link git follows as the git folder.
      const problem = targetProblem(root, realRoot, dotGit, dotGit);
      if (problem !== undefined) return problem;
    } else {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(textOf(dotGit));
      if (m === null) return `${named(root, dotGit)} is not a folder and names no git folder (no "gitdir:" line)`;
      gitDir = resolve(dirname(dotGit), m[1]!);
      const problem = targetProblem(root, realRoot, dotGit, gitDir);
      if (problem !== undefined) return problem;
    }
  }
  const pointer = join(gitDir, 'commondir');
  const s = lstatSync(pointer, { throwIfNoEntry: false });
  if (s === undefined) return undefined;
  const text = s.isFile() ? textOf(pointer).trim() : '';
  if (text === '') return `${named(root, pointer)} names no folder`;
  return targetProblem(root, realRoot, pointer, resolve(gitDir, text));
}

/** The words a refused command gets for the pointer problem `problem`. */
export function pointerRefusal(problem: string): string {
  return `git's pointer is not to be trusted: ${problem}. The command was not run: a command a rule allows without asking is not run in this repository until a person checks .git (a command a person approves still runs)`;
}

/** One pointer file as it was before a command. */
interface PointerState {
  readonly path: string;
  readonly shown: string;
  /** Its bytes when it was a regular file; `undefined` when nothing was there. */
  readonly content: Buffer | undefined;
  /** Whether something other than a regular file (a folder, a link) was there. */
  readonly other: boolean;
}

/** The pointer files before a command (see {@link snapshotPointers}). */
export interface PointerSnapshot {
  readonly states: readonly PointerState[];
  /** The folder holding the other worktrees' git folders, and the repository's shared folder. */
  readonly worktrees: string | undefined;
  readonly common: string | undefined;
  readonly root: string;
}

async function stateOf(path: string, shown: string): Promise<PointerState> {
  const s = await lstat(path).catch(() => undefined);
  if (s === undefined) return { path, shown, content: undefined, other: false };
  if (!s.isFile()) return { path, shown, content: undefined, other: true };
  return { path, shown, content: await readFile(path).catch(() => Buffer.alloc(0)), other: false };
}

/**
 * The pointer files of the repository (`git`, or none at `root`) as they are before a command:
 * the `.git` that is not a folder (or, with no repository, whatever `.git` the command makes),
 * the git folder's `commondir`, and each other worktree's `commondir`.
 */
export async function snapshotPointers(root: string, git: GitFolders | undefined): Promise<PointerSnapshot> {
  const shown = (path: string): string => named(root, path);
  const paths: string[] = [];
  if (git === undefined) paths.push(join(root, '.git'), join(root, '.git', 'commondir'));
  else {
    if (lstatSync(git.dotGit, { throwIfNoEntry: false })?.isDirectory() !== true) paths.push(git.dotGit);
    paths.push(join(git.gitDir, 'commondir'));
    for (const name of await readdir(join(git.common, 'worktrees')).catch(() => [] as string[]))
      paths.push(join(git.common, 'worktrees', name, 'commondir'));
  }
  const states = await Promise.all([...new Set(paths)].map((p) => stateOf(p, shown(p))));
  return {
    states,
    worktrees: git === undefined ? undefined : join(git.common, 'worktrees'),
    common: git?.common,
    root,
  };
}

/**
 * Puts the pointer files back as they were before the command (`before`): one it made is removed,
 * one it changed is written back (one it removed stays removed: `git worktree remove`), and a
 * `commondir` it made for a new worktree that does not lead to the repository's shared folder is
 * removed. Returns what was removed and restored, as a result reports it.
 */
export async function mendPointers(before: PointerSnapshot): Promise<DeniedWrites | undefined> {
  const removed: string[] = [];
  const restored: string[] = [];
  const failed: string[] = [];
  const known = new Set(before.states.map((s) => s.path));
  for (const was of before.states) {
    const now = await stateOf(was.path, was.shown);
    if (now.content === undefined && !now.other) continue;
    const link = isSymlink(was.path);
    // The repository a `git init` made where there was none.
    if (was.path === join(before.root, '.git') && !was.other && was.content === undefined && now.other && !link)
      continue;
    const same = was.other ? now.other : was.content !== undefined && now.content?.equals(was.content) === true;
    if (same) continue;
    try {
      await rm(was.path, { force: true, recursive: now.other && !link });
      if (was.content !== undefined) {
        await writeFile(was.path, was.content, { flag: 'wx' });
        restored.push(`${was.shown} (put back as it was)`);
      } else removed.push(was.shown);
    } catch (e) {
      failed.push(`${was.shown} (${(e as Error).message})`);
    }
  }
  if (before.worktrees !== undefined && before.common !== undefined) {
    const common = await realpath(before.common).catch(() => before.common!);
    for (const name of await readdir(before.worktrees).catch(() => [] as string[])) {
      const path = join(before.worktrees, name, 'commondir');
      if (known.has(path)) continue;
      const text = await readFile(path, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const leads = await realpath(resolve(dirname(path), text.trim())).catch(() => undefined);
      if (leads === common) continue;
      await rm(path, { force: true }).then(
        () => removed.push(named(before.root, path)),
        (e: Error) => failed.push(`${named(before.root, path)} (${e.message})`),
      );
    }
  }
  if (removed.length === 0 && restored.length === 0 && failed.length === 0) return undefined;
  return {
    removed,
    ...(restored.length === 0 ? {} : { restored }),
    ...(failed.length === 0 ? {} : { problem: `could not put back git's pointers: ${failed.join(', ')}` }),
  };
}

const isSymlink = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
