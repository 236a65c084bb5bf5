/**
 * What a change keeps of the file it replaces: its hard links (a file with several names, all
 * writable workspace paths, is rewritten in place, so every name sees the change; a name outside or
 * in .git is never written through) and its mode; and the new content is on disk
 * (flushed) before it replaces the old; a process running as root keeps the file's owner. Real files.
 */
import { chmodSync, chownSync, linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { patchTool } from '../patch/patch-tool.js';
import { writeTool } from './write-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());
const at = (name: string): string => join(tmp.dir, name);

describe('hard links', () => {
  it('edit, write and patch of a file with two names change both names, which stay one file', async () => {
    writeFileSync(at('one.txt'), 'alpha\nbeta\n');
    linkSync(at('one.txt'), at('two.txt'));
    const inode = statSync(at('one.txt')).ino;
    const edit = await call(editTool, ws, { file_path: 'one.txt', old_string: 'alpha', new_string: 'ALPHA' });
    expect(edit.exitCode, edit.output).toBe(0);
    expect(readFileSync(at('two.txt'), 'utf8')).toBe('ALPHA\nbeta\n');
    await call(writeTool, ws, { file_path: 'two.txt', content: 'short\n' });
    expect(readFileSync(at('one.txt'), 'utf8')).toBe('short\n');
    await call(patchTool, ws, { patch: '--- a/one.txt\n+++ b/one.txt\n@@ -1 +1 @@\n-short\n+patched\n' });
    await call(writeTool, ws, { file_path: 'one.txt', content: 'more\n', mode: 'append' });
    expect(readFileSync(at('two.txt'), 'utf8')).toBe('patched\nmore\n');
    expect(statSync(at('one.txt')).ino).toBe(inode);
    expect(statSync(at('two.txt')).nlink).toBe(2);
  });
});

describe('hard links to names the tools may not write', () => {
  it('a file also named outside the workspace or inside .git is replaced, never rewritten in place', async () => {
    const outside = tempDir('a3s-outside-');
    try {
      writeFileSync(join(outside.dir, 'home.txt'), 'outside\n');
      linkSync(join(outside.dir, 'home.txt'), at('in.txt'));
      const r = await call(editTool, ws, { file_path: 'in.txt', old_string: 'outside', new_string: 'changed' });
      expect(r.exitCode, r.output).toBe(0);
      expect(readFileSync(at('in.txt'), 'utf8')).toBe('changed\n');
      expect(readFileSync(join(outside.dir, 'home.txt'), 'utf8')).toBe('outside\n');
    } finally {
      outside.cleanup();
    }
    mkdirSync(at('.git'), { recursive: true });
    writeFileSync(at('.git/config'), '[core]\n');
    linkSync(at('.git/config'), at('notes.txt'));
    await call(writeTool, ws, { file_path: 'notes.txt', content: '[core]\n\thooksPath = /tmp/evil\n' });
    expect(readFileSync(at('.git/config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(at('notes.txt'), 'utf8')).toContain('hooksPath');
  });
});

describe('modes', () => {
  it('a 0755 script stays 0755 after edit, write and patch', async () => {
    writeFileSync(at('run.sh'), '#!/bin/sh\necho one\n');
    chmodSync(at('run.sh'), 0o755);
    await call(editTool, ws, { file_path: 'run.sh', old_string: 'one', new_string: 'two' });
    expect(statSync(at('run.sh')).mode & 0o777).toBe(0o755);
    await call(writeTool, ws, { file_path: 'run.sh', content: '#!/bin/sh\necho three\n' });
    expect(statSync(at('run.sh')).mode & 0o777).toBe(0o755);
    const r = await call(patchTool, ws, {
      patch: '--- a/run.sh\n+++ b/run.sh\n@@ -2 +2 @@\n-echo three\n+echo four\n',
    });
    expect(r.exitCode, r.output).toBe(0);
    expect(statSync(at('run.sh')).mode & 0o777).toBe(0o755);
    expect(readFileSync(at('run.sh'), 'utf8')).toBe('#!/bin/sh\necho four\n');
  });
});

describe('full mode and owner', () => {
  it.skipIf(process.getuid?.() !== 0)(
    'edit, write and patch keep every mode bit (0640, 0600, setuid, setgid, sticky) and the owner, in a setgid folder too',
    async () => {
      mkdirSync(at('shared'), { recursive: true });
      chownSync(at('shared'), 0, 4323);
      chmodSync(at('shared'), 0o2775);
      for (const name of ['kept.txt', 'shared/kept.txt'])
        for (const mode of [0o640, 0o600, 0o2755, 0o4755, 0o1644, 0o2644]) {
          writeFileSync(at(name), 'a\n');
          chownSync(at(name), 4321, 4322); // before chmod: a chown clears setuid and setgid
          chmodSync(at(name), mode);
          const seen: string[] = [];
          const look = (): void => {
            const st = statSync(at(name));
            seen.push(`${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`);
          };
          await call(editTool, ws, { file_path: name, old_string: 'a', new_string: 'b' });
          look();
          await call(writeTool, ws, { file_path: name, content: 'z\n' });
          look();
          await call(patchTool, ws, { patch: `--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n-z\n+y\n` });
          look();
          const want = `${mode.toString(8)} 4321:4322`;
          expect(seen, `${name} ${mode.toString(8)}`).toEqual([want, want, want]);
          expect(readFileSync(at(name), 'utf8')).toBe('y\n');
        }
    },
  );
});

describe('owner', () => {
  it.skipIf(process.getuid?.() !== 0)(
    'a file edited by a process running as root keeps its owner and group',
    async () => {
      writeFileSync(at('owned.txt'), 'mine\n');
      chownSync(at('owned.txt'), 4321, 4322);
      await call(editTool, ws, { file_path: 'owned.txt', old_string: 'mine', new_string: 'still mine' });
      await call(writeTool, ws, { file_path: 'owned.txt', content: 'again\n' });
      const st = statSync(at('owned.txt'));
      expect([st.uid, st.gid]).toEqual([4321, 4322]);
      expect(readFileSync(at('owned.txt'), 'utf8')).toBe('again\n');
    },
  );
});

describe('durability', () => {
  it('a replaced file is flushed to disk before the rename', async () => {
    const probe = await open(at('probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
    await probe.close();
    const sync = vi.spyOn(proto, 'sync');
    try {
      writeFileSync(at('d.txt'), 'x\n');
      await call(writeTool, ws, { file_path: 'd.txt', content: 'y\n' });
      expect(sync).toHaveBeenCalled();
    } finally {
      sync.mockRestore();
    }
    expect(readFileSync(at('d.txt'), 'utf8')).toBe('y\n');
  });
});
