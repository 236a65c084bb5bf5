// A command a rule allows unasked runs git with the programs the repository's own configuration
// names turned off: a diff driver or external diff, a clean/smudge filter, a `!` alias, also when
// they come from a tracked file the configuration includes (`include.path = ../.gitconfig`) that
// the model wrote with the file tools just before. The git the command runs fails on them (a
// filter is made required) rather than running them.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
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
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });

/** Runs the turns in `dir` with `allow` rules and an approver that refuses (and records) every question. */
async function run(dir: string, turns: ScriptedTurn[], allow: string[]) {
  return runRefusing(opened, dir, turns, { allow });
}

describe('a command allowed unasked and the programs the repository configuration names', () => {
  it('PERM-03: an external diff in a tracked file .git/config includes, written by the model, does not run under git diff', async () => {
    const dir = tempRepo();
    made.push(dir);
    git(dir, 'config', 'include.path', '../.gitconfig');
    const pwned = join(dir, 'PWNED');
    const { asked, got } = await run(
      dir,
      [
        call('w1', 'write', { file_path: 'payload.sh', content: `touch ${pwned}\n` }),
        call('w2', 'write', { file_path: '.gitconfig', content: '[diff]\n\texternal = sh payload.sh\n' }),
        call('w3', 'edit', { file_path: 'README.md', old_string: '# demo', new_string: '# demo!' }),
        call('d1', 'bash', { command: 'git diff' }),
        call('d2', 'bash', { command: 'git diff --no-ext-diff' }),
      ],
      ['Write', 'Edit', 'Bash(git diff*)'],
    );
    expect(asked).toEqual([]);
    expect(got.get('w2')).toMatchObject({ ok: true });
    expect(existsSync(pwned)).toBe(false);
    expect(got.get('d1')?.output).toContain(
      "the repository's configuration names programs for git to run (diff.external)",
    );
    expect(got.get('d1')?.output).toContain('git diff --no-ext-diff --no-textconv');
    expect(got.get('d2')?.output).toContain('# demo!');
    // The same git run by hand does run it: the setting is real.
    execFileSync('git', ['diff'], { cwd: dir, stdio: 'ignore' });
    expect(existsSync(pwned)).toBe(true);
  });

  it('PERM-03: a textconv driver, a clean filter and a ! alias of .git/config run nothing; the filtered add fails instead', async () => {
    const dir = tempRepo();
    made.push(dir);
    const log = join(dir, 'RAN');
    for (const [key, value] of [
      ['diff.x.textconv', `sh -c 'echo textconv >> ${log}; cat "$1"' -`],
      ['filter.f.clean', `sh -c 'echo clean >> ${log}; cat'`],
      ['alias.st', `!echo alias >> ${log}`],
    ])
      git(dir, 'config', key!, value!);
    writeFileSync(join(dir, '.gitattributes'), '*.md diff=x\n*.txt filter=f\n');
    writeFileSync(join(dir, 'README.md'), '# changed\n');
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    const { asked, got } = await run(
      dir,
      [
        call('b1', 'bash', { command: 'git diff README.md' }),
        call('b2', 'bash', { command: 'git add notes.txt' }),
        call('b3', 'bash', { command: 'git st' }),
      ],
      ['Bash(git diff*)', 'Bash(git add*)', 'Bash(git st)'],
    );
    expect(asked).toEqual([]);
    expect(existsSync(log)).toBe(false);
    expect(got.get('b2')).toMatchObject({ ok: false });
    expect(got.get('b2')?.output).toContain("clean filter 'f' failed");
    expect(existsSync(log)).toBe(false);
  });

  it('PERM-03: a file .git/config includes that does not exist refuses unasked commands until it does; an alias passing -c runs nothing', async () => {
    const dir = tempRepo();
    made.push(dir);
    git(dir, 'config', 'include.path', '../.gitconfig');
    const log = join(dir, 'RAN');
    git(dir, 'config', 'alias.x', `-c diff.evil.textconv="sh -c 'echo alias >> ${log}; cat \\"$1\\"' -" diff`);
    writeFileSync(join(dir, '.gitattributes'), '*.md diff=evil\n');
    writeFileSync(join(dir, 'README.md'), '# changed\n');
    const first = await run(dir, [call('b1', 'bash', { command: 'echo hello' })], ['Bash(echo:*)', 'Bash(git x)']);
    expect(first.got.get('b1')).toMatchObject({ ok: false });
    expect(first.got.get('b1')?.output).toContain(
      "the repository's configuration includes .gitconfig, which does not exist",
    );
    writeFileSync(join(dir, '.gitconfig'), '');
    const then = await run(
      dir,
      [call('b2', 'bash', { command: 'echo hello' }), call('b3', 'bash', { command: 'git x' })],
      ['Bash(echo:*)', 'Bash(git x)'],
    );
    expect(then.asked).toEqual([]);
    expect(then.got.get('b2')?.output).toContain('hello');
    expect(existsSync(log)).toBe(false);
  });
});
