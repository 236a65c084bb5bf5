/**
 * Changes of one file by this process, one at a time: `edit`, `patch` and `write` each read a file,
 * compute its new text and write it back; two of them on the same file at once would both read the
 * same text and the second write would silently drop the first one's change. Each holds its files'
 * locks from the read to the write, so the second reads what the first wrote.
 */
import type { ToolContext } from '@a3s-code/core';
import { normalizeWorkspacePath } from '../../paths/normalize.js';

/** The last waiter's turn for each locked file (workspace root and path). */
const turns = new Map<string, Promise<void>>();

async function acquire(key: string): Promise<() => void> {
  const before = turns.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const last = before.then(() => mine);
  turns.set(key, last);
  await before;
  return () => {
    release();
    if (turns.get(key) === last) turns.delete(key);
  };
}

/**
 * Runs `body` holding the locks of `paths` (workspace paths, as given; `./a` and `a` are one file),
 * taken in one order so two callers never wait on each other. A path that does not normalise is
 * left to `body` to refuse.
 */
export async function withFileLocks<T>(ctx: ToolContext, paths: readonly string[], body: () => Promise<T>): Promise<T> {
  const root = ctx.workspace.root;
  const keys = new Set<string>();
  for (const path of paths) {
    try {
      keys.add(`${root}\0${normalizeWorkspacePath(path, { root })}`);
    } catch {
      // Refused by the tool itself, with the field named.
    }
  }
  const releases: (() => void)[] = [];
  try {
    for (const key of [...keys].sort()) releases.push(await acquire(key));
    return await body();
  } finally {
    for (const release of releases.reverse()) release();
  }
}
