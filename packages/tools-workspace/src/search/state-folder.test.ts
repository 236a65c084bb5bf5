// The workspace's own `.a3s/` folder (fact logs, session snapshots) is not part of the project:
// grep and glob skip it by default on the ripgrep and JS engines (a MemoryWorkspace cannot hold
// one: its writes refuse `.a3s/`), and search it only when the request targets a path inside it;
// even then the runtime's own state folders in it (fact logs, workflow runs) are left out, unless
// the request starts in one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceGrepMatch } from '@a3s-code/core';
import { LocalWorkspace } from '../local/local-workspace.js';
import { initRepo, tempDir, writeTree } from '../test-support/harness.js';
import { sortPaths } from './path-order.js';
import type { FastWorkspaceSearch } from './search-types.js';

const files: Record<string, string> = {
  '.a3s/effect-log/s1.jsonl': '{"type":"tool.result","payload":{"output":"needle"}}\n',
  '.a3s/sessions/s1.json': '{"needle":true}\n',
  '.a3s/workflows/wf-1.jsonl': '{"payload":{"output":"needle"}}\n',
  '.a3s/skills/s.md': 'a needle in a skill the user keeps\n',
  'src/a.ts': 'export const needle = 1;\n',
  'docs/.a3s/note.md': 'needle in a nested .a3s folder (not the workspace state)\n',
};

const tmp = tempDir('a3s-state-folder-');
const engines: [string, FastWorkspaceSearch][] = [];

beforeAll(async () => {
  writeTree(tmp.dir, files);
  initRepo(tmp.dir);
  const rg = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep' });
  expect(await rg.search!.backend()).toHaveProperty('engine', 'ripgrep');
  engines.push(['ripgrep', rg.search!], ['js', new LocalWorkspace({ root: tmp.dir, searchEngine: 'js' }).search!]);
});
afterAll(() => tmp.cleanup());

async function paths(it: AsyncIterable<WorkspaceGrepMatch>): Promise<string[]> {
  const out: string[] = [];
  for await (const m of it) out.push(m.path);
  return out;
}

describe('the .a3s state folder', () => {
  it('grep skips .a3s/ by default (content, files, counts) on every engine', async () => {
    for (const [name, search] of engines) {
      expect(await paths(search.grep({ pattern: 'needle' })), name).toEqual(['docs/.a3s/note.md', 'src/a.ts']);
      expect(await search.grepFiles({ pattern: 'needle' }), name).toEqual(['docs/.a3s/note.md', 'src/a.ts']);
      expect(
        (await search.grepCounts({ pattern: 'needle', glob: '*.json*' })).map((c) => c.path),
        name,
      ).toEqual([]);
    }
  });

  it('glob skips .a3s/ by default on every engine', async () => {
    for (const [name, search] of engines) {
      expect(sortPaths(await search.listFiles({ pattern: '**' })), name).toEqual(['docs/.a3s/note.md', 'src/a.ts']);
      expect(await search.listFiles({ pattern: '**/*.jsonl' }), name).toEqual([]);
    }
  });

  it("a request that targets .a3s/ searches it, without the runtime's state folders unless it starts in one", async () => {
    for (const [name, search] of engines) {
      expect(await search.grepFiles({ pattern: 'needle', path: '.a3s' }), name).toEqual(['.a3s/skills/s.md']);
      expect(sortPaths(await search.listFiles({ pattern: '**', path: '.a3s' })), name).toEqual(['.a3s/skills/s.md']);
      // The file tools refuse such a path; the engines search where they are told.
      expect(await search.listFiles({ pattern: '*.jsonl', path: '.a3s/effect-log' }), name).toEqual([
        '.a3s/effect-log/s1.jsonl',
      ]);
    }
  });
});
