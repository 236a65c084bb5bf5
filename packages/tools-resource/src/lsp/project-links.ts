/**
 * Symbolic links in the workspace leading out, for servers that find their project's files by
 * looking in folders rather than being told them (gopls reads every `.go` file of a package's
 * folder, pyright every module of its search paths, rust-analyzer `mod x;` as `x.rs`): such a
 * server reads a link's target as one of the project's files, and its messages quote it (a
 * constant's value in a type error). A link to a file the server would read this way, or to a
 * folder holding one, whose target is outside the workspace and not installed (see
 * `OutsideCheck`) counts.
 * The whole workspace is walked (a project's configuration can bring in any folder of it), `.git`
 * and `node_modules` folders aside, once per call and server.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { OutsideCheck } from './outside-text.js';

/** More workspace entries than this, and the check fails closed. */
const WALK_MAX_ENTRIES = 200_000;

/** What the walk needs of a server. */
export interface LinkReader {
  readonly id: string;
  /** Extensions (lower case, with the dot) of the files it finds by looking in folders. */
  readonly foundReads?: readonly string[];
}

const walks = new WeakMap<AbortSignal, Map<string, Promise<string | undefined>>>();

/**
 * Why the `server`'s project could read a file outside the workspace through a link in it (a
 * sentence naming the link and its target), or `undefined`; `undefined` too for a server that
 * finds no files by looking in folders. Walked once per `signal` (a call) and server.
 */
export function linkOutside(
  server: LinkReader,
  workspaceRoot: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const reads = server.foundReads;
  if (reads === undefined) return Promise.resolve(undefined);
  let bySignal = walks.get(signal);
  if (bySignal === undefined) {
    bySignal = new Map();
    walks.set(signal, bySignal);
  }
  const key = `${server.id}\0${workspaceRoot}`;
  let walk = bySignal.get(key);
  if (walk === undefined) {
    walk = walkLinks(server.id, new Set(reads), workspaceRoot);
    bySignal.set(key, walk);
  }
  return walk;
}

/** More entries than this in a linked folder outside, and it counts as holding a file the server reads. */
const TARGET_MAX_ENTRIES = 5_000;

/**
 * Whether the folder `dir` (outside the workspace) holds, at any depth, a file the server would
 * read there: one with an extension of `reads`, or a link that may lead to one (a link to a folder
 * counts). Fails closed: a folder of more than {@link TARGET_MAX_ENTRIES} entries counts.
 */
async function holdsRead(dir: string, reads: ReadonlySet<string>): Promise<boolean> {
  let entries = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const batch = pending.splice(0, WALK_PARALLEL);
    const lists = await Promise.all(batch.map((d) => readdir(d, { withFileTypes: true }).catch((): Dirent[] => [])));
    for (let i = 0; i < lists.length; i++)
      for (const e of lists[i]!) {
        if (++entries > TARGET_MAX_ENTRIES) return true;
        const abs = join(batch[i]!, e.name);
        if (e.isDirectory()) pending.push(abs);
        else if (reads.has(extname(e.name).toLowerCase())) return true;
        else if (e.isSymbolicLink() && (await linkMayRead(abs, reads))) return true;
      }
  }
  return false;
}

/** Whether a link met in a linked folder may lead to a file the server reads (a folder counts). */
async function linkMayRead(abs: string, reads: ReadonlySet<string>): Promise<boolean> {
  const target = await realpath(abs).catch(() => undefined);
  if (target === undefined) return false;
  if (reads.has(extname(target).toLowerCase())) return true;
  return stat(target).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Folders read at once: each read is a round trip to the thread pool, so one at a time is slow. */
const WALK_PARALLEL = 32;

async function walkLinks(id: string, reads: ReadonlySet<string>, workspaceRoot: string): Promise<string | undefined> {
  const check = new OutsideCheck(workspaceRoot);
  let entries = 0;
  let found: string | undefined;
  const linkOut = async (abs: string, name: string): Promise<string | undefined> => {
    // A link inside the workspace is walked where it leads (or is a file the walk meets there).
    const target = await realpath(abs).catch(() => undefined);
    const out = target === undefined ? undefined : check.outside(target);
    if (out === undefined) return undefined;
    const counted =
      reads.has(extname(name).toLowerCase()) ||
      reads.has(extname(out).toLowerCase()) ||
      (await stat(out).then(
        (s) => s.isDirectory() && holdsRead(out, reads),
        () => false,
      ));
    return counted
      ? `the ${id} server's project reads ${out} (${relative(workspaceRoot, abs).split('\\').join('/')} links to it), outside the workspace`
      : undefined;
  };
  const visit = async (dir: string, next: string[]): Promise<void> => {
    let list: Dirent[];
    try {
      list = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries += list.length;
    if (entries > WALK_MAX_ENTRIES)
      found ??= `the workspace holds more than ${WALK_MAX_ENTRIES} entries to check for links leading out of it, so the ${id} server's project may read a file outside the workspace`;
    for (const e of list) {
      if (found !== undefined) return;
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.git' && e.name !== 'node_modules') next.push(abs);
      } else if (e.isSymbolicLink()) found ??= await linkOut(abs, e.name);
    }
  };
  // Level by level, up to WALK_PARALLEL folders read at once.
  let level = [workspaceRoot];
  while (level.length > 0 && found === undefined) {
    const next: string[] = [];
    for (let i = 0; i < level.length && found === undefined; i += WALK_PARALLEL)
      await Promise.all(level.slice(i, i + WALK_PARALLEL).map((dir) => visit(dir, next)));
    level = next;
  }
  return found;
}
