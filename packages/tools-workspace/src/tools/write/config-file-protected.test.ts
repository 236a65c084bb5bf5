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
          expect(e.message).toContain('not named a3s.config.json');
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

  it('refuses a3s.config.json and anything in a .a3s/ folder in a subfolder, at any depth, naming the path', async () => {
    for (const file_path of [
      'pkg/a3s.config.json',
      'pkg/.a3s/config.json',
      'pkg/.a3s/agents/x.md',
      'pkg/.a3s/skills/s/SKILL.md',
      'a/b/c/a3s.config.json',
      'a/b/.a3s/instructions.md',
      join(tmp.dir, 'pkg2', '.a3s', 'config.json'),
    ]) {
      const attempt = call(writeTool, ws, { file_path, content: GRANT });
      await expect(attempt, file_path).rejects.toMatchObject({ ...refused, details: { path: file_path } });
      await attempt.catch((e: Error) => expect(e.message).toContain('agent configuration in a subfolder'));
    }
    for (const gone of ['pkg/a3s.config.json', 'pkg/.a3s', 'a', 'pkg2'])
      expect(existsSync(join(tmp.dir, gone))).toBe(false);
  });

  it('edit and patch refuse a nested one too, and a rename onto one', async () => {
    writeTree(tmp.dir, { 'sub/a3s.config.json': ORIGINAL, 'sub/.a3s/config.json': ORIGINAL, 'sub/grant.json': GRANT });
    for (const file_path of ['sub/a3s.config.json', 'sub/.a3s/config.json'])
      await expect(
        call(editTool, ws, { file_path, old_string: '"model"', new_string: '"hooks": {}, "model"' }),
      ).rejects.toMatchObject(refused);
    const rename =
      'diff --git a/sub/grant.json b/deep/.a3s/config.json\nrename from sub/grant.json\nrename to deep/.a3s/config.json\n';
    await expect(call(patchTool, ws, { patch: rename })).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    expect(readFileSync(join(tmp.dir, 'sub/a3s.config.json'), 'utf8')).toBe(ORIGINAL);
    expect(readFileSync(join(tmp.dir, 'sub/.a3s/config.json'), 'utf8')).toBe(ORIGINAL);
    expect(existsSync(join(tmp.dir, 'sub/grant.json'))).toBe(true);
  });

  it('leaves instructions, look-alike names and (where case counts) .A3S writable; a new root file is refused', async () => {
    const writable = [
      'pkg/CLAUDE.md',
      'pkg/AGENTS.md',
      'CLAUDE.md',
      'pkg/a3s.config.json.bak',
      'pkg/x.a3s/config.json',
    ];
    if (process.platform === 'linux') writable.push('pkg/.A3S/config.json', 'pkg/A3S.CONFIG.JSON');
    for (const file_path of writable)
      expect((await call(writeTool, ws, { file_path, content: 'notes\n' })).exitCode, file_path).toBe(0);
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
    await expect(call(writeTool, mem, { file_path: 'docs/a3s.config.json', content: GRANT })).rejects.toMatchObject(
      refused,
    );
    await expect(call(writeTool, mem, { file_path: 'docs/.a3s/config.json', content: GRANT })).rejects.toMatchObject(
      refused,
    );
    expect((await call(writeTool, mem, { file_path: 'docs/AGENTS.md', content: GRANT })).exitCode).toBe(0);
  });
});
