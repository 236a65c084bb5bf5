// A command allowed unasked can make a repository in a subfolder (`git init -q pkg`) and write a
// setting that runs a program into its configuration (`[diff] external = …`, an alias, a filter,
// `core.fsmonitor`): a later session opened on `pkg` with the same rules, or the user's own git
// there, would run it. What such a command adds to a nested repository's configuration under a
// key git may run is taken out again after it; what the repository needs (`core.bare`, a
// submodule's `core.worktree`) and settings that run nothing stay.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../src/index.js';
import { runRefusing, tempRepo } from './kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const opened: Session[] = [];
const made: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bash = (id: string, command: string): ScriptedTurn => ({ tool_calls: [{ id, name: 'bash', args: { command } }] });
const RULES = { allow: ['Bash(git:*)', 'Bash(echo:*)'], deny: ['Bash(rm:*)'] };

/** Runs the turns in `dir` under `RULES`, with an approver that refuses (and records) every question. */
async function run(dir: string, turns: ScriptedTurn[]) {
  return runRefusing(opened, dir, turns, RULES);
}

describe.skipIf(!CAN_HIDE)("a command allowed unasked and a nested repository's configuration", () => {
  it('PERM-03: diff.external planted in pkg/.git/config is taken out; a later session on pkg and the user run nothing', async () => {
    const dir = tempRepo();
    const mark = mkdtempSync(join(tmpdir(), 'a3s-mark-'));
    made.push(dir, mark);
    const first = await run(dir, [
      bash('a1', 'git init -q pkg'),
      bash('a2', `echo '[diff]' >> pkg/.git/config`),
      bash('a3', `echo "	external = touch ${mark}/diff-external" >> pkg/.git/config`),
      bash('a4', `echo '[alias]' >> pkg/.git/config && echo "	st = !touch ${mark}/alias" >> pkg/.git/config`),
      bash(
        'a5',
        `echo x > pkg/a.txt && echo y > pkg/b.txt && echo '[user]' >> pkg/.git/config && echo "	name = t" >> pkg/.git/config`,
      ),
    ]);
    expect(first.asked).toEqual([]);
    expect(first.got.get('a3')).toMatchObject({
      metadata: {
        denied_writes: {
          restored: ['pkg/.git/config (diff.external)'],
        },
      },
    });
    expect(first.got.get('a4')).toMatchObject({
      metadata: { denied_writes: { restored: ['pkg/.git/config (alias.st)'] } },
    });
    const config = readFileSync(join(dir, 'pkg', '.git', 'config'), 'utf8');
    expect(config).not.toMatch(/external|alias|touch/);
    // What the repository needs, and a setting that runs nothing, stay.
    expect(config).toMatch(/bare = false/);
    expect(config).toMatch(/name = t/);
    const later = await run(join(dir, 'pkg'), [bash('b1', 'git diff --no-index a.txt b.txt'), bash('b2', 'git st')]);
    expect(later.asked).toEqual([]);
    expect(later.got.get('b1')?.output).toContain('+y');
    // The user's own git in pkg.
    spawnSync('git', ['diff', '--no-index', 'a.txt', 'b.txt'], { cwd: join(dir, 'pkg'), stdio: 'ignore' });
    spawnSync('git', ['st'], { cwd: join(dir, 'pkg'), stdio: 'ignore' });
    expect(existsSync(join(mark, 'diff-external'))).toBe(false);
    expect(existsSync(join(mark, 'alias'))).toBe(false);
  });

  it('PERM-03: a filter and fsmonitor added to a nested repository the user made are taken out, its own settings kept', async () => {
    const dir = tempRepo();
    made.push(dir);
    execFileSync('git', ['init', '-q', join(dir, 'vendor', 'lib')]);
    execFileSync('git', ['config', 'alias.lg', '!git log --oneline'], { cwd: join(dir, 'vendor', 'lib') });
    const { asked, got } = await run(dir, [
      bash('c1', 'echo x > note.txt'),
      bash(
        'c2',
        `echo '[filter "x"]' >> vendor/lib/.git/config && echo "	clean = touch PWNED" >> vendor/lib/.git/config`,
      ),
      bash(
        'c3',
        `echo '[core]' >> vendor/lib/.git/config && echo "	fsmonitor = touch PWNED" >> vendor/lib/.git/config`,
      ),
    ]);
    expect(asked).toEqual([]);
    expect(got.get('c2')).toMatchObject({
      metadata: {
        denied_writes: {
          restored: ['vendor/lib/.git/config (filter.x.clean)'],
        },
      },
    });
    expect(got.get('c3')).toMatchObject({
      metadata: {
        denied_writes: {
          restored: ['vendor/lib/.git/config (core.fsmonitor)'],
        },
      },
    });
    const config = readFileSync(join(dir, 'vendor', 'lib', '.git', 'config'), 'utf8');
    expect(config).not.toContain('PWNED');
    expect(config).toContain('lg = !git log --oneline');
  });
});
