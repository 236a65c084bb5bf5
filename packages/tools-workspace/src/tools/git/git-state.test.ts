// The model cannot reach the runtime's own state under `.a3s/` through `git` either: a checkout of
// a branch that tracks `.a3s/effect-log/<session>.jsonl` (git replaces ignored files without a
// word), or a stash that takes `.a3s/` files away or puts them back, is refused before it runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, initRepo, sh, tempDir, writeTree } from '../../test-support/harness.js';
import { gitTool } from './git-tool.js';

const dirs: { cleanup: () => void }[] = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

const LOG = '.a3s/effect-log/s1.jsonl';

/** A repository on `main` with a live, ignored session log, and a branch `evil` tracking `files`. */
function repoWithEvilBranch(files: Record<string, string>): string {
  const t = tempDir('a3s-git-state-');
  dirs.push(t);
  writeTree(t.dir, { 'a.txt': 'a\n' });
  initRepo(t.dir);
  sh(t.dir, 'checkout', '-q', '-b', 'evil');
  writeTree(t.dir, files);
  sh(t.dir, 'add', '-f', '--', ...Object.keys(files));
  sh(t.dir, 'commit', '-q', '-m', 'evil');
  sh(t.dir, 'checkout', '-q', 'main');
  writeTree(t.dir, { '.a3s/.gitignore': '*\n', [LOG]: '{"live":true}\n' });
  return t.dir;
}

const branch = (dir: string) => sh(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim();

describe('git and the .a3s state folder', () => {
  it('a checkout that would replace the live fact log is refused, naming it; the log and HEAD stay', async () => {
    const dir = repoWithEvilBranch({ [LOG]: '{"forged":true}\n', '.a3s/config.json': '{}\n' });
    const ws = new LocalWorkspace({ root: dir });
    await expect(call(gitTool, ws, { operation: 'checkout', ref: 'evil' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining(
        "git checkout would change .a3s/config.json and 1 more file inside the workspace's private .a3s/ folder",
      ),
    });
    expect(readFileSync(join(dir, LOG), 'utf8')).toBe('{"live":true}\n');
    expect(branch(dir)).toBe('main');
    // A branch that leaves .a3s alone still checks out.
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'side', create: true })).exitCode).toBe(0);
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'main' })).exitCode).toBe(0);
  });

  it('in any letter case, and through a remote branch that checkout would pick by its name', async () => {
    const upstream = repoWithEvilBranch({ '.A3S/effect-log/s1.jsonl': '{"forged":true}\n' });
    const t = tempDir('a3s-git-state-clone-');
    dirs.push(t);
    const clone = join(t.dir, 'clone');
    execFileSync('git', ['clone', '-q', upstream, clone]);
    writeTree(clone, { '.a3s/.gitignore': '*\n', [LOG]: '{"live":true}\n' });
    const ws = new LocalWorkspace({ root: clone });
    await expect(call(gitTool, ws, { operation: 'checkout', ref: 'evil' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('would change .A3S/effect-log/s1.jsonl inside'),
    });
    expect(branch(clone)).toBe('main');
  });

  it('a stash that would take the state away (include_untracked) or put an old one back is refused', async () => {
    const t = tempDir('a3s-git-state-stash-');
    dirs.push(t);
    // A .a3s the user made (for config.json) has no .gitignore: the runtime's files in it are untracked.
    writeTree(t.dir, { 'a.txt': 'a\n', '.a3s/config.json': '{"model":"x"}\n' });
    initRepo(t.dir);
    mkdirSync(join(t.dir, '.a3s', 'effect-log'));
    writeFileSync(join(t.dir, LOG), '{"live":true}\n');
    writeFileSync(join(t.dir, 'a.txt'), 'changed\n');
    const ws = new LocalWorkspace({ root: t.dir });
    await expect(
      call(gitTool, ws, { operation: 'stash', action: 'push', include_untracked: true }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining(`would change ${LOG}`) });
    expect(readFileSync(join(t.dir, LOG), 'utf8')).toBe('{"live":true}\n');
    // Without untracked files the stash takes a.txt only, and is allowed.
    expect((await call(gitTool, ws, { operation: 'stash', action: 'push' })).exitCode).toBe(0);
    expect((await call(gitTool, ws, { operation: 'stash', action: 'pop' })).exitCode).toBe(0);
    // A stash holding a change of .a3s/config.json would put it back.
    writeFileSync(join(t.dir, '.a3s', 'config.json'), '{"model":"hostile"}\n');
    sh(t.dir, 'stash', 'push', '-q', '--', '.a3s/config.json');
    await expect(call(gitTool, ws, { operation: 'stash', action: 'pop' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('git stash pop would change .a3s/config.json inside'),
    });
    expect(readFileSync(join(t.dir, '.a3s', 'config.json'), 'utf8')).toBe('{"model":"x"}\n');
  });
});
