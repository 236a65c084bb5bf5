// The files a command changed, named from the listing the workspace keeps between commands: one
// command after another in the same folders, a folder moved away.
import { describe, expect, it } from 'vitest';
import { call, results, run, workspace } from './read-deny-kit.js';

const bash = (id: string, command: string) => call(id, 'bash', { command });
const changes = (metadata: unknown) => (metadata as { changed_files?: unknown } | undefined)?.changed_files;

describe('the files each command changed', () => {
  it('GATE-01: commands one after another in the same folders are each named their own changes', async () => {
    const dir = workspace();
    const { session } = await run(dir, [
      bash('b1', 'mkdir -p a/b && echo 1 > a/b/c.ts'),
      bash('b2', 'echo 2 > a/b/c.ts && echo d > a/b/d.ts'),
      bash('b3', 'mv a moved && rm src/public.ts'),
      bash('b4', 'true'),
    ]);
    const got = results(session);
    expect(changes(got.get('b1')?.metadata)).toEqual({ created: ['a/b/c.ts'], modified: [], deleted: [] });
    expect(changes(got.get('b2')?.metadata)).toEqual({ created: ['a/b/d.ts'], modified: ['a/b/c.ts'], deleted: [] });
    expect(changes(got.get('b3')?.metadata)).toEqual({
      created: ['moved/b/c.ts', 'moved/b/d.ts'],
      modified: [],
      deleted: ['a/b/c.ts', 'a/b/d.ts', 'src/public.ts'],
    });
    expect(changes(got.get('b4')?.metadata)).toEqual({ created: [], modified: [], deleted: [] });
  });
});
