import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCapabilities } from '@a3s-code/core';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, initRepo, sh, tempDir, writeTree } from '../../test-support/harness.js';
import { gitTool } from './git-tool.js';

const tmp = tempDir();
let ws: LocalWorkspace;

beforeAll(() => {
  writeTree(tmp.dir, { 'a.txt': 'one\n', '.gitignore': '.worktrees-ignored/\n' });
  initRepo(tmp.dir);
  for (let i = 1; i <= 12; i++) {
    writeFileSync(join(tmp.dir, 'a.txt'), `one\nchange ${i}\n`);
    sh(tmp.dir, 'commit', '-qam', `commit ${i}`);
  }
  ws = new LocalWorkspace({ root: tmp.dir });
});
afterAll(() => tmp.cleanup());

type Meta = Record<string, unknown> & { next_cursor?: string | null };

describe('git', () => {
  it('status lists changes sorted by path, paginated', async () => {
    writeTree(tmp.dir, { 'new1.txt': 'n', 'new2.txt': 'n', 'new3.txt': 'n' });
    writeFileSync(join(tmp.dir, 'a.txt'), 'dirty\n');
    const r = await call(gitTool, ws, { operation: 'status', limit: 2 });
    expect(r.output.split('\n')[0]).toBe('## main');
    expect((r.metadata as { items: Array<{ path: string; status: string }> }).items).toEqual([
      { status: ' M', path: 'a.txt' },
      { status: '??', path: 'new1.txt' },
    ]);
    const next = await call(gitTool, ws, { operation: 'status', limit: 2, cursor: (r.metadata as Meta).next_cursor });
    expect((next.metadata as { items: Array<{ path: string }> }).items.map((e) => e.path)).toEqual([
      'new2.txt',
      'new3.txt',
    ]);
    expect((next.metadata as Meta).next_cursor).toBeNull();
    expect(resolveCapabilities(gitTool, { operation: 'status' })).toMatchObject({ readOnly: true });
  });

  it('BND-03: log pages newest first with a cursor', async () => {
    const first = await call(gitTool, ws, { operation: 'log', limit: 5 });
    const subjects = (m: Meta): string[] => (m.commits as Array<{ subject: string }>).map((c) => c.subject);
    expect(subjects(first.metadata as Meta)).toEqual(['commit 12', 'commit 11', 'commit 10', 'commit 9', 'commit 8']);
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await call(gitTool, ws, { operation: 'log', limit: 5, ...(cursor ? { cursor } : {}) });
      all.push(...subjects(r.metadata as Meta));
      cursor = (r.metadata as Meta).next_cursor ?? undefined;
    } while (cursor);
    expect(all).toHaveLength(13);
    expect(all[12]).toBe('initial');
  });

  it('BND-03: diff pages by bytes at line ends and resumes exactly', async () => {
    writeFileSync(
      join(tmp.dir, 'a.txt'),
      Array.from({ length: 400 }, (_, i) => `a fairly long changed line number ${i}\n`).join(''),
    );
    const whole = sh(tmp.dir, 'diff', '--no-color');
    let text = '';
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const r = await call(gitTool, ws, { operation: 'diff', byte_offset: offset, max_bytes: 1024 });
      const meta = r.metadata as { next_byte_offset: number | null; returned_bytes: number; total_bytes: number };
      expect(meta.returned_bytes).toBeLessThanOrEqual(1024);
      text += r.output.replace(/\n\[diff continues: .*\]$/, '');
      offset = meta.next_byte_offset;
      pages++;
    }
    expect(pages).toBeGreaterThan(10);
    expect(text).toBe(whole);
    sh(tmp.dir, 'checkout', '--', 'a.txt');
    expect((await call(gitTool, ws, { operation: 'diff' })).output).toBe('(no differences)');
    expect((await call(gitTool, ws, { operation: 'diff', ref: 'HEAD~1' })).output).toContain('-change 11');
  });

  it('branch create and list, checkout, and a failed checkout as a failed result', async () => {
    sh(tmp.dir, 'add', '-A');
    sh(tmp.dir, 'commit', '-qm', 'add new files');
    expect((await call(gitTool, ws, { operation: 'branch', action: 'create', name: 'feature/x' })).exitCode).toBe(0);
    const list = await call(gitTool, ws, { operation: 'branch' });
    expect(
      (list.metadata as { items: Array<{ name: string; current: boolean }> }).items.map((b) => [b.name, b.current]),
    ).toEqual([
      ['feature/x', false],
      ['main', true],
    ]);
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'feature/x' })).exitCode).toBe(0);
    expect(sh(tmp.dir, 'branch', '--show-current').trim()).toBe('feature/x');
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'topic', create: true })).exitCode).toBe(0);
    const bad = await call(gitTool, ws, { operation: 'checkout', ref: 'no-such-branch' });
    expect(bad.exitCode).toBe(1);
    expect(bad.metadata).toMatchObject({ error: { code: 'GIT_FAILED' } });
    expect(resolveCapabilities(gitTool, { operation: 'checkout', ref: 'x' })).toMatchObject({ readOnly: false });
  });

  it('stash push, list, pop', async () => {
    writeFileSync(join(tmp.dir, 'a.txt'), 'stashed change\n');
    expect((await call(gitTool, ws, { operation: 'stash', message: 'wip one' })).exitCode).toBe(0);
    const list = await call(gitTool, ws, { operation: 'stash', action: 'list' });
    expect(list.output).toContain('stash@{0}: On topic: wip one');
    expect((await call(gitTool, ws, { operation: 'stash', action: 'pop' })).exitCode).toBe(0);
    expect(sh(tmp.dir, 'diff')).toContain('+stashed change');
    sh(tmp.dir, 'checkout', '--', 'a.txt');
  });

  it('worktree create, list and remove, only inside the workspace', async () => {
    const created = await call(gitTool, ws, {
      operation: 'worktree',
      action: 'create',
      path: '.worktrees-ignored/wt1',
      name: 'wt-branch',
    });
    expect(created.exitCode, created.output).toBe(0);
    expect(existsSync(join(tmp.dir, '.worktrees-ignored/wt1/a.txt'))).toBe(true);
    const list = await call(gitTool, ws, { operation: 'worktree' });
    expect(
      (list.metadata as { items: Array<{ path: string; branch: string }> }).items.map((t) => [t.path, t.branch]),
    ).toEqual([
      ['.', 'topic'],
      ['.worktrees-ignored/wt1', 'wt-branch'],
    ]);
    expect(
      (await call(gitTool, ws, { operation: 'worktree', action: 'remove', path: '.worktrees-ignored/wt1' })).exitCode,
    ).toBe(0);
    expect(existsSync(join(tmp.dir, '.worktrees-ignored/wt1'))).toBe(false);
    await expect(
      call(gitTool, ws, { operation: 'worktree', action: 'create', path: '../outside-wt' }),
    ).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    await expect(call(gitTool, ws, { operation: 'worktree', action: 'create', path: '.a3s/wt' })).rejects.toMatchObject(
      { code: 'WORKSPACE_PATH' },
    );
  });

  it('refuses fields of another operation, option-like refs and missing required fields', async () => {
    await expect(call(gitTool, ws, { operation: 'status', ref: 'main' })).rejects.toMatchObject({ field: 'args.ref' });
    await expect(call(gitTool, ws, { operation: 'checkout', ref: '--orphan=x' })).rejects.toMatchObject({
      field: 'args.ref',
    });
    await expect(call(gitTool, ws, { operation: 'checkout' })).rejects.toMatchObject({ field: 'args.ref' });
    await expect(call(gitTool, ws, { operation: 'branch', action: 'create' })).rejects.toMatchObject({
      field: 'args.name',
    });
    await expect(call(gitTool, ws, { operation: 'branch', action: 'pop' })).rejects.toMatchObject({
      field: 'args.action',
    });
    await expect(call(gitTool, ws, { operation: 'rebase' })).rejects.toMatchObject({ field: 'args.operation' });
    await expect(call(gitTool, ws, { operation: 'diff', max_bytes: 10 })).rejects.toMatchObject({
      field: 'args.max_bytes',
    });
  });
});
