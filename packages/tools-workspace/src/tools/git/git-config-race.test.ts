import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedGit } from '../../local/git-pin.js';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, initRepo, tempDir, writeTree } from '../../test-support/harness.js';
import { gitTool } from './git-tool.js';

// A process of the session (a command's background job) keeps swapping .git/config between a
// harmless one and one naming a filter and a textconv that copy a file out. The runtime lists
// the configuration, then runs git: git must never read a configuration it did not list.
const sandbox = tempDir('a3s-gitrace-');
const root = join(sandbox.dir, 'repo');
const leak = join(sandbox.dir, 'leaked');
const pinnable =
  pinnedGit({ gitDir: '/x/.git', commonDir: '/x/.git', top: '/x' }, '/x', '', '', ['status'], false) !== undefined;
let swapper: ChildProcess | undefined;
let ws: LocalWorkspace;

beforeAll(() => {
  writeTree(root, { 'a.txt': 'one\n', '.env': 'SECRET=1\n', '.gitignore': '.env\n' });
  initRepo(root);
  writeFileSync(join(root, '.gitattributes'), '* filter=x diff=y\n');
  const good = readFileSync(join(root, '.git', 'config'), 'utf8');
  const evil = `${good}[filter "x"]\n\tclean = "cp .env ${leak}; cat"\n\tsmudge = "cp .env ${leak}; cat"\n[diff "y"]\n\ttextconv = "cp .env ${leak}; cat"\n`;
  mkdirSync(join(sandbox.dir, 'swap'));
  writeFileSync(join(sandbox.dir, 'swap', 'good'), good);
  writeFileSync(join(sandbox.dir, 'swap', 'evil'), evil);
  ws = new LocalWorkspace({ root });
});

/** A race loop against a busy swapper: bounded by its iterations, slow on a loaded 2-core machine. */
const RACE_TIMEOUT_MS = 120_000;

function startSwapping(): void {
  const s = join(sandbox.dir, 'swap');
  swapper = spawn(
    'sh',
    [
      '-c',
      `while :; do cp ${s}/evil ${s}/t1; mv ${s}/t1 .git/config; cp ${s}/good ${s}/t2; mv ${s}/t2 .git/config; done`,
    ],
    { cwd: root, stdio: 'ignore' },
  );
}

function stopSwapping(): void {
  swapper?.kill('SIGKILL');
  swapper = undefined;
  writeFileSync(join(root, '.git', 'config'), readFileSync(join(sandbox.dir, 'swap', 'good'), 'utf8'));
}

afterAll(() => {
  stopSwapping();
  sandbox.cleanup();
});

describe.skipIf(!pinnable)('git reads only the configuration the runtime listed', () => {
  it(
    'the swap is a real race: plain git run the same way copies the file out',
    () => {
      startSwapping();
      try {
        for (let i = 0; i < 200 && !existsSync(leak); i++) {
          writeFileSync(join(root, 'a.txt'), `one ${i}\n`);
          try {
            execFileSync('git', ['diff'], { cwd: root, stdio: 'ignore' });
          } catch {
            // A config caught half-written fails the command; the next one goes on.
          }
        }
      } finally {
        stopSwapping();
      }
      expect(existsSync(leak)).toBe(true);
      rmSync(leak);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'diff, status, stash and checkout through the tool never run the swapped-in filter or textconv',
    async () => {
      startSwapping();
      try {
        for (let i = 0; i < 40; i++) {
          writeFileSync(join(root, 'a.txt'), `two ${i}\n`);
          await call(gitTool, ws, { operation: 'diff' }).catch(() => undefined);
          await call(gitTool, ws, { operation: 'status' }).catch(() => undefined);
        }
        for (let i = 0; i < 5; i++) {
          writeFileSync(join(root, 'a.txt'), `three ${i}\n`);
          await call(gitTool, ws, { operation: 'stash', message: `race ${i}` }).catch(() => undefined);
          await call(gitTool, ws, { operation: 'stash', action: 'pop' }).catch(() => undefined);
          await call(gitTool, ws, { operation: 'checkout', ref: 'main' }).catch(() => undefined);
        }
      } finally {
        stopSwapping();
      }
      expect(existsSync(leak)).toBe(false);
      // The repository still works as before: the last change is in the working tree.
      const status = await call(gitTool, ws, { operation: 'status' });
      expect(status.exitCode, status.output).toBe(0);
      expect(status.output).toContain('a.txt');
    },
    RACE_TIMEOUT_MS,
  );
});

describe.skipIf(!pinnable)('git while the git folder itself is moved about', () => {
  it(
    'a .git renamed away and back, and replaced by one with a filter, never runs the filter; every answer is a result or a named refusal',
    async () => {
      const base = join(sandbox.dir, 'moving');
      const marker = join(base, 'ran');
      const repo = join(base, 'repo');
      writeTree(repo, { 'a.txt': 'one\n' });
      initRepo(repo);
      writeFileSync(join(repo, '.gitattributes'), '* filter=z\n');
      // A second git folder, the same repository with a filter named in its config.
      execFileSync('cp', ['-a', join(repo, '.git'), join(base, 'evil.git')]);
      writeFileSync(
        join(base, 'evil.git', 'config'),
        `${readFileSync(join(repo, '.git', 'config'), 'utf8')}[filter "z"]\n\tclean = "touch ${marker}; cat"\n`,
      );
      const mover = spawn(
        'sh',
        [
          '-c',
          `while :; do mv .git ../real.git && mv ../evil.git .git && mv .git ../evil.git && mv ../real.git .git; done 2>/dev/null`,
        ],
        { cwd: repo, stdio: 'ignore' },
      );
      const mws = new LocalWorkspace({ root: repo });
      try {
        for (let i = 0; i < 30; i++) {
          writeFileSync(join(repo, 'a.txt'), `moved ${i}\n`);
          const r = await call(gitTool, mws, { operation: i % 2 === 0 ? 'diff' : 'status' }).catch(
            (e: { code?: string }) => e,
          );
          expect(r).toBeDefined();
        }
      } finally {
        mover.kill('SIGKILL');
      }
      await new Promise((done) => setTimeout(done, 100));
      // Whichever folder the loop left where, put the real one back.
      if (!existsSync(join(repo, '.git')) && existsSync(join(base, 'real.git')))
        execFileSync('mv', [join(base, 'real.git'), join(repo, '.git')]);
      expect(existsSync(marker)).toBe(false);
    },
    RACE_TIMEOUT_MS,
  );
});

describe('a submodule keeps its own configuration to itself', () => {
  it(
    'status, diff and a stash pop do not run git in a submodule, whose filter would run unlisted',
    async () => {
      const base = join(sandbox.dir, 'modules');
      const marker = join(base, 'ran');
      writeTree(join(base, 'inner'), { 's.txt': 'inner\n' });
      initRepo(join(base, 'inner'));
      writeTree(join(base, 'outer'), { 't.txt': 'outer\n' });
      initRepo(join(base, 'outer'));
      const outer = join(base, 'outer');
      execFileSync('git', ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', '../inner', 'inner'], {
        cwd: outer,
      });
      execFileSync('git', ['commit', '-qm', 'with a submodule'], { cwd: outer });
      const inner = join(outer, 'inner');
      writeFileSync(join(inner, '.gitattributes'), '* filter=z\n');
      execFileSync('git', ['config', 'filter.z.clean', `touch ${marker}; cat`], { cwd: inner });
      const ows = new LocalWorkspace({ root: outer });
      // A file whose times changed but not its content: git hashes it, through the filter, to know.
      execFileSync('touch', ['-d', '2001-01-01', join(inner, 's.txt')]);
      expect((await call(gitTool, ows, { operation: 'status' })).exitCode).toBe(0);
      execFileSync('touch', ['-d', '2002-01-01', join(inner, 's.txt')]);
      expect((await call(gitTool, ows, { operation: 'diff' })).exitCode).toBe(0);
      writeFileSync(join(outer, 't.txt'), 'changed\n');
      expect((await call(gitTool, ows, { operation: 'stash' })).exitCode).toBe(0);
      execFileSync('touch', ['-d', '2003-01-01', join(inner, 's.txt')]);
      expect((await call(gitTool, ows, { operation: 'stash', action: 'pop' })).exitCode).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(readFileSync(join(outer, 't.txt'), 'utf8')).toBe('changed\n');
    },
    RACE_TIMEOUT_MS,
  );
});

describe.skipIf(pinnable)('git configuration pinning', () => {
  it('is not available on this host (not Linux, or no Perl): git runs with the listed drivers switched off only', () => {
    expect(pinnable).toBe(false);
  });
});
