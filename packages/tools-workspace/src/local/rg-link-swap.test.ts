/**
 * A grep `path` naming a regular file that is swapped for a symbolic link right after the search
 * resolved it (and the kernel judged it): the file rg reads is opened here and must be the one
 * resolved, or the call fails and nothing of the link's target is searched. The swap is timed by
 * answering `stat`, as a background process flipping the path would.
 */
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceCallOptions, WorkspaceStat } from '@a3s-code/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { LocalFileSystem } from './local-fs.js';
import { findRipgrep } from './rg-binary.js';
import { RipgrepSearch } from './rg-search.js';

const tmp = tempDir();
const NAME = 'notes.txt';

/** Local files whose `stat` of {@link NAME} answers "a file" and then swaps it for a link to `.env`. */
class SwappingFileSystem extends LocalFileSystem {
  armed = false;
  override async stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined> {
    const s = await super.stat(path, options);
    if (this.armed && path === NAME) {
      this.armed = false;
      rmSync(join(tmp.dir, NAME));
      symlinkSync('.env', join(tmp.dir, NAME));
    }
    return s;
  }
}

const fs = new SwappingFileSystem(tmp.dir);
let search: RipgrepSearch;

beforeAll(async () => {
  const rg = await findRipgrep();
  expect(rg).toBeDefined();
  search = new RipgrepSearch(fs, rg!);
  writeFileSync(join(tmp.dir, '.env'), 'SECRET=hunter2\n');
});
afterAll(() => tmp.cleanup());

function arm(): void {
  rmSync(join(tmp.dir, NAME), { force: true });
  writeFileSync(join(tmp.dir, NAME), 'nothing secret here\n');
  fs.armed = true;
}

describe('grep path swapped for a link after it was resolved', () => {
  const calls: Record<string, () => Promise<unknown>> = {
    grep: async () => {
      const out: unknown[] = [];
      for await (const m of search.grep({ pattern: 'SECRET', path: NAME })) out.push(m);
      return out;
    },
    grepFiles: () => search.grepFiles({ pattern: 'SECRET', path: NAME }),
    grepCounts: () => search.grepCounts({ pattern: 'SECRET', path: NAME }),
    grepPage: () => search.grepPage({ pattern: 'SECRET', path: NAME }, undefined, 10),
  };
  it.each(Object.keys(calls))("%s never shows the link target's lines under the name it resolved", async (name) => {
    arm();
    const outcome = await calls[name]!().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    if ('error' in outcome) {
      expect(outcome.error).toMatchObject({ code: 'WORKSPACE_CHANGED', path: NAME });
    } else {
      // Searched after the swap was resolved: the lines are reported under the file they are in,
      // which the kernel's rules then judge (a `Read(.env)` rule leaves them out).
      const text = JSON.stringify(outcome.value);
      expect(text).toContain('.env');
      expect(text).not.toContain(NAME);
    }
  });
});
