import { describe, expect, it } from 'vitest';
import { denied, gitOn, put, sh, tempDirs } from './git-kit.js';

const tempDir = tempDirs();

// main (two commits), feature (one more), checked out on feature.
function repo(): string {
  const dir = tempDir('a3s-git-rules-refs-');
  put(dir, { 'a.txt': 'v1\n' });
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-qm', 'one');
  put(dir, { 'a.txt': 'v2\n' });
  sh(dir, 'commit', '-qam', 'two');
  sh(dir, 'checkout', '-q', '-b', 'feature');
  put(dir, { 'f.txt': 'f\n' });
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-qm', 'feat');
  return dir;
}

const stashes = (dir: string): number => sh(dir, 'stash', 'list').split('\n').filter(Boolean).length;

describe('Git(…) rules on the git tool in a real repository: refs, actions and stash drops', () => {
  it('a deny on Git(stash drop) stops a drop of any index and a pop (which drops); Git(stash drop 0) only index 0', async () => {
    const dir = repo();
    for (const s of ['s1', 's2', 's3']) {
      put(dir, { 'a.txt': `${s}\n` });
      sh(dir, 'stash', '-q');
    }
    const git = gitOn(dir, { defaultDecision: 'allow', deny: ['Git(stash drop)'] });
    expect(denied(await git({ operation: 'stash', action: 'drop', index: 1 }))).toBe(true);
    expect(denied(await git({ operation: 'stash', action: 'drop', index: 2 }))).toBe(true);
    expect(denied(await git({ operation: 'stash', action: 'pop' }))).toBe(true);
    expect(denied(await git({ operation: 'stash', action: 'pop', index: 2 }))).toBe(true);
    expect(stashes(dir)).toBe(3);
    const applied = await git({ operation: 'stash', action: 'apply', index: 1 });
    expect(applied.ok, applied.output).toBe(true);
    sh(dir, 'checkout', '-q', '--', 'a.txt');
    const exact = gitOn(dir, { defaultDecision: 'allow', deny: ['Git(stash drop 0)'] });
    expect(denied(await exact({ operation: 'stash', action: 'drop' }))).toBe(true);
    const dropped = await exact({ operation: 'stash', action: 'drop', index: 2 });
    expect(dropped.ok, dropped.output).toBe(true);
    expect(stashes(dir)).toBe(2);
    // An allow names the drop it allows, exactly.
    const allowed = gitOn(dir, { defaultDecision: 'deny', allow: ['Git(stash drop)'] });
    expect(denied(await allowed({ operation: 'stash', action: 'drop', index: 1 }))).toBe(true);
    expect(stashes(dir)).toBe(2);
  });
});

describe('Git(…) allow rules match the ref as written', () => {
  it('allow Git(checkout feature) does not allow heads/feature, another branch (refs/heads/heads/feature)', async () => {
    const dir = repo();
    sh(dir, 'branch', 'heads/feature', 'main~1');
    sh(dir, 'checkout', '-q', 'main');
    const git = gitOn(dir, { defaultDecision: 'deny', allow: ['Git(checkout feature)'] });
    expect(denied(await git({ operation: 'checkout', ref: 'heads/feature' }))).toBe(true);
    expect(denied(await git({ operation: 'checkout', ref: 'refs/heads/heads/feature' }))).toBe(true);
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('main');
    const checkout = await git({ operation: 'checkout', ref: 'feature' });
    expect(checkout.ok, checkout.output).toBe(true);
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('feature');
  });
});

describe('Git(…) rules in the git tool’s own words are refused', () => {
  it('deny Git(branch create *) or Git(worktree create *) fails the policy, naming the git form; Git(worktree add *) holds', async () => {
    const dir = repo();
    for (const rule of ['Git(branch create *)', 'Git(worktree create *)'])
      expect(() => gitOn(dir, { defaultDecision: 'allow', deny: [rule] }), rule).toThrow(/git tool's word, not git's/);
    const git = gitOn(dir, { defaultDecision: 'allow', deny: ['Git(worktree add *)', 'Git(branch * *)'] });
    expect(denied(await git({ operation: 'worktree', action: 'create', path: 'wt1' }))).toBe(true);
    expect(denied(await git({ operation: 'branch', action: 'create', name: 'x', start_point: 'main' }))).toBe(true);
    expect(sh(dir, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(sh(dir, 'branch', '--list', 'x').trim()).toBe('');
  });
});

describe('Git(…) deny rules naming a ref hold for every spelling git resolves to it', () => {
  it('deny Git(checkout main) stops @{-1}, main~0, main@{0}, HEAD@{1}, its commit id, a tag at it; other branches run', async () => {
    const dir = repo();
    sh(dir, 'tag', 'v2', 'main');
    sh(dir, 'branch', 'old', 'main~1');
    const main = sh(dir, 'rev-parse', 'main').trim();
    const git = gitOn(dir, { defaultDecision: 'allow', deny: ['Git(checkout main)'] });
    for (const ref of [
      '@{-1}',
      'main~0',
      'main@{0}',
      'HEAD@{1}',
      main,
      main.slice(0, 10),
      'v2',
      'tags/v2',
      'refs/heads/main',
    ]) {
      const r = await git({ operation: 'checkout', ref });
      expect(denied(r), `${ref}: ${r.output}`).toBe(true);
    }
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('feature');
    const old = await git({ operation: 'checkout', ref: 'old' });
    expect(old.ok, old.output).toBe(true);
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('old');
    // Bash(git …) rules see the same names; a log of main by its tag is denied by Git(log main).
    const shell = gitOn(dir, { defaultDecision: 'allow', deny: ['Bash(git checkout main)', 'Git(log main)'] });
    expect(denied(await shell({ operation: 'checkout', ref: 'v2' }))).toBe(true);
    expect(denied(await shell({ operation: 'log', ref: 'v2' }))).toBe(true);
    expect((await shell({ operation: 'log', ref: 'old' })).ok).toBe(true);
  });

  it('allow Git(checkout main) allows ref main as written and not @{-1} or main~0', async () => {
    const dir = repo();
    const git = gitOn(dir, { defaultDecision: 'deny', allow: ['Git(checkout main)'] });
    for (const ref of ['@{-1}', 'main~0', 'heads/main'])
      expect(denied(await git({ operation: 'checkout', ref })), ref).toBe(true);
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('feature');
    const main = await git({ operation: 'checkout', ref: 'main' });
    expect(main.ok, main.output).toBe(true);
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('main');
  });
});
