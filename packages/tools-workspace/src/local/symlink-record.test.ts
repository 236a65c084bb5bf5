// Symbolic links a command makes, changes or removes are in the change record, as links (never
// followed): one to a file outside the workspace, one to a folder above it, a file replaced by one.
import { join } from 'node:path';
import type { ToolResult, WorkspaceFileChanges } from '@a3s-code/core';
import { afterAll, describe, expect, it } from 'vitest';
import { call, initRepo, tempDir, writeTree } from '../test-support/harness.js';
import { bashTool } from '../tools/bash/bash-tool.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir('a3s-symlink-record-');
const workspaces: LocalWorkspace[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((w) => w.close()));
  tmp.cleanup();
});

let next = 0;
function open(): LocalWorkspace {
  const dir = join(tmp.dir, `r${next++}`);
  writeTree(dir, { 'a.txt': 'hi\n', 'b.txt': 'b\n' });
  initRepo(dir);
  const ws = new LocalWorkspace({ root: dir });
  workspaces.push(ws);
  return ws;
}

function changes(r: ToolResult): WorkspaceFileChanges {
  expect(r.exitCode).toBe(0);
  const files = (r.metadata as { changed_files: WorkspaceFileChanges | null }).changed_files;
  expect(files).not.toBeNull();
  return files!;
}

const bash = (ws: LocalWorkspace, command: string) => call(bashTool, ws, { command });

describe('the change record of a command that makes symbolic links', () => {
  it('links made are created, a link pointed elsewhere is modified, a removed one deleted', async () => {
    const ws = open();
    const made = changes(await bash(ws, 'ln -s /etc/passwd leak.txt && ln -s .. up && echo c > ok.txt'));
    expect(made).toEqual({ created: ['leak.txt', 'ok.txt', 'up'], modified: [], deleted: [] });
    const moved = changes(await bash(ws, 'ln -sfn /etc/hosts leak.txt'));
    expect(moved).toEqual({ created: [], modified: ['leak.txt'], deleted: [] });
    const gone = changes(await bash(ws, 'rm leak.txt up'));
    expect(gone).toEqual({ created: [], modified: [], deleted: ['leak.txt', 'up'] });
  });

  it('a file replaced by a link is modified, not only deleted', async () => {
    const ws = open();
    const r = changes(await bash(ws, 'rm a.txt && ln -s /etc/hostname a.txt'));
    expect(r).toEqual({ created: [], modified: ['a.txt'], deleted: [] });
  });
});
