/**
 * A grep or glob `path` naming a FOLDER that is swapped for a symbolic link to another folder right
 * after the search resolved it (and the kernel judged it), or whose parent folder is: rg must walk
 * the folder resolved, or the call fails, and nothing of the link's target is shown under the
 * name resolved. The swap is timed by answering `stat`, as a background process flipping the path
 * would, and undone once the call is over (before the kernel judges the paths it reported).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceCallOptions, WorkspaceStat } from '@a3s-code/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { LocalFileSystem } from './local-fs.js';
import { findRipgrep } from './rg-binary.js';
import { RipgrepSearch } from './rg-search.js';

const tmp = tempDir();

/** Local files whose `stat` of `armed.path` swaps the folder `armed.swap` for a link to `armed.to`. */
class SwappingFileSystem extends LocalFileSystem {
  armed: { path: string; swap: string; to: string } | undefined;
  override async stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined> {
    const s = await super.stat(path, options);
    const armed = this.armed;
    if (armed && path === armed.path) {
      this.armed = undefined;
      rmSync(join(tmp.dir, armed.swap), { recursive: true });
      symlinkSync(armed.to, join(tmp.dir, armed.swap));
    }
    return s;
  }
}

const fs = new SwappingFileSystem(tmp.dir);
let search: RipgrepSearch;

/** A folder holding a decoy `token.txt` (and a CR-only file, read in `read`'s lines). */
function folder(rel: string, text: string): void {
  mkdirSync(join(tmp.dir, rel), { recursive: true });
  writeFileSync(join(tmp.dir, rel, 'token.txt'), text);
  writeFileSync(join(tmp.dir, rel, 'cr.txt'), `a\r${text.trim()}\rb\r`);
}

/** Puts the real folders back (as the flipping process does between calls). */
function restore(): void {
  for (const rel of ['d', 'a']) rmSync(join(tmp.dir, rel), { recursive: true, force: true });
  folder('d', 'inside KEY=nothing\n');
  folder('a/d', 'inside KEY=nothing\n');
}

beforeAll(async () => {
  const rg = await findRipgrep();
  expect(rg).toBeDefined();
  search = new RipgrepSearch(fs, rg!);
  folder('secrets', 'KEY=topsecret\n');
  folder('vault/d', 'KEY=topsecret\n');
});
afterAll(() => tmp.cleanup());

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const calls: Record<string, (path: string) => Promise<unknown>> = {
  grep: (path) => all(search.grep({ pattern: 'KEY=', path })),
  grepFiles: (path) => search.grepFiles({ pattern: 'KEY=', path }),
  grepCounts: (path) => search.grepCounts({ pattern: 'KEY=', path }),
  grepPage: (path) => search.grepPage({ pattern: 'KEY=', path }, undefined, 10),
  grepPageGlob: (path) => search.grepPage({ pattern: 'KEY=', path, glob: '**/*.txt' }, undefined, 10),
  glob: (path) => all(search.glob({ pattern: '**/*', path })),
  listFiles: (path) => search.listFiles({ pattern: '**/*', path }),
};

// Both cases name the folder searched `d` in the workspace; in the second its parent is swapped.
const swaps = [
  { path: 'd', swap: 'd', to: 'secrets' },
  { path: 'a/d', swap: 'a', to: 'vault' },
];

describe('grep and glob of a folder swapped for a link after it was resolved', () => {
  it.each(swaps.flatMap((swap) => Object.keys(calls).map((name) => [name, swap] as const)))(
    '%s fails closed and never shows the link target under the name resolved (%o)',
    async (name, swap) => {
      restore();
      fs.armed = swap;
      const outcome = await calls[name]!(swap.path).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      restore();
      expect(fs.armed).toBeUndefined();
      expect(outcome).toMatchObject({ error: { code: 'WORKSPACE_CHANGED', path: swap.path } });
    },
  );

  it.each(Object.keys(calls))('%s of a folder left alone lists its own files under its name', async (name) => {
    restore();
    const text = JSON.stringify(await calls[name]!('a/d'));
    expect(text).toContain('a/d/token.txt');
    expect(text).toContain('a/d/cr.txt');
    expect(text).not.toContain('topsecret');
    if (name === 'grep' || name.startsWith('grepPage')) expect(text).toContain('{"path":"a/d/cr.txt","line":2');
  });
});
