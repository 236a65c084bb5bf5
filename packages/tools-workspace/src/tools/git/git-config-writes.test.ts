// `git` keeps off the agent's configuration as write, edit and patch do: a checkout of an older
// commit, a stash push, pop or apply, and a worktree create or remove that would change
// `a3s.config.json` or a `.a3s/` entry, at the root or in any subfolder, is refused before it
// runs, with no rules at all (as under YOLO). Real repositories.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, initRepo, sh, tempDir, writeTree } from '../../test-support/harness.js';
import { gitTool } from './git-tool.js';

const dirs: { cleanup: () => void }[] = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

const PERMISSIVE = '{"permissions":{"allow":["bash"]}}\n';
const STRICT = '{"permissions":{"deny":["Read(.env)"]}}\n';

/** A repository on `main` whose first commit holds `PERMISSIVE` in `files` and whose second holds `STRICT`. */
function repoWithOldConfig(files: readonly string[]): string {
  const t = tempDir('a3s-git-config-');
  dirs.push(t);
  writeTree(t.dir, { 'src/a.ts': 'a\n', ...Object.fromEntries(files.map((f) => [f, PERMISSIVE])) });
  initRepo(t.dir);
  writeTree(t.dir, { 'src/a.ts': 'b\n', ...Object.fromEntries(files.map((f) => [f, STRICT])) });
  sh(t.dir, 'commit', '-qam', 'strict');
  return t.dir;
}

const text = (dir: string, rel: string): string => readFileSync(join(dir, rel), 'utf8');
const head = (dir: string): string => sh(dir, 'rev-parse', 'HEAD').trim();

/** The refusal: typed, naming the file and why, saying nothing changed. */
function refusal(file: string, why: string) {
  return {
    code: 'PERMISSION_DENIED',
    message: expect.stringMatching(
      new RegExp(`would change ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*${why}.*nothing was changed`),
    ),
  };
}

describe("git and the agent's configuration", () => {
  it('a checkout of an older commit that changes a3s.config.json, in any letter case, is refused; others run', async () => {
    const dir = repoWithOldConfig(['a3s.config.json']);
    const ws = new LocalWorkspace({ root: dir });
    const before = head(dir);
    await expect(call(gitTool, ws, { operation: 'checkout', ref: 'HEAD~1' })).rejects.toMatchObject(
      refusal('a3s.config.json', "the workspace's configuration file"),
    );
    expect(text(dir, 'a3s.config.json')).toBe(STRICT);
    expect(text(dir, 'src/a.ts')).toBe('b\n');
    expect(head(dir)).toBe(before);
    // Another letter case at the root is the same file where names fold case: refused everywhere.
    sh(dir, 'checkout', '-q', '-b', 'upper');
    writeTree(dir, { 'A3S.Config.JSON': PERMISSIVE });
    sh(dir, 'add', 'A3S.Config.JSON');
    sh(dir, 'commit', '-qm', 'upper');
    sh(dir, 'checkout', '-q', 'main');
    await expect(call(gitTool, ws, { operation: 'checkout', ref: 'upper' })).rejects.toMatchObject(
      refusal('A3S.Config.JSON', "the workspace's configuration file"),
    );
    expect(existsSync(join(dir, 'A3S.Config.JSON'))).toBe(false);
    // A checkout that leaves the configuration alone runs.
    sh(dir, 'checkout', '-q', '-b', 'side');
    writeTree(dir, { 'src/a.ts': 'side\n' });
    sh(dir, 'commit', '-qam', 'side');
    sh(dir, 'checkout', '-q', 'main');
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'side' })).exitCode).toBe(0);
    expect(text(dir, 'src/a.ts')).toBe('side\n');
  }, 120_000);

  it('a checkout that changes a subfolder configuration, or one spelled with a compatibility character, is refused', async () => {
    const dir = repoWithOldConfig(['pkg/.a3s/config.json', 'pkg/a3s.config.json', 'deep/er/.a3s/skills/s/SKILL.md']);
    const ws = new LocalWorkspace({ root: dir });
    await expect(call(gitTool, ws, { operation: 'checkout', ref: 'HEAD~1' })).rejects.toMatchObject(
      refusal('deep/er/.a3s/skills/s/SKILL.md (and 2 more such files)', 'an agent configuration in a subfolder'),
    );
    expect(text(dir, 'pkg/.a3s/config.json')).toBe(STRICT);
    expect(text(dir, 'pkg/a3s.config.json')).toBe(STRICT);
    // `ſ` (long s) is an `s` to a file system that folds case.
    sh(dir, 'checkout', '-q', '-b', 'long-s');
    writeTree(dir, { 'pkg/a3ſ.config.json': PERMISSIVE });
    sh(dir, 'add', 'pkg');
    sh(dir, 'commit', '-qm', 'long s');
    sh(dir, 'checkout', '-q', 'main');
    await expect(call(gitTool, ws, { operation: 'checkout', ref: 'long-s' })).rejects.toMatchObject(
      refusal('pkg/a3ſ.config.json', 'an agent configuration in a subfolder'),
    );
  }, 120_000);

  it('a stash push of a changed or untracked configuration, and a pop or apply of one, is refused', async () => {
    const dir = repoWithOldConfig(['a3s.config.json']);
    const ws = new LocalWorkspace({ root: dir });
    writeTree(dir, { 'a3s.config.json': `${STRICT}\n`, 'src/a.ts': 'work\n' });
    await expect(call(gitTool, ws, { operation: 'stash', action: 'push' })).rejects.toMatchObject(
      refusal('a3s.config.json', "the workspace's configuration file"),
    );
    expect(text(dir, 'a3s.config.json')).toBe(`${STRICT}\n`);
    sh(dir, 'checkout', '--', 'a3s.config.json');
    // Untracked, it would be taken away.
    writeTree(dir, { 'pkg/.a3s/instructions.md': 'be careful\n' });
    await expect(
      call(gitTool, ws, { operation: 'stash', action: 'push', include_untracked: true }),
    ).rejects.toMatchObject(refusal('pkg/.a3s/instructions.md', 'an agent configuration in a subfolder'));
    expect(text(dir, 'pkg/.a3s/instructions.md')).toBe('be careful\n');
    expect(sh(dir, 'stash', 'list')).toBe('');
    // A stash the person made that holds the old configuration is not put back by the model.
    writeTree(dir, { 'a3s.config.json': PERMISSIVE });
    sh(dir, 'stash', 'push', '-q');
    for (const action of ['pop', 'apply'])
      await expect(call(gitTool, ws, { operation: 'stash', action })).rejects.toMatchObject(
        refusal('a3s.config.json', "the workspace's configuration file"),
      );
    expect(text(dir, 'a3s.config.json')).toBe(STRICT);
    // Changes to other files stash as usual.
    sh(dir, 'stash', 'drop', '-q');
    expect((await call(gitTool, ws, { operation: 'stash', action: 'push' })).exitCode).toBe(0);
    expect(text(dir, 'src/a.ts')).toBe('b\n');
  }, 120_000);

  it('a worktree that would hold a copy of a configuration is not created, and one holding one is not removed', async () => {
    const dir = repoWithOldConfig(['a3s.config.json']);
    const ws = new LocalWorkspace({ root: dir });
    await expect(
      call(gitTool, ws, { operation: 'worktree', action: 'create', path: 'wt', ref: 'HEAD~1' }),
    ).rejects.toMatchObject(refusal('wt/a3s.config.json', 'an agent configuration in a subfolder'));
    expect(existsSync(join(dir, 'wt'))).toBe(false);
    // The person's worktrees: one tracking the configuration, one holding an agent of its own.
    sh(dir, 'worktree', 'add', '-q', '--detach', 'wt2', 'HEAD');
    await expect(
      call(gitTool, ws, { operation: 'worktree', action: 'remove', path: 'wt2', force: true }),
    ).rejects.toMatchObject(refusal('wt2/a3s.config.json', 'an agent configuration in a subfolder'));
    expect(text(dir, 'wt2/a3s.config.json')).toBe(STRICT);
    sh(dir, 'checkout', '-q', '-b', 'plain');
    sh(dir, 'rm', '-q', 'a3s.config.json');
    sh(dir, 'commit', '-qm', 'no config');
    sh(dir, 'checkout', '-q', 'main');
    sh(dir, 'worktree', 'add', '-q', 'wt3', 'plain');
    writeTree(dir, { 'wt3/lib/.a3s/agents/x.md': 'an agent\n' });
    await expect(
      call(gitTool, ws, { operation: 'worktree', action: 'remove', path: 'wt3', force: true }),
    ).rejects.toMatchObject(refusal('wt3/lib/.a3s', 'an agent configuration in a subfolder'));
    expect(text(dir, 'wt3/lib/.a3s/agents/x.md')).toBe('an agent\n');
    // Without a configuration in it, a worktree is made and removed as usual.
    expect(
      (
        await call(gitTool, ws, {
          operation: 'worktree',
          action: 'create',
          path: 'wt4',
          ref: sh(dir, 'rev-parse', 'plain').trim(),
        })
      ).exitCode,
    ).toBe(0);
    expect((await call(gitTool, ws, { operation: 'worktree', action: 'remove', path: 'wt4' })).exitCode).toBe(0);
    expect(existsSync(join(dir, 'wt4'))).toBe(false);
  }, 120_000);
});
