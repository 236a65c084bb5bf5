import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PermissionPolicyConfig, ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { put, sh, tempDirs } from './git-kit.js';
import { LocalWorkspace, gitTool } from '../src/index.js';

const DENY = { deny: ['Read(.env)', 'Read(secret/**)'] };
/** Content only hidden files hold. */
const MARK = /HIDDEN-\d/;
/** A hidden file's name, outside the rules quoted in a refusal. */
const HIDDEN_NAME = /\.env|secret\/|ключ|space name/;

const tempDir = tempDirs();

/**
 * A repository whose history changes hidden files next to visible ones, ending with a commit that
 * touches only a hidden file ("rotate key only"), and whose working tree changes both again
 * (staged and not, untracked, a hidden file renamed to a visible path), with `vault` linking to `secret`.
 */
function secretRepo(): string {
  const dir = tempDir('a3s-git-deny-');
  put(dir, {
    'src/public.ts': 'export const x = 0;\n',
    'docs/a b.md': 'spaced\n',
    'docs/é.md': 'accent\n',
    '.env': 'TOKEN=HIDDEN-1\n',
    'secret/k.ts': "export const KEY = 'HIDDEN-2';\n",
    'secret/space name.txt': 'HIDDEN-3\n',
    'secret/ключ.txt': 'HIDDEN-4\n',
    'secret/old.txt': 'moved out\n',
  });
  writeFileSync(join(dir, 'secret/blob.bin'), Buffer.from([0, 1, 2, 0, ...Buffer.from('HIDDEN-5')]));
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-qm', 'initial');
  put(dir, { 'src/public.ts': 'export const x = 1;\n', '.env': 'TOKEN=HIDDEN-6\n', 'secret/k.ts': "'HIDDEN-7';\n" });
  writeFileSync(join(dir, 'secret/blob.bin'), Buffer.from([0, 9, 9, 0, ...Buffer.from('HIDDEN-8')]));
  sh(dir, 'commit', '-qam', 'change both');
  put(dir, { 'secret/k.ts': "'HIDDEN-9';\n" });
  sh(dir, 'commit', '-qam', 'rotate key only');
  put(dir, {
    'secret/k.ts': "'HIDDEN-10';\n",
    'secret/space name.txt': 'HIDDEN-11\n',
    'secret/ключ.txt': 'HIDDEN-12\n',
    'src/public.ts': 'export const x = 2;\n',
    'docs/a b.md': 'spaced 2\n',
    'docs/é.md': 'accent 2\n',
    'secret/new.txt': 'HIDDEN-13\n',
  });
  put(dir, { '.env': 'TOKEN=HIDDEN-14\n' });
  sh(dir, 'add', '.env');
  sh(dir, 'mv', 'secret/old.txt', 'public-old.txt');
  symlinkSync(join(dir, 'secret'), join(dir, 'vault'));
  return dir;
}

type Git = (args: Record<string, unknown>) => Promise<ToolInvocationResult>;

/** The git tool through the kernel on `dir` with `policy`. */
function gitOn(dir: string, policy: PermissionPolicyConfig): Git {
  const workspace = new LocalWorkspace({ root: dir });
  const registry = new ToolRegistry({ capabilities: workspace.capabilities });
  registry.add(gitTool);
  const invoker = new ToolInvoker({ registry, workspace, policy: { defaultDecision: 'allow', ...policy } });
  let n = 0;
  return (args) => invoker.invoke({ id: `g${++n}`, name: 'git', args }, createTestInvocation().context);
}

/** Fails when the result shows a hidden file's content or names one (a refusal may quote the rule and the arguments). */
function expectNothingHidden(r: ToolInvocationResult, what: string, echoed: readonly string[] = []): void {
  let text = `${r.output}\n${JSON.stringify(r.metadata)}`.replace(/Read\([^)]*\)/g, 'Read(rule)');
  for (const e of echoed)
    text = text.replaceAll(e, '(argument)').replaceAll(JSON.stringify(e).slice(1, -1), '(argument)');
  expect(text, what).not.toMatch(MARK);
  expect(text, what).not.toMatch(HIDDEN_NAME);
}

const PATH_SPELLINGS = [
  '.env',
  './secret/k.ts',
  'secret//k.ts',
  'src/../secret/k.ts',
  'vault/k.ts',
  ':(glob)secret/*',
  ':(top)secret/k.ts',
  ':(icase)SECRET/K.TS',
  ':(literal)secret/k.ts',
  ':/secret/k.ts',
  ':(glob)**/k.ts',
  // Options where a path goes stay paths.
  '--stat',
  '-p',
];

describe('git read operations under read deny rules', () => {
  const dir = secretRepo();
  const git = gitOn(dir, DENY);

  it('status, diffs of the working tree, the index and commit ranges show visible files only', async () => {
    const status = await git({ operation: 'status' });
    expect(status.output).toContain(' M src/public.ts');
    // A hidden file renamed to a visible path shows as added there, without its old name.
    expect(status.output).toContain('A  public-old.txt');
    expectNothingHidden(status, 'status');
    for (const args of [
      {},
      { staged: true },
      { ref: 'HEAD' },
      { ref: 'HEAD~1' },
      { ref: 'HEAD~2..HEAD' },
      { ref: 'HEAD~2...HEAD' },
      { path: '.' },
      { path: 'secret' },
      { path: '*' },
      { path: ':(exclude)src' },
      { ref: 'HEAD~2', path: ':(glob)**' },
    ]) {
      const r = await git({ operation: 'diff', ...args });
      expect(r.ok, JSON.stringify(args)).toBe(true);
      expectNothingHidden(r, `diff ${JSON.stringify(args)}`);
    }
    const work = await git({ operation: 'diff' });
    expect(work.output).toContain('+export const x = 2;');
    expect(work.output).toContain('diff --git a/docs/a b.md b/docs/a b.md');
    expect(work.output).toContain('diff --git a/docs/é.md b/docs/é.md');
  });

  it('a diff or log of a hidden path refuses or shows nothing hidden, however the path is spelled', async () => {
    for (const path of [...PATH_SPELLINGS, join(dir, 'secret/k.ts')]) {
      for (const args of [
        { operation: 'diff', path },
        { operation: 'diff', ref: 'HEAD~2', path },
      ]) {
        const r = await git(args);
        expectNothingHidden(r, JSON.stringify(args), [path]);
      }
      const log = await git({ operation: 'log', path });
      expect(log.output, `log ${path}`).not.toContain('rotate key only');
    }
    const named = await git({ operation: 'log', path: 'vault/k.ts' });
    expect(named.output).toContain('Permission denied: Read(secret/**)');
  });

  it('a diff against a blob or tree is refused', async () => {
    for (const ref of [
      'HEAD:secret/k.ts',
      'HEAD:src/public.ts..HEAD:.env',
      'HEAD^{tree}',
      'HEAD~1:secret',
      'HEAD@{0}:src/public.ts..HEAD@{0}:.env',
      'HEAD@{0}:.env',
    ]) {
      const r = await git({ operation: 'diff', ref });
      expect(r.ok, ref).toBe(false);
      expect(r.output, ref).toContain('compares commits only');
      expectNothingHidden(r, ref, [ref]);
    }
  });

  it('without the rules the same diff shows the hidden files (the control)', async () => {
    const open = gitOn(dir, {});
    const r = await open({ operation: 'diff', ref: 'HEAD~2..HEAD' });
    expect(r.output).toMatch(MARK);
    expect(r.output).toContain('secret/k.ts');
  });
});

describe('what git prints from checkout, stash and conflicts under read deny rules', () => {
  it('checkout carrying or refusing local changes of hidden files names none of them', async () => {
    const dir = secretRepo();
    const git = gitOn(dir, DENY);
    sh(dir, 'branch', 'same');
    sh(dir, 'branch', 'older', 'HEAD~1');
    const carried = await git({ operation: 'checkout', ref: 'same' });
    expect(carried.ok).toBe(true);
    expect(carried.output).toContain('src/public.ts');
    expectNothingHidden(carried, 'checkout same');
    // It would rewrite a hidden file: refused before git runs (a process started while the file
    // was hidden could read the new one), naming none.
    const refused = await git({ operation: 'checkout', ref: 'older' });
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain('would rewrite a file this session may not read');
    expectNothingHidden(refused, 'checkout older');
    const control = await gitOn(dir, {})({ operation: 'checkout', ref: 'older' });
    expect(control.output).toContain('secret/k.ts');
  });

  it('a stash that would rewrite a hidden file is refused, naming none; one of visible files only goes through', async () => {
    const dir = secretRepo();
    const git = gitOn(dir, DENY);
    // An untracked hidden file (secret/new.txt) would go into the stash with include_untracked: refused.
    const untracked = await git({ operation: 'stash', include_untracked: true });
    expect(untracked.ok).toBe(false);
    expect(untracked.output).toContain('Read(secret/**)');
    expectNothingHidden(untracked, 'stash push include_untracked');
    // Pushing would put the hidden files back as new files, which a process started while they
    // were hidden (a background job, the eval kernel, a debuggee) could read.
    const before = sh(dir, 'status', '--porcelain');
    const pushed = await git({ operation: 'stash' });
    expect(pushed.ok).toBe(false);
    expect(pushed.output).toContain('would rewrite a file this session may not read');
    expectNothingHidden(pushed, 'stash push');
    expect(sh(dir, 'status', '--porcelain')).toBe(before);
    // A stash made outside the session that holds hidden changes: pop and apply are refused alike.
    sh(dir, 'stash', 'push', '-q');
    for (const action of ['pop', 'apply']) {
      const r = await git({ operation: 'stash', action });
      expect(r.ok, action).toBe(false);
      expectNothingHidden(r, `stash ${action}`);
    }
    expect(sh(dir, 'stash', 'list')).toContain('stash@{0}');
    // Visible changes only: through the tool both ways.
    sh(dir, 'stash', 'drop', '-q');
    put(dir, { 'src/public.ts': 'export const x = 5;\n' });
    expect((await git({ operation: 'stash' })).ok).toBe(true);
    const popped = await git({ operation: 'stash', action: 'pop' });
    expect(popped.ok).toBe(true);
    expect(popped.output).toContain('src/public.ts');
    expectNothingHidden(popped, 'stash pop');
  });

  it('a status whose only changes are hidden says it is not clean and how many paths it leaves out, naming none', async () => {
    const dir = secretRepo();
    sh(dir, 'add', '-A');
    sh(dir, 'commit', '-qm', 'everything');
    const git = gitOn(dir, DENY);
    const clean = await git({ operation: 'status' });
    expect(clean.metadata).toMatchObject({ clean: true, total: 0 });
    expect(clean.metadata.withheld).toBeUndefined();
    put(dir, { 'secret/k.ts': "'HIDDEN-30';\n", '.env': 'TOKEN=HIDDEN-31\n' });
    const r = await git({ operation: 'status' });
    expect(r.metadata).toMatchObject({ clean: false, total: 0, withheld: 2 });
    expect(r.output).toContain('(no changes this session may read)');
    expect(r.output).toContain('[2 more changed paths not shown: this session may not read them]');
    expectNothingHidden(r, 'status of hidden changes only');
    put(dir, { 'src/public.ts': 'export const x = 9;\n' });
    const mixed = await git({ operation: 'status' });
    expect(mixed.output).toContain(' M src/public.ts');
    expect(mixed.metadata).toMatchObject({ clean: false, total: 1, withheld: 2 });
    const open = await gitOn(dir, {})({ operation: 'status' });
    expect(open.metadata).toMatchObject({ clean: false, total: 3 });
    expect(open.output).not.toContain('not shown');
  });

  it('a worktree of a tree ref is refused; a worktree inside a hidden folder is not listed', async () => {
    const dir = secretRepo();
    const git = gitOn(dir, DENY);
    const r = await git({ operation: 'worktree', action: 'create', path: 'copy', ref: 'HEAD:secret' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain('commits only');
    sh(dir, 'worktree', 'add', '-q', 'secret/wt');
    sh(dir, 'worktree', 'add', '-q', 'shown-wt');
    const list = await git({ operation: 'worktree' });
    expect(list.output).toContain('shown-wt');
    expectNothingHidden(list, 'worktree list');
  });
});
