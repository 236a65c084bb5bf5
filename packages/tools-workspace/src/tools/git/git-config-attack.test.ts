import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, initRepo, sh, tempDir, writeTree } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { patchTool } from '../patch/patch-tool.js';
import { writeTool } from '../write/write-tool.js';
import { gitTool } from './git-tool.js';

// The repository is set up with plain git first; the hostile config is planted last, by the test
// (as a cloned or pre-existing repository would carry it), and plain git is never run after that.
const sandbox = tempDir('a3s-gitcfg-');
const root = join(sandbox.dir, 'repo');
const markers = join(sandbox.dir, 'markers');
const hooks = join(sandbox.dir, 'hooks');
const touch = (name: string): string => `touch ${markers}/${name}`;
let ws: LocalWorkspace;

const HOOKS = [
  'pre-commit',
  'post-commit',
  'post-checkout',
  'post-index-change',
  'reference-transaction',
  'pre-auto-gc',
  'post-rewrite',
  'post-merge',
];

function plantConfig(withHooksPath: boolean): void {
  const config = readFileSync(join(root, '.git', 'config'), 'utf8').replace(/\n\[a3s-planted\][\s\S]*$/, '');
  writeFileSync(
    join(root, '.git', 'config'),
    `${config}
[a3s-planted]
[core]
\tfsmonitor = "${touch('fsmonitor')}; false"
${withHooksPath ? `\thooksPath = ${hooks}\n` : ''}\tpager = "${touch('core-pager')}; cat"
\teditor = "${touch('editor')}"
\tsshCommand = "${touch('ssh')}"
\taskPass = "${touch('askpass')}"
[sequence]
\teditor = "${touch('sequence-editor')}"
[pager]
\tstatus = "${touch('pager-status')}; cat"
\tlog = "${touch('pager-log')}; cat"
\tdiff = "${touch('pager-diff')}; cat"
[diff]
\texternal = "${touch('diff-external')}; true"
[diff "evil"]
\ttextconv = "${touch('textconv')}; cat"
\tcommand = "${touch('diff-command')}; true"
[filter "evil"]
\tclean = "${touch('filter-clean')}; cat"
\tsmudge = "${touch('filter-smudge')}; cat"
\trequired = true
[merge "evil"]
\tdriver = "${touch('merge-driver')}; false"
[credential]
\thelper = "!${touch('credential')}"
[gpg]
\tprogram = "${join(hooks, 'gpg')}"
[log]
\tshowSignature = true
[alias]
\tstatus = "!${touch('alias')}"
`,
  );
}

beforeAll(() => {
  mkdirSync(markers, { recursive: true });
  mkdirSync(hooks, { recursive: true });
  writeTree(root, {
    'a.txt': 'one\ntwo\nthree\n',
    'b.txt': 'bee\n',
    '.gitattributes': '* diff=evil filter=evil merge=evil\n',
  });
  initRepo(root);
  // A branch and a stash that both change a.txt's first line: popping one onto the other merges.
  sh(root, 'checkout', '-q', '-b', 'diverged');
  writeFileSync(join(root, 'a.txt'), 'ONE (diverged)\ntwo\nthree\n');
  sh(root, 'commit', '-qam', 'diverged');
  sh(root, 'checkout', '-q', 'main');
  writeFileSync(join(root, 'a.txt'), 'one (stashed)\ntwo\nthree\n');
  sh(root, 'stash', 'push', '-q', '-m', 'planted');
  for (const name of [...HOOKS, 'gpg']) {
    for (const dir of [hooks, join(root, '.git', 'hooks')]) {
      writeFileSync(join(dir, name), `#!/bin/sh\n${touch(`hook-${name}`)}\n`);
      chmodSync(join(dir, name), 0o755);
    }
  }
  plantConfig(true);
  ws = new LocalWorkspace({ root });
});
afterAll(() => sandbox.cleanup());

/** What the planted programs left behind. */
const ran = (): string[] => readdirSync(markers).sort();

describe('git runs no program named by the repository configuration', () => {
  it('status, diff, log and the lists run with fsmonitor, hooks, pagers, textconv, external diff and filters planted', async () => {
    writeFileSync(join(root, 'a.txt'), 'one\nTWO\nthree\n');
    writeFileSync(join(root, 'new.txt'), 'new\n');
    expect((await call(gitTool, ws, { operation: 'status' })).output).toContain(' M a.txt');
    expect((await call(gitTool, ws, { operation: 'diff' })).output).toContain('+TWO');
    await call(gitTool, ws, { operation: 'diff', staged: true });
    await call(gitTool, ws, { operation: 'diff', ref: 'HEAD' });
    expect((await call(gitTool, ws, { operation: 'log' })).exitCode).toBe(0);
    await call(gitTool, ws, { operation: 'log', path: 'a.txt' });
    await call(gitTool, ws, { operation: 'branch' });
    await call(gitTool, ws, { operation: 'stash', action: 'list' });
    await call(gitTool, ws, { operation: 'worktree' });
    expect(ran()).toEqual([]);
  });

  it('branch, checkout, stash push/pop with a merge, and worktree create/remove run no hook, filter or merge driver', async () => {
    expect((await call(gitTool, ws, { operation: 'branch', action: 'create', name: 'side' })).exitCode).toBe(0);
    expect((await call(gitTool, ws, { operation: 'stash', include_untracked: true, message: 'wip' })).exitCode).toBe(0);
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'side' })).exitCode).toBe(0);
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'topic', create: true })).exitCode).toBe(0);
    expect((await call(gitTool, ws, { operation: 'checkout', ref: 'diverged' })).exitCode).toBe(0);
    // The planted stash changed the line this branch changed: applying it is the merge driver's
    // turn. With the driver's command emptied the merge fails instead of running it.
    const apply = await call(gitTool, ws, { operation: 'stash', action: 'apply', index: 1 });
    expect(apply.exitCode).toBe(1);
    expect(apply.output).toContain('merge');
    const wt = await call(gitTool, ws, { operation: 'worktree', action: 'create', path: 'wt1', name: 'wt-branch' });
    expect(wt.exitCode, wt.output).toBe(0);
    expect(existsSync(join(root, 'wt1', 'a.txt'))).toBe(true);
    await call(gitTool, ws, { operation: 'worktree', action: 'remove', path: 'wt1', force: true });
    expect(ran()).toEqual([]);
  });

  it('the default .git/hooks folder is off too', async () => {
    plantConfig(false);
    await call(gitTool, ws, { operation: 'status' });
    expect((await call(gitTool, ws, { operation: 'branch', action: 'create', name: 'again' })).exitCode).toBe(0);
    expect(
      (await call(gitTool, ws, { operation: 'worktree', action: 'create', path: 'wt2', ref: 'main' })).exitCode,
    ).toBe(0);
    expect(ran()).toEqual([]);
  });

  it('a config that includes a workspace file tools can write is refused; an include inside .git is not', async () => {
    const config = readFileSync(join(root, '.git', 'config'), 'utf8');
    try {
      writeFileSync(join(root, '.git', 'config'), `${config}[include]\n\tpath = ../later.cfg\n`);
      await expect(call(gitTool, ws, { operation: 'status' })).rejects.toMatchObject({ code: 'WORKSPACE_PROCESS' });
      writeFileSync(join(root, '.git', 'config'), `${config}[include]\n\tpath = extra.cfg\n`);
      writeFileSync(
        join(root, '.git', 'extra.cfg'),
        `[filter "other"]\n\tclean = "${touch('included-filter')}; cat"\n`,
      );
      writeFileSync(join(root, '.gitattributes'), '* filter=other\n');
      expect((await call(gitTool, ws, { operation: 'status' })).exitCode).toBe(0);
    } finally {
      writeFileSync(join(root, '.git', 'config'), config);
    }
    expect(ran()).toEqual([]);
  });

  it('a config whose core.worktree points outside the workspace is refused before checkout writes there', async () => {
    const config = readFileSync(join(root, '.git', 'config'), 'utf8');
    const outside = join(sandbox.dir, 'outside-tree');
    mkdirSync(outside, { recursive: true });
    try {
      writeFileSync(join(root, '.git', 'config'), `${config}[core]\n\tworktree = ${outside}\n`);
      await expect(call(gitTool, ws, { operation: 'checkout', ref: 'diverged' })).rejects.toMatchObject({
        code: 'WORKSPACE_PROCESS',
      });
      await expect(call(gitTool, ws, { operation: 'status' })).rejects.toThrow(/core\.worktree/);
    } finally {
      writeFileSync(join(root, '.git', 'config'), config);
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a git folder that tools can write (a .git file pointing into the workspace, a config linked to a workspace file) is refused', async () => {
    // The git folder is a plain workspace folder: a write tool can change its config at any time,
    // between the runtime's listing of the configuration and the command itself.
    const separate = join(sandbox.dir, 'separate');
    mkdirSync(separate, { recursive: true });
    sh(separate, 'init', '-q', '--separate-git-dir=meta', '.');
    const sws = new LocalWorkspace({ root: separate });
    const config = readFileSync(join(separate, 'meta', 'config'), 'utf8');
    const written = await call(writeTool, sws, {
      file_path: 'meta/config',
      content: `${config}[filter "late"]\n\tclean = "${touch('late-filter')}; cat"\n`,
    });
    expect(written.exitCode, written.output).toBe(0);
    expect(readFileSync(join(separate, 'meta', 'config'), 'utf8')).toContain('late-filter');
    writeFileSync(join(separate, '.gitattributes'), '* filter=late\n');
    writeFileSync(join(separate, 'c.txt'), 'c\n');
    await expect(call(gitTool, sws, { operation: 'status' })).rejects.toMatchObject({
      code: 'WORKSPACE_PROCESS',
      message: expect.stringContaining('meta/config'),
    });
    // A .git/config that is a link to a workspace file is the same.
    const linked = join(sandbox.dir, 'linked');
    mkdirSync(linked, { recursive: true });
    sh(linked, 'init', '-q');
    writeFileSync(join(linked, 'shared.cfg'), readFileSync(join(linked, '.git', 'config')));
    rmSync(join(linked, '.git', 'config'));
    symlinkSync(join(linked, 'shared.cfg'), join(linked, '.git', 'config'));
    await expect(call(gitTool, new LocalWorkspace({ root: linked }), { operation: 'status' })).rejects.toMatchObject({
      code: 'WORKSPACE_PROCESS',
    });
    expect(ran()).toEqual([]);
  });

  it('a bare repository planted in a workspace that is not a repository is not discovered', async () => {
    const plain = join(sandbox.dir, 'plain');
    writeTree(plain, {
      HEAD: 'ref: refs/heads/main\n',
      config: `[core]\n\tbare = false\n\tworktree = .\n\tfsmonitor = "${touch('bare-fsmonitor')}; false"\n`,
      'objects/.keep': '',
      'refs/heads/.keep': '',
    });
    const r = await call(gitTool, new LocalWorkspace({ root: plain }), { operation: 'status' });
    expect(r.exitCode).not.toBe(0);
    expect(ran()).toEqual([]);
  });
});

describe('file tools never write Git internals', () => {
  it('write, edit and patch refuse .git/config, .git/hooks/*, nested sub/.git, .GIT and links into .git', async () => {
    mkdirSync(join(root, 'sub', '.git'), { recursive: true });
    symlinkSync(join(root, '.git'), join(root, 'git-alias'));
    symlinkSync(join(root, '.git', 'config'), join(root, 'config-alias'));
    const before = readFileSync(join(root, '.git', 'config'), 'utf8');
    const targets = [
      '.git/config',
      '.git/hooks/pre-commit',
      '.git/hooks/post-checkout',
      '.git',
      'sub/.git/config',
      '.GIT/config',
      '.Git/hooks/x',
      './.git/config',
      'src/../.git/config',
      'git-alias/config',
      'git-alias/hooks/pre-commit',
      'config-alias',
    ];
    for (const file_path of targets) {
      await expect(
        call(writeTool, ws, { file_path, content: '[core]\n\tfsmonitor = "touch pwned"\n' }),
        file_path,
      ).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    }
    await expect(
      call(editTool, ws, { file_path: '.git/config', old_string: 'bare', new_string: 'BARE' }),
    ).rejects.toMatchObject({ code: 'WORKSPACE_PATH', problem: 'protected' });
    await expect(
      call(editTool, ws, { file_path: 'config-alias', old_string: 'bare', new_string: 'BARE' }),
    ).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    const patch = '--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1 @@\n+touch pwned\n';
    await expect(call(patchTool, ws, { patch })).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe(before);
    expect(existsSync(join(root, 'sub', '.git', 'config'))).toBe(false);
  });
});
