// A configuration file the repository includes only on some branches (`includeIf "onbranch:…"`)
// is one git does not read now, so `git config --list` shows none of it; a command line can check
// out that branch and have the next git read it. A command a rule allows unasked is held to it as
// to the files git reads now: read-only, and its programs turned off.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../src/index.js';
import { runRefusing, tempRepo } from './kit.js';

const opened: Session[] = [];
const made: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  tool_calls: [{ id, name, args }],
});
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'ignore' });

/** A repository on its first branch whose configuration includes the tracked `team.gitconfig` on branch `feat` only. */
function branchInclude(): string {
  const dir = tempRepo();
  made.push(dir);
  writeFileSync(join(dir, 'team.gitconfig'), '[core]\n\tautocrlf = false\n');
  git(dir, 'add', 'team.gitconfig');
  git(dir, 'commit', '-qm', 'team settings');
  git(dir, 'branch', 'feat');
  git(dir, 'config', 'includeIf.onbranch:feat.path', '../team.gitconfig');
  return dir;
}

describe('a command allowed unasked and a file the configuration includes on another branch', () => {
  it('PERM-03: an external diff and an alias the model wrote there do not run when the line checks out that branch', async () => {
    const dir = branchInclude();
    const pwned = join(dir, 'PWNED');
    const { asked, got } = await runRefusing(
      opened,
      dir,
      [
        call('w1', 'write', {
          file_path: 'team.gitconfig',
          content: `[alias]\n\tx = !touch ${pwned}\n[diff]\n\texternal = /bin/sh -c 'touch ${pwned}'\n`,
        }),
        call('e1', 'edit', { file_path: 'README.md', old_string: '# demo', new_string: '# demo!' }),
        call('d1', 'bash', { command: 'git checkout -q feat && git diff' }),
        call('d2', 'bash', { command: 'git checkout -q feat && git x' }),
      ],
      { allow: ['Write', 'Edit', 'Bash(git:*)'] },
    );
    expect(asked).toEqual([]);
    expect(got.get('w1')).toMatchObject({ ok: true });
    expect(existsSync(pwned)).toBe(false);
    expect(got.get('d1')?.output).toContain('diff.external');
    // The same line run by hand does run it: the setting is real.
    execFileSync('sh', ['-c', 'git checkout -q feat && git diff'], { cwd: dir, stdio: 'ignore' });
    expect(existsSync(pwned)).toBe(true);
  });

  it('PERM-03: a file included through a symbolic link refuses such commands: checking out a branch replaces the link itself', async () => {
    const dir = tempRepo();
    made.push(dir);
    writeFileSync(join(dir, 'team-real.gitconfig'), '[core]\n\tautocrlf = false\n');
    symlinkSync('team-real.gitconfig', join(dir, 'team.gitconfig'));
    git(dir, 'add', 'team.gitconfig', 'team-real.gitconfig');
    git(dir, 'commit', '-qm', 'team settings');
    git(dir, 'config', 'includeIf.onbranch:feat.path', '../team.gitconfig');
    const { asked, got } = await runRefusing(opened, dir, [call('s1', 'bash', { command: 'git status --short' })], {
      allow: ['Bash(git:*)'],
    });
    expect(asked).toEqual([]);
    expect(got.get('s1')?.output).toContain('team.gitconfig, which is a symbolic link or is reached through one');
  });

  it('PERM-03: the file is read-only for the command, and so is a file it includes in turn', async () => {
    const dir = branchInclude();
    writeFileSync(join(dir, 'team.gitconfig'), '[include]\n\tpath = more.gitconfig\n');
    writeFileSync(join(dir, 'more.gitconfig'), '[core]\n\tautocrlf = false\n');
    const { asked, got } = await runRefusing(
      opened,
      dir,
      [
        call('b1', 'bash', { command: "echo '[diff]\n\texternal = touch PWNED' >> team.gitconfig" }),
        call('b2', 'bash', { command: "echo '[diff]\n\texternal = touch PWNED' >> more.gitconfig" }),
      ],
      { allow: ['Bash(echo:*)'] },
    );
    expect(asked).toEqual([]);
    expect(got.get('b1')?.output).toContain('Read-only file system');
    expect(got.get('b2')?.output).toContain('Read-only file system');
    expect(readFileSync(join(dir, 'team.gitconfig'), 'utf8')).toBe('[include]\n\tpath = more.gitconfig\n');
    expect(readFileSync(join(dir, 'more.gitconfig'), 'utf8')).toBe('[core]\n\tautocrlf = false\n');
  });
});
