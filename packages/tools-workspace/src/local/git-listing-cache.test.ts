// The git tool's listing of the configuration and location of the repository, kept between
// commands: one git process a command while nothing they were read from changed, and a listing
// taken again as soon as a configuration file changes (the pinned git only sees what was listed).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initRepo, tempDir, writeTree } from '../test-support/harness.js';
import { keptListing, listingKey } from './git-listing-cache.js';
import { LocalGit } from './local-git.js';

const sandbox = tempDir('a3s-gitkeep-');
afterAll(() => sandbox.cleanup());

const env = { HOME: process.env.HOME ?? '/nonexistent' };
const text = async (git: LocalGit, args: string[]) => {
  const r = await git.run(args);
  expect(r.exitCode, r.stderr.head).toBe(0);
  return (r.stdout.head + r.stdout.tail).trim();
};

describe('the git listing kept between commands', () => {
  it('is reused while nothing changed, and taken again when .git/config changes', async () => {
    const root = join(sandbox.dir, 'repo');
    writeTree(root, { 'a.txt': 'one\n' });
    initRepo(root);
    const git = new LocalGit(root);
    expect(await text(git, ['config', '--get', 'user.name'])).toBe('Test');
    expect(await text(git, ['config', '--get', 'user.name'])).toBe('Test');
    // Pinning is learnt on the first command; from the second on a plain repository's listing is kept.
    expect(keptListing(root, listingKey(root, env))).toBeDefined();
    execFileSync('git', ['config', 'user.name', 'Changed'], { cwd: root });
    expect(keptListing(root, listingKey(root, env))).toBeUndefined();
    expect(await text(git, ['config', '--get', 'user.name'])).toBe('Changed');
    // A setting that runs a program, added between two commands, is listed and turned off.
    const marker = join(sandbox.dir, 'ran');
    execFileSync('git', ['config', 'core.pager', `touch ${marker}`], { cwd: root });
    writeFileSync(join(root, '.gitattributes'), '* diff=y\n');
    execFileSync('git', ['config', 'diff.y.textconv', `touch ${marker}; cat`], { cwd: root });
    writeFileSync(join(root, 'a.txt'), 'two\n');
    await git.run(['diff']);
    expect(() => execFileSync('test', ['-e', marker])).toThrow();
  });

  it('is not kept for a configuration with includes: a change to an included file is seen at once', async () => {
    const root = join(sandbox.dir, 'inc');
    const team = join(sandbox.dir, 'team.gitconfig');
    writeTree(root, { 'a.txt': 'one\n' });
    writeFileSync(team, '[user]\n\tname = First\n');
    initRepo(root);
    execFileSync('git', ['config', 'include.path', team], { cwd: root });
    execFileSync('git', ['config', '--unset', 'user.name'], { cwd: root });
    const git = new LocalGit(root);
    expect(await text(git, ['config', '--get', 'user.name'])).toBe('First');
    expect(await text(git, ['config', '--get', 'user.name'])).toBe('First');
    expect(keptListing(root, listingKey(root, env))).toBeUndefined();
    writeFileSync(team, '[user]\n\tname = Second\n');
    expect(await text(git, ['config', '--get', 'user.name'])).toBe('Second');
  });

  it('is not kept for a workspace in a subfolder of a repository', async () => {
    const root = join(sandbox.dir, 'outer');
    writeTree(root, { 'pkg/a.txt': 'one\n' });
    initRepo(root);
    const git = new LocalGit(join(root, 'pkg'));
    await text(git, ['status', '--porcelain']);
    await text(git, ['status', '--porcelain']);
    expect(listingKey(join(root, 'pkg'), env)).toBeUndefined();
  });
});
