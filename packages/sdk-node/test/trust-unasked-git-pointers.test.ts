// Git's pointers send it to another repository's folder: `.git/commondir`, and a worktree's `.git`
// file (`gitdir: …`). A command allowed unasked (`Bash(git:*)`, `Bash(echo:*)`) that turned one
// towards a repository it made (`git init evil`, whose configuration it fills with an alias or
// `core.fsmonitor`) would have every later git in the workspace run that program: an allowed
// `git st` in the session, and the user's own `git status` after it. The pointers are read-only
// for such a command, what it makes there is removed, and a pointer found leading into the
// workspace (or to nothing) refuses it with the reason.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'ignore'],
    encoding: 'utf8',
  });

const RULES = { allow: ['Bash(git:*)', 'Bash(echo:*)', 'Bash(cat:*)', 'Bash(ls:*)'], deny: ['Bash(rm:*)'] };

/** Runs the turns in `dir` under `RULES`, with an approver that refuses (and records) every question. */
async function run(dir: string, turns: ScriptedTurn[], permissions: typeof RULES | { allow: string[] } = RULES) {
  return runRefusing(opened, dir, turns, permissions);
}

/** A folder outside the workspace where a planted program leaves its mark. */
function markDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-mark-'));
  made.push(dir);
  return dir;
}

/** The turns that make `evil` a repository whose configuration runs `program` (an alias `st`, and fsmonitor). */
const plant = (program: string): ScriptedTurn[] => [
  bash('p1', 'git init -q evil'),
  bash('p2', `echo '${program}' > evil/p.sh`),
  bash('p3', `echo '[alias]' >> evil/.git/config`),
  bash('p4', `echo "	st = !sh evil/p.sh" >> evil/.git/config`),
  bash('p5', `echo '[core]' >> evil/.git/config`),
  bash('p6', `echo "	fsmonitor = sh evil/p.sh" >> evil/.git/config`),
];

describe.skipIf(!CAN_HIDE)("a command allowed unasked cannot turn git's pointers to a repository it made", () => {
  it('PERM-03: .git/commondir written with echo stays unwritten; the alias and fsmonitor never run, in the session or after it', async () => {
    const dir = tempRepo();
    const mark = markDir();
    made.push(dir);
    const { asked, got } = await run(dir, [
      ...plant(`touch ${mark}/ran; rm README.md`),
      bash('c1', 'echo ../evil/.git > .git/commondir'),
      bash('c2', 'git st'),
    ]);
    expect(asked).toEqual([]);
    expect(existsSync(join(dir, '.git', 'commondir'))).toBe(false);
    expect(got.get('c1')).toMatchObject({ metadata: { denied_writes: { removed: ['.git/commondir'] } } });
    expect(got.get('c2')?.output).toContain("'st' is not a git command");
    // Later, the user's own git in the workspace.
    execFileSync('git', ['status'], { cwd: dir, stdio: 'ignore' });
    expect(existsSync(join(mark, 'ran'))).toBe(false);
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
  });

  it('PERM-03: with only Bash(git:*), git log --output=.git/commondir does not redirect the repository either', async () => {
    const dir = tempRepo();
    const mark = markDir();
    made.push(dir);
    const { asked, got } = await run(
      dir,
      [
        bash('g1', 'git init -q evil'),
        bash(
          'g2',
          `git cat-file blob $(git hash-object -w --stdin <<'EOF'\n[alias]\n\tst = !touch ${mark}/ran\nEOF\n) >> evil/.git/config`,
        ),
        bash(
          'g3',
          "git log -1 --format=%s --output=.git/commondir $(git -c user.name=a -c user.email=a@b commit-tree 'HEAD^{tree}' -m ../evil/.git)",
        ),
        bash('g4', 'git st'),
      ],
      { allow: ['Bash(git:*)'], deny: ['Bash(rm:*)'] },
    );
    expect(asked).toEqual([]);
    expect(existsSync(join(dir, '.git', 'commondir'))).toBe(false);
    expect(got.get('g4')?.ok).toBe(false);
    expect(existsSync(join(mark, 'ran'))).toBe(false);
  });

  it("PERM-03: a linked worktree's .git file is read-only: it cannot be pointed at a repository the command made", async () => {
    const base = mkdtempSync(join(tmpdir(), 'a3s-wt-'));
    made.push(base);
    const main = join(base, 'main');
    execFileSync('git', ['init', '-q', main]);
    writeFileSync(join(main, 'README.md'), 'x\n');
    git(main, 'add', '.');
    git(main, 'commit', '-qm', 'i');
    git(main, 'worktree', 'add', '-q', join(base, 'ws'));
    const ws = join(base, 'ws');
    const pointer = readFileSync(join(ws, '.git'), 'utf8');
    const mark = markDir();
    const { asked, got } = await run(ws, [
      ...plant(`touch ${mark}/ran`),
      bash('w1', 'echo "gitdir: evil/.git" > .git'),
      bash('w2', 'git st'),
    ]);
    expect(asked).toEqual([]);
    expect(got.get('w1')?.output).toContain('Read-only file system');
    expect(readFileSync(join(ws, '.git'), 'utf8')).toBe(pointer);
    execFileSync('git', ['status'], { cwd: ws, stdio: 'ignore' });
    expect(existsSync(join(mark, 'ran'))).toBe(false);
  });

  it('PERM-03: a .git file a command makes where there was no repository is removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-plain-'));
    made.push(dir);
    const { asked, got } = await run(dir, [
      bash('n1', 'git init -q evil'),
      bash('n2', 'echo "gitdir: evil/.git" > .git'),
    ]);
    expect(asked).toEqual([]);
    expect(existsSync(join(dir, '.git'))).toBe(false);
    expect(got.get('n2')).toMatchObject({ metadata: { denied_writes: { removed: ['.git'] } } });
  });

  it("PERM-03: another worktree's commondir a command points elsewhere is put back; git worktree remove still works", async () => {
    const dir = tempRepo();
    const other = `${dir}-wt`;
    made.push(dir, other);
    git(dir, 'worktree', 'add', '-q', other);
    const admin = join(dir, '.git', 'worktrees', basename(other));
    const pointer = readFileSync(join(admin, 'commondir'), 'utf8');
    const { asked, got } = await run(
      dir,
      [
        bash('o1', 'git init -q evil'),
        bash('o2', `echo ../../../evil/.git > .git/worktrees/${basename(other)}/commondir`),
        bash('o3', `cat .git/worktrees/${basename(other)}/commondir`),
        bash('o4', `git worktree remove ${other}`),
      ],
      { allow: ['Bash(*)'] },
    );
    expect(asked).toEqual([]);
    expect(got.get('o2')).toMatchObject({
      metadata: {
        denied_writes: {
          restored: [`.git/worktrees/${basename(other)}/commondir (put back as it was)`],
        },
      },
    });
    expect(got.get('o3')?.output).toBe(pointer);
    expect(got.get('o4')).toMatchObject({ ok: true });
    expect(existsSync(admin)).toBe(false);
  });

  it('PERM-03: a commondir found leading into the workspace, or to nothing, refuses the command and says why', async () => {
    const dir = tempRepo();
    made.push(dir);
    git(dir, 'init', '-q', 'evil');
    writeFileSync(join(dir, '.git', 'commondir'), '../evil/.git\n');
    const into = await run(dir, [bash('i1', 'echo hi')]);
    expect(into.got.get('i1')?.output).toContain(
      "git's pointer is not to be trusted: .git/commondir leads to evil/.git, a folder inside the workspace",
    );
    expect(into.got.get('i1')?.output).toContain('The command was not run');
    writeFileSync(join(dir, '.git', 'commondir'), 'x\n');
    const broken = await run(dir, [bash('b1', 'echo hi'), bash('b2', 'git status')]);
    for (const id of ['b1', 'b2']) {
      expect(broken.got.get(id)?.ok).toBe(false);
      expect(broken.got.get(id)?.output).toContain('.git/commondir names .git/x, which does not exist');
    }
  });
});
