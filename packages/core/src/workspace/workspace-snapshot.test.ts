// A workspace snapshot is bounded in time: a listing that never finishes (and ignores its signal)
// is given up at the bound or on cancellation, and its signal is aborted so a real search stops.
import { describe, expect, it } from 'vitest';
import type {
  WorkspaceFileSystem,
  WorkspaceGlobRequest,
  WorkspaceSearch,
  WorkspaceServices,
} from './workspace-services.js';
import { snapshotWorkspace, snapshotWorkspaceWithin } from './workspace-snapshot.js';

/** The file system part a snapshot uses: every listed file has the same stat. */
const fs = {
  stat: async () => ({ kind: 'file', size: 1, mtimeMs: 1 }),
} as unknown as WorkspaceFileSystem;

/** A workspace whose search lists `files`, or never answers (whatever its signal says) when `files` is 'stuck'. */
function workspace(files: readonly string[] | 'stuck', seen: AbortSignal[] = []): WorkspaceServices {
  const search: WorkspaceSearch = {
    grep: () => {
      throw new Error('not used');
    },
    glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
      if (request.signal) seen.push(request.signal);
      return {
        async *[Symbol.asyncIterator]() {
          if (files === 'stuck') await new Promise<never>(() => undefined);
          else yield* files;
        },
      };
    },
  };
  return { root: '/w', capabilities: new Set(['fs.read', 'search']), fs, search };
}

/** The same with a one-shot listing (`listFiles`, as the local engines have) that never answers. */
function listingWorkspace(seen: AbortSignal[]): WorkspaceServices {
  const search = {
    grep: () => {
      throw new Error('not used');
    },
    glob: () => {
      throw new Error('not used: listFiles is');
    },
    listFiles: (request: WorkspaceGlobRequest): Promise<readonly string[]> => {
      if (request.signal) seen.push(request.signal);
      return new Promise(() => undefined);
    },
  };
  return { root: '/w', capabilities: new Set(['fs.read', 'search']), fs, search };
}

describe('workspace snapshot bounds', () => {
  it('a listing that answers gives a snapshot and no note', async () => {
    const r = await snapshotWorkspaceWithin(workspace(['a.txt', 'b/c.txt']), new AbortController().signal, 2000);
    expect(r.note).toBeUndefined();
    expect([...(r.snapshot ?? new Map()).keys()].sort()).toEqual(['a.txt', 'b/c.txt']);
  });

  it.each([
    ['a streamed glob', (seen: AbortSignal[]) => workspace('stuck', seen)],
    ['a one-shot listFiles', (seen: AbortSignal[]) => listingWorkspace(seen)],
  ])('%s that never finishes is given up at the bound, its signal aborted, with a note', async (_, make) => {
    const seen: AbortSignal[] = [];
    const t0 = Date.now();
    const r = await snapshotWorkspaceWithin(make(seen), new AbortController().signal, 300);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.snapshot).toBeUndefined();
    expect(r.note).toBe(
      '[the files this call changed are unknown: listing the workspace took longer than 300 ms and was stopped]',
    );
    expect(seen.length).toBe(1);
    expect(seen[0]!.aborted).toBe(true);
  });

  it('a cancelled call ends a stuck snapshot at once, without a note', async () => {
    const seen: AbortSignal[] = [];
    const call = new AbortController();
    setTimeout(() => call.abort(new Error('user cancelled')), 100);
    const t0 = Date.now();
    const r = await snapshotWorkspaceWithin(workspace('stuck', seen), call.signal, 60_000);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r).toEqual({ snapshot: undefined, note: undefined });
    expect(seen[0]!.aborted).toBe(true);
  });

  it('snapshotWorkspace rejects as cancelled when its signal aborts, even if the search never returns', async () => {
    const call = new AbortController();
    setTimeout(() => call.abort(), 50);
    await expect(snapshotWorkspace(workspace('stuck'), call.signal)).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
