import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { put, sh, tempDirs } from './git-kit.js';
import { LocalWorkspace, gitTool } from '../src/index.js';

const tempDir = tempDirs();

/** `main` and a branch `other` that changes `secret/k.txt`, and a branch `docs` that does not. */
function repo(): string {
  const dir = tempDir('a3s-git-write-deny-');
  put(dir, { 'secret/k.txt': 'main key\n', 'src/a.ts': 'a\n', 'key.pem': 'pem\n' });
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-qm', 'initial');
  sh(dir, 'checkout', '-qb', 'other');
  put(dir, { 'secret/k.txt': 'other key\n' });
  sh(dir, 'commit', '-qam', 'other key');
  sh(dir, 'checkout', '-q', 'main');
  sh(dir, 'checkout', '-qb', 'docs');
  put(dir, { 'src/a.ts': 'docs\n' });
  sh(dir, 'commit', '-qam', 'docs');
  sh(dir, 'checkout', '-q', 'main');
  symlinkSync(join(dir, 'secret'), join(dir, 'vault'));
  return dir;
}

type Git = (args: Record<string, unknown>) => Promise<ToolInvocationResult>;

function gitOn(dir: string, deny: readonly string[]): Git {
  const workspace = new LocalWorkspace({ root: dir });
  const registry = new ToolRegistry({ capabilities: workspace.capabilities });
  registry.add(gitTool);
  const invoker = new ToolInvoker({ registry, workspace, policy: { defaultDecision: 'allow', deny: [...deny] } });
  let n = 0;
  return (args) => invoker.invoke({ id: `g${++n}`, name: 'git', args }, createTestInvocation().context);
}

function expectRefused(r: ToolInvocationResult, rule: string): void {
  expect(r.ok, r.output).toBe(false);
  expect(r.metadata.error_code).toBe('PERMISSION_DENIED');
  expect(r.output).toContain(rule);
  expect(r.output).toContain('nothing was changed');
}

const text = (dir: string, rel: string): string => readFileSync(join(dir, rel), 'utf8');

describe('git mutations under write deny rules', () => {
  it('checkout of a branch that changes a denied file is refused; one that does not runs', async () => {
    const dir = repo();
    const git = gitOn(dir, ['Write(secret/**)']);
    expectRefused(await git({ operation: 'checkout', ref: 'other' }), 'Write(secret/**)');
    expect(text(dir, 'secret/k.txt')).toBe('main key\n');
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('main');
    // A ref git would have to guess (a remote branch) cannot be listed beforehand: refused too.
    expectRefused(await git({ operation: 'checkout', ref: 'no-such-branch' }), 'no-such-branch');
    const docs = await git({ operation: 'checkout', ref: 'docs' });
    expect(docs.ok, docs.output).toBe(true);
    expect(text(dir, 'src/a.ts')).toBe('docs\n');
    // Creating a branch changes no file.
    expect((await git({ operation: 'checkout', ref: 'feature', create: true })).ok).toBe(true);
  });

  it('stash push of changed or untracked denied files and stash pop of them are refused', async () => {
    const dir = repo();
    const git = gitOn(dir, ['Write(secret/**)']);
    put(dir, { 'secret/k.txt': 'edited by the person\n', 'secret/new.txt': 'untracked\n', 'src/a.ts': 'work\n' });
    expectRefused(await git({ operation: 'stash', action: 'push' }), 'Write(secret/**)');
    expectRefused(await git({ operation: 'stash', action: 'push', include_untracked: true }), 'secret/');
    expect(text(dir, 'secret/k.txt')).toBe('edited by the person\n');
    expect(text(dir, 'secret/new.txt')).toBe('untracked\n');
    expect(sh(dir, 'stash', 'list')).toBe('');
    // A stash the person made that holds a denied file cannot be popped or applied by the model.
    sh(dir, 'stash', 'push', '-q', '--include-untracked');
    expectRefused(await git({ operation: 'stash', action: 'pop' }), 'Write(secret/**)');
    expectRefused(await git({ operation: 'stash', action: 'apply' }), 'Write(secret/**)');
    expect(text(dir, 'secret/k.txt')).toBe('main key\n');
    expect(existsSync(join(dir, 'secret/new.txt'))).toBe(false);
    // Changes to other files stash and pop as usual.
    sh(dir, 'stash', 'drop', '-q');
    put(dir, { 'src/a.ts': 'work\n' });
    expect((await git({ operation: 'stash', action: 'push' })).ok).toBe(true);
    expect(text(dir, 'src/a.ts')).toBe('a\n');
    expect((await git({ operation: 'stash', action: 'pop' })).ok).toBe(true);
    expect(text(dir, 'src/a.ts')).toBe('work\n');
  });

  it('a worktree in a denied folder, through a symbolic link, or holding a denied file is refused', async () => {
    const dir = repo();
    const git = gitOn(dir, ['Write(secret/**)']);
    for (const path of ['secret/wt', './secret/wt', 'src/../secret/wt', 'vault/wt']) {
      expectRefused(await git({ operation: 'worktree', action: 'create', path, ref: 'HEAD' }), 'Write(secret/**)');
      expect(existsSync(join(dir, 'secret/wt'))).toBe(false);
    }
    const pem = gitOn(dir, ['Write(**/*.pem)']);
    expectRefused(await pem({ operation: 'worktree', action: 'create', path: 'wt', ref: 'HEAD' }), 'wt/key.pem');
    expect(existsSync(join(dir, 'wt'))).toBe(false);
    // The person's worktree holding a denied file cannot be removed by the model.
    sh(dir, 'worktree', 'add', '-q', 'wt2', 'docs');
    expectRefused(await pem({ operation: 'worktree', action: 'remove', path: 'wt2', force: true }), 'wt2/key.pem');
    expect(text(dir, 'wt2/key.pem')).toBe('pem\n');
    // Elsewhere, and without the rule, worktrees are made and removed as usual.
    expect((await git({ operation: 'worktree', action: 'create', path: 'wt', ref: 'HEAD' })).ok).toBe(true);
    expect(text(dir, 'wt/src/a.ts')).toBe('a\n');
    expect((await git({ operation: 'worktree', action: 'remove', path: 'wt' })).ok).toBe(true);
  });

  it('a refusal does not name a denied file the call may not read either', async () => {
    const dir = repo();
    const git = gitOn(dir, ['Write(secret/**)', 'Read(secret/**)']);
    const r = await git({ operation: 'checkout', ref: 'other' });
    expectRefused(r, 'Write(secret/**)');
    expect(r.output).not.toContain('k.txt');
    expect(r.output).toContain('a file this session may not read');
  });
});
