import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../session/atomic-file.js';
import { FileSessionStore } from '../session/file-session-store.js';
import { FileFactStore } from './file-fact-store.js';
import { attachmentStoreFor } from '../attachments/attachment-store.js';
import { mkdirState } from './state-folder.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'a3s-state-'));

describe('the .a3s state folder', () => {
  it('the first fact log creates .a3s/.gitignore (*), so git status stays clean', async () => {
    const ws = tmp();
    execFileSync('git', ['init', '-q'], { cwd: ws });
    const store = await FileFactStore.open(ws, 's1');
    await store.append([{ type: 'user.message', key: 'u1', payload: { text: 'hi', source: 'user' } }], null);
    await store.close();
    expect(readFileSync(join(ws, '.a3s', '.gitignore'), 'utf8')).toBe('*\n');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: ws, encoding: 'utf8' })).toBe('');
  });

  it('a saved session file creates it the same way', async () => {
    const ws = tmp();
    await writeFileAtomic(new FileSessionStore(ws).pathOf('s1'), '{}');
    expect(readFileSync(join(ws, '.a3s', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('leaves a .a3s folder the user made alone (its config stays committable)', async () => {
    const ws = tmp();
    mkdirSync(join(ws, '.a3s'));
    writeFileSync(join(ws, '.a3s', 'config.json'), '{}');
    await mkdirState(join(ws, '.a3s', 'effect-log'));
    expect(existsSync(join(ws, '.a3s', 'effect-log'))).toBe(true);
    expect(existsSync(join(ws, '.a3s', '.gitignore'))).toBe(false);
  });

  it('in a .a3s folder the user made, each state folder keeps itself out of git status', async () => {
    const ws = tmp();
    execFileSync('git', ['init', '-q'], { cwd: ws });
    mkdirSync(join(ws, '.a3s', 'skills'), { recursive: true });
    writeFileSync(join(ws, '.a3s', 'config.json'), '{}');
    mkdirSync(join(ws, '.a3s', 'sessions'));
    await mkdirState(join(ws, '.a3s', 'effect-log'));
    writeFileSync(join(ws, '.a3s', 'effect-log', 's1.jsonl'), '{}\n');
    await writeFileAtomic(new FileSessionStore(ws).pathOf('s1'), '{}');
    await mkdirState(join(ws, '.a3s', 'artifacts', 'ab'));
    writeFileSync(join(ws, '.a3s', 'artifacts', 'ab', 'x'), 'secret');
    const status = execFileSync('git', ['status', '--porcelain', '-uall'], { cwd: ws, encoding: 'utf8' });
    expect(status.trim().split('\n').sort()).toEqual(['?? .a3s/config.json']);
    expect(readFileSync(join(ws, '.a3s', 'effect-log', '.gitignore'), 'utf8')).toBe('*\n');
    expect(existsSync(join(ws, '.a3s', '.gitignore'))).toBe(false);
  });

  it('a folder outside any .a3s gets no .gitignore', async () => {
    const ws = tmp();
    await mkdirState(join(ws, 'logs', 'x'));
    expect(existsSync(join(ws, 'logs', 'x'))).toBe(true);
    expect(existsSync(join(ws, 'logs', '.gitignore'))).toBe(false);
  });
});

describe('a linked state folder is refused before anything is written through it', () => {
  it('LOG-05: a fact log, a saved session and an attachment refuse a .a3s subfolder linked outside', async () => {
    const ws = tmp();
    const away = tmp();
    mkdirSync(join(ws, '.a3s'));
    symlinkSync(away, join(ws, '.a3s', 'effect-log'));
    await expect(FileFactStore.open(ws, 's1')).rejects.toMatchObject({
      code: 'WORKSPACE_PATH',
      path: join(ws, '.a3s', 'effect-log'),
    });
    symlinkSync(away, join(ws, '.a3s', 'sessions'));
    await expect(writeFileAtomic(join(new FileSessionStore(ws).folder, 's.json'), '{}')).rejects.toMatchObject({
      code: 'WORKSPACE_PATH',
    });
    // The fact log folder is real; the attachments beside it are a link.
    const ws2 = tmp();
    const store = await FileFactStore.open(ws2, 's1');
    symlinkSync(away, join(ws2, '.a3s', 'artifacts'));
    const attachments = attachmentStoreFor(store);
    await expect(attachments.put('ab'.repeat(32), new Uint8Array([1]))).rejects.toMatchObject({
      code: 'WORKSPACE_PATH',
      message: expect.stringContaining(`${join(ws2, '.a3s', 'artifacts')} is a symbolic link`),
    });
    await expect(attachments.get('ab'.repeat(32))).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    await store.close();
    expect(readdirSync(away)).toEqual([]);
  });

  it('LOG-05: mkdirState refuses .a3s itself as a link, and a file where a folder belongs', async () => {
    const ws = tmp();
    symlinkSync(tmp(), join(ws, '.a3s'));
    await expect(mkdirState(join(ws, '.a3s', 'effect-log'))).rejects.toMatchObject({
      code: 'WORKSPACE_PATH',
      problem: 'is a symbolic link',
    });
    const ws2 = tmp();
    mkdirSync(join(ws2, '.a3s'));
    writeFileSync(join(ws2, '.a3s', 'sessions'), 'x');
    await expect(mkdirState(join(ws2, '.a3s', 'sessions'))).rejects.toMatchObject({ problem: 'is not a folder' });
  });

  it('LOG-05: the refusal says what to do about what is there, and no more (a link is removed, a file moved)', async () => {
    const linked = tmp();
    symlinkSync(tmp(), join(linked, '.a3s'));
    const link = await mkdirState(join(linked, '.a3s', 'effect-log')).catch((e: Error) => e);
    expect((link as Error).message).toContain('(remove the link; the runtime then creates the folder)');
    const file = tmp();
    writeFileSync(join(file, '.a3s'), 'x');
    const message = ((await mkdirState(join(file, '.a3s', 'effect-log')).catch((e: Error) => e)) as Error).message;
    expect(message).toContain(`${join(file, '.a3s')} is not a folder`);
    expect(message).toContain('(move or remove what is there; the runtime then creates the folder)');
    // Memory persistence alone would not help: the session store and memories keep files there too.
    expect(message).not.toMatch(/link|persistence/);
  });
});

describe('a state folder on a read-only file system', () => {
  it('fails with EROFS, naming the folder, not with the ENOENT a recursive mkdir reports there', async (ctx) => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-ro-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'none', dir], { stdio: 'ignore' });
    } catch {
      ctx.skip('mounting a read-only tmpfs needs root (CAP_SYS_ADMIN); not here');
    }
    try {
      await expect(mkdirState(join(dir, '.a3s', 'sessions'))).rejects.toMatchObject({ code: 'EROFS' });
    } finally {
      execFileSync('umount', [dir]);
    }
  });
});
