import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heldGitStore } from './git-store.js';

function repo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-git-store-')));
  writeFileSync(join(dir, 'a.txt'), 'public\n');
  writeFileSync(join(dir, '.env'), 'TOKEN=1\n');
  git(dir, 'init', '-q');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'ignore' });

describe('heldGitStore', () => {
  it('PERM-02: holds nothing until git holds a covered path, then names .git (the answer follows the index)', async () => {
    const dir = repo();
    const env = join(dir, '.env');
    expect(await heldGitStore(dir, ['.env'], [env])).toBeUndefined();
    git(dir, 'add', '.env');
    expect(await heldGitStore(dir, ['.env'], [env])).toEqual({
      paths: [join(dir, '.git')],
      note: expect.stringContaining('the index holds a file the read rules cover'),
    });
    // A pattern of folders and wildcards is a git glob; a rule covering .git itself leaves nothing to add.
    git(dir, 'commit', '-qm', 'env');
    expect((await heldGitStore(dir, ['**/.e?v'], []))?.note).toContain('a commit holds');
    expect(await heldGitStore(dir, ['.git', '.env'], [join(dir, '.git')])).toBeUndefined();
    expect(await heldGitStore(dir, ['docs/**'], [])).toBeUndefined();
  });

  it('PERM-02: a broken commondir (naming a folder that is not there) leaves that folder out of what is hidden', async () => {
    const dir = repo();
    git(dir, 'add', '.env');
    writeFileSync(join(dir, '.git', 'commondir'), 'x\n');
    const held = await heldGitStore(dir, ['.env'], [join(dir, '.env')]);
    expect(held?.paths).toEqual([join(dir, '.git')]);
  });

  it("PERM-02: an untracked covered file kept by `git stash -u` (the stash's third parent) has .git hidden once the file is gone", async () => {
    const dir = repo();
    git(dir, 'stash', 'push', '-q', '--include-untracked');
    expect(existsSync(join(dir, '.env'))).toBe(false);
    expect((await heldGitStore(dir, ['.env'], []))?.note).toContain('a commit holds a file the read rules cover');
  });

  it("PERM-02: a worktree's .git file, its folder and the shared store are all hidden", async () => {
    const dir = repo();
    git(dir, 'add', '.env');
    git(dir, 'commit', '-qm', 'env');
    const wt = `${dir}-wt`;
    git(dir, 'worktree', 'add', '-q', wt);
    const held = await heldGitStore(wt, ['.env'], [join(wt, '.env')]);
    expect(held?.paths).toEqual([join(wt, '.git'), join(dir, '.git', 'worktrees', basename(wt)), join(dir, '.git')]);
  });

  it('PERM-02: when git cannot tell, the store is hidden and the note says so; no repository holds nothing', async () => {
    const dir = repo();
    writeFileSync(join(dir, '.git', 'HEAD'), 'not a ref\n');
    expect((await heldGitStore(dir, ['.env'], []))?.note).toMatch(/git could not tell whether it holds a file/);
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-git-store-')));
    expect(await heldGitStore(plain, ['.env'], [])).toBeUndefined();
  });
  it('PERM-02: a workspace inside a repository (a package of a monorepo) has the repository store hidden, its paths read from the workspace', async () => {
    const top = repo();
    const sub = join(top, 'pkg');
    mkdirSync(sub);
    writeFileSync(join(sub, '.env'), 'TOKEN=2\n');
    expect(await heldGitStore(sub, ['.env'], [join(sub, '.env')])).toBeUndefined();
    git(top, 'add', '.env');
    git(top, 'commit', '-qm', 'the top .env, not the package one');
    expect(await heldGitStore(sub, ['.env'], [join(sub, '.env')])).toBeUndefined();
    git(top, 'add', 'pkg/.env');
    git(top, 'commit', '-qm', 'the package .env');
    expect(await heldGitStore(sub, ['.env'], [join(sub, '.env')])).toEqual({
      paths: [join(top, '.git')],
      note: expect.stringContaining('a commit holds a file the read rules cover'),
    });
  });
  it('PERM-02: a rule on files outside the workspace holds for a repository there too (a dotfiles repository)', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-git-home-')));
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws', 'credentials'), 'key=1\n');
    git(home, 'init', '-q');
    const workspace = repo();
    const rule = `${home}/.aws/**`;
    expect(await heldGitStore(workspace, [rule], [join(home, '.aws')])).toBeUndefined();
    git(home, 'add', '.aws');
    git(home, 'commit', '-qm', 'dotfiles');
    expect(await heldGitStore(workspace, ['.env', rule, '/nowhere/at/all/**'], [join(home, '.aws')])).toEqual({
      paths: [join(home, '.git')],
      note: expect.stringContaining('a commit holds a file the read rules cover'),
    });
  });
});

describe("the look at git's store runs nothing the repository names", () => {
  it('a signed commit with log.showSignature and gpg.program planted in .git/config runs no program', async () => {
    const dir = repo();
    const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    writeFileSync(join(dir, '.env'), 'SECRET=1\n');
    g('add', '-f', '.env');
    g('-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'env');
    const tree = g('rev-parse', 'HEAD^{tree}');
    // The newest commit that adds .env, signed (as far as its header says).
    const parent = g('rev-parse', 'HEAD~1');
    const body = `tree ${tree}\nparent ${parent}\nauthor a <a@b> 4000000000 +0000\ncommitter a <a@b> 4000000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n abc\n -----END PGP SIGNATURE-----\n\nsigned\n`;
    writeFileSync(join(dir, 'commit.txt'), body);
    const signed = g('hash-object', '-t', 'commit', '-w', 'commit.txt');
    g('update-ref', 'refs/heads/signed', signed);
    const marker = join(dir, 'ran');
    writeFileSync(join(dir, 'gpg.sh'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    g('config', 'log.showSignature', 'true');
    g('config', 'gpg.program', join(dir, 'gpg.sh'));
    expect((await heldGitStore(dir, ['.env'], []))?.note).toContain('a commit holds');
    expect(existsSync(marker)).toBe(false);
  });
});
