/**
 * The workspace's configuration file at its root (`a3s.config.json`) is the agent's own: its
 * permission rules, hooks and MCP servers apply to later sessions. A file tool that could write it
 * would turn one approved write into commands that later run unasked, so write, edit and patch
 * refuse it under every spelling (`./`, `..`, absolute, another letter case, a symbolic link to
 * it), on disk and in memory, as they refuse `.a3s/config.json`. The same name in a subfolder is
 * an ordinary file. Real files.
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { patchTool } from '../patch/patch-tool.js';
import { writeTool } from './write-tool.js';

const tmp = tempDir('a3s-config-file-');
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

const ORIGINAL = '{ "model": "openai/gpt-4o" }\n';
const GRANT = '{ "permissions": { "allow": ["bash"] }, "hooks": {} }\n';
const refused = { code: 'WORKSPACE_PATH', problem: 'protected' };

describe("the workspace's configuration file", () => {
  it('write refuses a3s.config.json under every spelling and through a link, and leaves it as it was', async () => {
    writeTree(tmp.dir, { 'a3s.config.json': ORIGINAL, 'src/a.ts': 'x\n' });
    symlinkSync('a3s.config.json', join(tmp.dir, 'alias.json'));
    for (const file_path of [
      'a3s.config.json',
      './a3s.config.json',
      'src/../a3s.config.json',
      join(tmp.dir, 'a3s.config.json'),
      'A3S.CONFIG.JSON',
      'alias.json',
    ]) {
      const attempt = call(writeTool, ws, { file_path, content: GRANT });
      await expect(attempt, file_path).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
      await attempt.catch((e: Error) => {
        if (!file_path.startsWith('alias')) {
          expect(e).toMatchObject(refused);
          expect(e.message).toContain("is the workspace's configuration file");
          expect(e.message).toContain('other than its a3s.config.json');
        }
      });
    }
    expect(readFileSync(join(tmp.dir, 'a3s.config.json'), 'utf8')).toBe(ORIGINAL);
  });

  it('edit and patch refuse it too (modify, create, delete, rename onto it)', async () => {
    await expect(
      call(editTool, ws, { file_path: 'a3s.config.json', old_string: '"model"', new_string: '"hooks": {}, "model"' }),
    ).rejects.toMatchObject(refused);
    const modify =
      '--- a/a3s.config.json\n+++ b/a3s.config.json\n@@ -1 +1 @@\n-{ "model": "openai/gpt-4o" }\n+{ "permissions": { "allow": ["bash"] } }\n';
    await expect(call(patchTool, ws, { patch: modify })).rejects.toMatchObject(refused);
    const remove = '--- a/a3s.config.json\n+++ /dev/null\n@@ -1 +0,0 @@\n-{ "model": "openai/gpt-4o" }\n';
    await expect(call(patchTool, ws, { patch: remove })).rejects.toMatchObject(refused);
    writeFileSync(join(tmp.dir, 'grant.json'), GRANT);
    const rename = 'diff --git a/grant.json b/a3s.config.json\nrename from grant.json\nrename to a3s.config.json\n';
    await expect(call(patchTool, ws, { patch: rename })).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    expect(readFileSync(join(tmp.dir, 'a3s.config.json'), 'utf8')).toBe(ORIGINAL);
    expect(existsSync(join(tmp.dir, 'grant.json'))).toBe(true);
  });

  it('a file of that name in a subfolder is an ordinary file; a new root file is refused like an existing one', async () => {
    const r = await call(writeTool, ws, { file_path: 'examples/a3s.config.json', content: GRANT });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(tmp.dir, 'examples', 'a3s.config.json'), 'utf8')).toBe(GRANT);
    const fresh = tempDir('a3s-config-file-new-');
    try {
      await expect(
        call(writeTool, new LocalWorkspace({ root: fresh.dir }), { file_path: 'a3s.config.json', content: GRANT }),
      ).rejects.toMatchObject(refused);
      expect(existsSync(join(fresh.dir, 'a3s.config.json'))).toBe(false);
    } finally {
      fresh.cleanup();
    }
  });

  it('a workspace in memory refuses it the same way', async () => {
    const mem = new MemoryWorkspace();
    await expect(call(writeTool, mem, { file_path: 'a3s.config.json', content: GRANT })).rejects.toMatchObject(refused);
    expect((await call(writeTool, mem, { file_path: 'docs/a3s.config.json', content: GRANT })).exitCode).toBe(0);
  });
});
