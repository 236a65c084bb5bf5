// Git's pointers (a `.git` file, `commondir`) are trusted only when they lead to a git folder
// outside the workspace; one a command makes or changes is removed or put back.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitPointerProblem, mendPointers, snapshotPointers } from './git-pointers.js';
import { gitFolders } from './git-store.js';

const base = mkdtempSync(join(tmpdir(), 'a3s-gitptr-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const repo = (): string => {
  const dir = join(base, `r${n++}`);
  execFileSync('git', ['init', '-q', dir]);
  return dir;
};

describe("git's pointers", () => {
  it('trusts a plain repository, a worktree whose git folder is outside the workspace, and a workspace in a subfolder', () => {
    const main = repo();
    expect(gitPointerProblem(main)).toBeUndefined();
    const ws = join(base, `w${n++}`);
    mkdirSync(ws);
    const admin = join(main, '.git', 'worktrees', 'w');
    mkdirSync(admin, { recursive: true });
    writeFileSync(join(admin, 'commondir'), '../..\n');
    writeFileSync(join(ws, '.git'), `gitdir: ${admin}\n`);
    expect(gitPointerProblem(ws)).toBeUndefined();
    // A workspace in a subfolder of a repository.
    mkdirSync(join(main, 'sub'));
    expect(gitPointerProblem(join(main, 'sub'))).toBeUndefined();
  });

  it('refuses a commondir, a .git file or a .git link into the workspace, one naming nothing, and a .git file naming no folder', () => {
    const dir = repo();
    execFileSync('git', ['init', '-q', join(dir, 'evil')]);
    writeFileSync(join(dir, '.git', 'commondir'), '../evil/.git\n');
    expect(gitPointerProblem(dir)).toMatch(/^\.git\/commondir leads to evil\/\.git, a folder inside the workspace/);
    writeFileSync(join(dir, '.git', 'commondir'), 'x\n');
    expect(gitPointerProblem(dir)).toBe('.git/commondir names .git/x, which does not exist');
    writeFileSync(join(dir, '.git', 'commondir'), '\n');
    expect(gitPointerProblem(dir)).toBe('.git/commondir names no folder');
    rmSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, '.git'), 'gitdir: evil/.git\n');
    expect(gitPointerProblem(dir)).toMatch(/^\.git leads to evil\/\.git, a folder inside the workspace/);
    writeFileSync(join(dir, '.git'), 'nonsense\n');
    expect(gitPointerProblem(dir)).toMatch(/names no git folder/);
    rmSync(join(dir, '.git'));
    symlinkSync('evil/.git', join(dir, '.git'));
    expect(gitPointerProblem(dir)).toMatch(/^\.git leads to evil\/\.git/);
  });

  it("puts back a commondir a command changed, removes one it made, a .git file where there was no repository, and a new worktree's stray commondir", async () => {
    const dir = repo();
    const git = gitFolders(dir);
    const admin = join(dir, '.git', 'worktrees', 'old');
    mkdirSync(admin, { recursive: true });
    writeFileSync(join(admin, 'commondir'), '../..\n');
    const before = await snapshotPointers(dir, git);
    writeFileSync(join(admin, 'commondir'), '../../../evil/.git\n');
    writeFileSync(join(dir, '.git', 'commondir'), '../evil/.git\n');
    mkdirSync(join(dir, '.git', 'worktrees', 'new', 'x'), { recursive: true });
    writeFileSync(join(dir, '.git', 'worktrees', 'new', 'commondir'), '../../../evil/.git\n');
    mkdirSync(join(dir, '.git', 'worktrees', 'fine'));
    writeFileSync(join(dir, '.git', 'worktrees', 'fine', 'commondir'), '../..\n');
    const mended = await mendPointers(before);
    expect(mended?.restored).toEqual(['.git/worktrees/old/commondir (put back as it was)']);
    expect([...(mended?.removed ?? [])].sort()).toEqual(['.git/commondir', '.git/worktrees/new/commondir']);
    expect(readFileSync(join(admin, 'commondir'), 'utf8')).toBe('../..\n');
    expect(readFileSync(join(dir, '.git', 'worktrees', 'fine', 'commondir'), 'utf8')).toBe('../..\n');

    const plain = join(base, `p${n++}`);
    mkdirSync(plain);
    const none = await snapshotPointers(plain, undefined);
    writeFileSync(join(plain, '.git'), 'gitdir: evil/.git\n');
    expect(await mendPointers(none)).toEqual({ removed: ['.git'] });
    // The repository `git init` makes stays.
    execFileSync('git', ['init', '-q', plain]);
    expect(await mendPointers(none)).toBeUndefined();
    expect(gitFolders(plain)?.gitDir).toBe(join(plain, '.git'));
  });
});
