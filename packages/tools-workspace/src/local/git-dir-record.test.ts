// A command cannot keep what it writes in a folder named `.git` out of the change record: a hook
// planted in the repository's own git folder, a changed `.git/config`, a file under a `.git`
// folder made elsewhere. Both the listing of a small workspace and the git snapshot of a large one.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changesBetween, snapshotWorkspaceWithin, type ToolResult, type WorkspaceFileChanges } from '@a3s-code/core';
import { afterAll, describe, expect, it } from 'vitest';
import { call, initRepo, tempDir, writeTree } from '../test-support/harness.js';
import { bashTool } from '../tools/bash/bash-tool.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir('a3s-git-dir-record-');
const workspaces: LocalWorkspace[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((w) => w.close()));
  tmp.cleanup();
});

let next = 0;
function open(): { ws: LocalWorkspace; dir: string } {
  const dir = join(tmp.dir, `r${next++}`);
  writeTree(dir, {
    'a.txt': 'hi\n',
    ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.js`, `${i}\n`])),
  });
  initRepo(dir);
  const ws = new LocalWorkspace({ root: dir });
  workspaces.push(ws);
  return { ws, dir };
}

function changes(r: ToolResult): WorkspaceFileChanges {
  expect(r.exitCode).toBe(0);
  const files = (r.metadata as { changed_files: WorkspaceFileChanges | null }).changed_files;
  expect(files).not.toBeNull();
  return files!;
}

const bash = (ws: LocalWorkspace, command: string) => call(bashTool, ws, { command });
const HOOK = "printf '#!/bin/sh\\necho hi\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit";

describe('the change record of a command in a small workspace, in folders named .git', () => {
  it('a file under a .git folder that is not the repository’s own is named', async () => {
    const { ws } = open();
    const r = await bash(ws, 'mkdir -p src/.git && echo x > src/.git/run.sh && echo c > src/ok.txt');
    expect(changes(r).created).toEqual(['src/.git/run.sh', 'src/ok.txt']);
  });

  it('a hook planted in the repository’s git folder, and a changed .git/config, are named', async () => {
    const { ws } = open();
    expect(changes(await bash(ws, HOOK)).created).toEqual(['.git/hooks/pre-commit']);
    expect(changes(await bash(ws, 'git config core.pager cat')).modified).toEqual(['.git/config']);
    expect(changes(await bash(ws, "echo 'x' >> .git/info/exclude")).modified).toEqual(['.git/info/exclude']);
  });

  it('a commit names no file of the git folder (its objects and refs are not listed)', async () => {
    const { ws } = open();
    const r = changes(await bash(ws, 'echo n > n.txt && git add n.txt && git commit -qm n'));
    expect(r).toEqual({ created: ['n.txt'], modified: [], deleted: [] });
  });
});

describe('the change record of a large workspace taken through git, in the repository’s git folder', () => {
  const snap = async (ws: LocalWorkspace) => {
    const s = await snapshotWorkspaceWithin(ws, new AbortController().signal, 5000, 4);
    expect(s.snapshot).toBeDefined();
    return s.snapshot;
  };

  it('a planted hook and a changed config are named', async () => {
    const { ws, dir } = open();
    const before = await snap(ws);
    mkdirSync(join(dir, '.git/hooks'), { recursive: true });
    writeFileSync(join(dir, '.git/hooks/pre-commit'), '#!/bin/sh\n');
    chmodSync(join(dir, '.git/hooks/pre-commit'), 0o755);
    const mid = await snap(ws);
    expect(changesBetween(before, mid)?.created).toEqual(['.git/hooks/pre-commit']);
    writeFileSync(join(dir, '.git/config'), '[core]\n\tfsmonitor = ./x\n', { flag: 'a' });
    expect(changesBetween(mid, await snap(ws))?.modified).toEqual(['.git/config']);
  });
});
