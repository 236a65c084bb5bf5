// A search's matches are judged after the search read them; a matched file whose name is gone by
// then (a hard link of a kept file made and removed again while rg read it) cannot be judged, so
// its lines are withheld. The real kernel over a real LocalWorkspace whose search reports one
// match more, in a file that no longer exists, as the race leaves it.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ToolInvoker,
  ToolRegistry,
  type WorkspaceGrepMatch,
  type WorkspaceGrepRequest,
  type WorkspaceSearch,
  type WorkspaceServices,
} from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-gone-match-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a search's match in a file gone before it is judged", () => {
  it('PERM-02: is withheld under read deny rules; matches in files that are there are shown', async () => {
    writeFileSync(join(dir, '.env'), 'SECRET=hunter2\n');
    writeFileSync(join(dir, 'notes.txt'), 'SECRET=placeholder\n');
    const local = new LocalWorkspace({ root: dir });
    const real = local.search;
    if (real === undefined) throw new Error('a local workspace searches');
    const search: WorkspaceSearch = {
      async *grep(request: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch> {
        yield* real.grep(request);
        yield { path: 'x.txt', line: 1, text: 'SECRET=hunter2' };
      },
      glob: (request) => real.glob(request),
    };
    const workspace: WorkspaceServices = new Proxy(local, {
      get(target, key) {
        if (key === 'search') return search;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const registry = new ToolRegistry({ capabilities: local.capabilities });
    registry.registerPack(workspaceToolPack);
    const invoker = new ToolInvoker({
      registry,
      workspace,
      policy: { defaultDecision: 'allow', deny: ['Read(.env)'] },
    });
    const r = await invoker.invoke(
      { id: 'g1', name: 'grep', args: { pattern: 'SECRET', output_mode: 'content' } },
      createTestInvocation({}).context,
    );
    expect(r.ok, r.output).toBe(true);
    expect(r.output).toContain('notes.txt');
    expect(r.output).not.toContain('hunter2');
  });
});
