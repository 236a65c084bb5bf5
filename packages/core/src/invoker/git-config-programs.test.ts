import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingIncludesOf, neutralValue, overridesOf, repositoryPrograms } from './git-config-programs.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const record = (scope: string, key: string, value: string) => `${scope}\0file:.git/config\0${key}\n${value}\0`;

describe('the settings of a repository that run a program', () => {
  it('each gets a value that runs nothing; a filter turned off is made required; LFS and the user’s own are kept', () => {
    const listed = [
      record('local', 'diff.x.textconv', 'evil'),
      record('local', 'diff.external', 'evil'),
      record('local', 'filter.f.smudge', 'evil'),
      record('local', 'filter.lfs.process', 'git-lfs filter-process'),
      record('local', 'filter.lfs.clean', 'git-lfs clean -- %f'),
      record('worktree', 'merge.m.driver', 'evil %A'),
      record('local', 'alias.st', '!evil'),
      record('local', 'alias.co', 'checkout'),
      record('local', 'alias.x', '-c diff.evil.textconv=evil diff'),
      record('local', 'alias.y', 'log --config-env=core.pager=P'),
      record('local', 'core.pager', 'evil'),
      record('local', 'pager.log', 'evil'),
      record('local', 'credential.https://x.example.helper', 'evil'),
      record('local', 'gpg.ssh.program', 'evil'),
      record('local', 'remote.origin.uploadpack', 'evil'),
      record('local', 'user.name', 'me'),
      record('global', 'diff.mine.textconv', 'pandoc'),
      record('global', 'core.pager', 'less'),
    ].join('');
    expect(overridesOf(listed)).toEqual([
      ['diff.x.textconv', ''],
      ['diff.external', ''],
      ['filter.f.smudge', ''],
      ['filter.f.required', 'true'],
      ['merge.m.driver', ''],
      ['alias.st', ''],
      ['alias.x', ''],
      ['alias.y', ''],
      ['core.pager', 'cat'],
      ['pager.log', 'false'],
      ['credential.https://x.example.helper', ''],
      ['gpg.ssh.program', '/dev/null'],
      ['remote.origin.uploadpack', 'git-upload-pack'],
    ]);
    expect(neutralValue('filter.lfs.smudge', 'git-lfs smudge -- %f')).toBeUndefined();
    expect(neutralValue('filter.lfs.smudge', 'git-lfs smudge -- %f; evil')).toBe('');
  });

  it('are read from git for a real repository, the files it includes too, and again when a file changes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-git-programs-'));
    made.push(dir);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    const files = [join(dir, '.git', 'config'), join(dir, '.gitconfig')];
    expect(repositoryPrograms(dir, files).overrides).toEqual([]);
    git('config', 'include.path', '../.gitconfig');
    git('config', '--file', '.gitconfig', 'diff.tool2.command', 'evil');
    expect(repositoryPrograms(dir, files).overrides).toEqual([['diff.tool2.command', '']]);
    git('config', '--file', '.gitconfig', 'filter.z.clean', 'evil');
    expect(repositoryPrograms(dir, files).overrides).toEqual([
      ['diff.tool2.command', ''],
      ['filter.z.clean', ''],
      ['filter.z.required', 'true'],
    ]);
  });

  it('the files its configuration includes that do not exist are named (a command could create one)', () => {
    const listed = [
      `local\0file:.git/config\0include.path\n../.gitconfig\0`,
      `local\0file:.git/config\0includeif.onbranch:main.path\n/abs/extra.cfg\0`,
      `global\0file:/home/u/.gitconfig\0include.path\n/never/checked\0`,
      `local\0file:.git/config\0include.path\n../README.md\0`,
    ].join('');
    const dir = mkdtempSync(join(tmpdir(), 'a3s-git-includes-'));
    made.push(dir);
    execFileSync('touch', [join(dir, 'README.md')]);
    expect(missingIncludesOf(listed, dir)).toEqual([join(dir, '.gitconfig'), '/abs/extra.cfg']);
  });
});
