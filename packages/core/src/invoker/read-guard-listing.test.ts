// The listing a workspace keeps for change snapshots, seen through a call's read rules: the names
// the rules hide are left out, as from a glob; a listing over its limit stays one.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import { guardReads } from './read-guard.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-guard-listing-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Kept = { listAllFiles(maxFiles: number): Promise<readonly string[] | undefined> };

function workspace(files: readonly string[]): WorkspaceServices {
  const search = {
    async *grep() {},
    async *glob() {
      yield* files;
    },
    listAllFiles: async (maxFiles: number) => (files.length > maxFiles ? undefined : files),
  };
  return { root, capabilities: new Set(['search']), search } as unknown as WorkspaceServices;
}

describe('a kept listing behind the read rules', () => {
  const policy = new PermissionPolicy({ deny: ['Read(secret/**)', 'Read(.env)'] });

  it('PERM-02: leaves out the names a read deny rule hides', async () => {
    const guarded = guardReads(workspace(['a.ts', '.env', 'secret/k.pem', 'src/b.ts']), policy, 'mcp', () => {});
    expect(await (guarded.search as unknown as Kept).listAllFiles(100)).toEqual(['a.ts', 'src/b.ts']);
  });

  it('PERM-02: a listing over its limit is still none', async () => {
    const guarded = guardReads(workspace(['a.ts', 'b.ts']), policy, 'mcp', () => {});
    expect(await (guarded.search as unknown as Kept).listAllFiles(1)).toBeUndefined();
  });
});
