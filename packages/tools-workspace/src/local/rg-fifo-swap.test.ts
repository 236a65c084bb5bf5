/**
 * A grep `path` naming a regular file that is swapped for a FIFO right after the search checked
 * it: ripgrep is handed a descriptor opened (non-blocking) and checked here, never the path, so
 * the call fails at once with WORKSPACE_NOT_REGULAR instead of leaving rg waiting on the FIFO
 * until the call's timeout. A real FIFO and the real rg; the swap is timed by answering `stat`.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceCallOptions, WorkspaceStat } from '@a3s-code/core';
import { tempDir } from '../test-support/harness.js';
import { LocalFileSystem } from './local-fs.js';
import { findRipgrep } from './rg-binary.js';
import { RipgrepSearch } from './rg-search.js';

const tmp = tempDir();
const NAME = 'swap.txt';

/** Local files whose `stat` of {@link NAME} answers "a file" and then swaps it for a FIFO. */
class SwappingFileSystem extends LocalFileSystem {
  armed = false;
  override async stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined> {
    const s = await super.stat(path, options);
    if (this.armed && path === NAME) {
      this.armed = false;
      rmSync(join(tmp.dir, NAME));
      execFileSync('mkfifo', [join(tmp.dir, NAME)]);
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
});
afterAll(() => tmp.cleanup());

function arm(): void {
  rmSync(join(tmp.dir, NAME), { force: true });
  writeFileSync(join(tmp.dir, NAME), 'hello\n');
  fs.armed = true;
}

describe('grep path swapped for a FIFO after the check', () => {
  const calls: Record<string, (signal: AbortSignal) => Promise<unknown>> = {
    grep: async (signal) => {
      for await (const _ of search.grep({ pattern: 'hello', path: NAME, signal })) void _;
    },
    grepFiles: (signal) => search.grepFiles({ pattern: 'hello', path: NAME, signal }),
    grepCounts: (signal) => search.grepCounts({ pattern: 'hello', path: NAME, signal }),
    grepPage: (signal) => search.grepPage({ pattern: 'hello', path: NAME, signal }, undefined, 10),
  };
  it.each(Object.keys(calls))('%s fails at once naming the FIFO (rg never waits on it)', async (name) => {
    arm();
    // Before the fix rg blocked on the FIFO until this signal (a stand-in for the call's timeout).
    const error = await calls[name]!(AbortSignal.timeout(5000)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'WORKSPACE_NOT_REGULAR', path: NAME });
  });

  it('a regular file named as the path is searched as before, by its name', async () => {
    rmSync(join(tmp.dir, NAME), { force: true });
    writeFileSync(join(tmp.dir, NAME), 'hello\nhello again\r\n');
    expect(await search.grepFiles({ pattern: 'hello', path: NAME })).toEqual([NAME]);
    expect(await search.grepCounts({ pattern: 'hello', path: NAME })).toEqual([{ path: NAME, count: 2 }]);
    const page = await search.grepPage({ pattern: 'hello', path: NAME }, { path: NAME, line: 1 }, 10);
    expect(page).toEqual({ matches: [{ path: NAME, line: 2, text: 'hello again\r' }], more: false });
  });
});
