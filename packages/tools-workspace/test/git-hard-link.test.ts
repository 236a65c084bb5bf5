// A file of the working tree that is another name (a hard link) of a read-denied file holds its
// content under a name no rule covers. `read` refuses it by its inode; `git` withholds it too: a
// diff leaves its sections out, a diff named on it is refused, and a stash that would keep its
// content in the repository (where a diff of the stash prints it) is refused. Real repositories.
import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { put, sh, tempDirs } from './git-kit.js';
import { LocalWorkspace, gitTool, readTool } from '../src/index.js';

const tempDir = tempDirs();
const SECRET = 'TOKEN=HIDDEN-LINKED';

/** A repository tracking `docs/e.txt` and `src/a.ts`, with `.env` ignored. */
function repo(): string {
  const dir = tempDir('a3s-git-hard-link-');
  put(dir, { 'docs/e.txt': 'placeholder\n', 'src/a.ts': 'a\n', '.gitignore': '.env\n', '.env': `${SECRET}\n` });
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-qm', 'initial');
  return dir;
}

type Call = (name: string, args: Record<string, unknown>) => Promise<ToolInvocationResult>;

function toolsOn(dir: string, deny: readonly string[]): Call {
  const workspace = new LocalWorkspace({ root: dir });
  const registry = new ToolRegistry({ capabilities: workspace.capabilities });
  registry.add(gitTool);
  registry.add(readTool);
  const invoker = new ToolInvoker({ registry, workspace, policy: { defaultDecision: 'allow', deny: [...deny] } });
  let n = 0;
  return (name, args) => invoker.invoke({ id: `c${++n}`, name, args }, createTestInvocation().context);
}

describe('git and other names (hard links) of read-denied files', () => {
  it('a diff of the working tree leaves out a tracked file that is a hard link of .env', async () => {
    const dir = repo();
    rmSync(join(dir, 'docs/e.txt'));
    linkSync(join(dir, '.env'), join(dir, 'docs/e.txt'));
    put(dir, { 'src/a.ts': 'b\n' });
    const tool = toolsOn(dir, ['Read(.env)']);
    // The file tools refuse it by its inode.
    const read = await tool('read', { file_path: 'docs/e.txt' });
    expect(read.ok).toBe(false);
    expect(read.output).toContain('hard link');
    for (const args of [{}, { ref: 'HEAD' }, { ref: sh(dir, 'rev-parse', 'HEAD').trim() }]) {
      const diff = await tool('git', { operation: 'diff', ...args });
      expect(diff.ok, diff.output).toBe(true);
      expect(diff.output).not.toContain('HIDDEN-LINKED');
      expect(diff.output).not.toContain('docs/e.txt');
      expect(diff.output).toContain('src/a.ts');
    }
    const named = await tool('git', { operation: 'diff', path: 'docs/e.txt' });
    expect(named.ok).toBe(false);
    expect(named.metadata.error_code).toBe('PERMISSION_DENIED');
    expect(named.output).not.toContain('HIDDEN-LINKED');
    // The control: without the rule, the same diff shows it.
    const open = await toolsOn(dir, [])('git', { operation: 'diff' });
    expect(open.output).toContain('HIDDEN-LINKED');
  }, 120_000);

  it('a stash that would keep a hard link of .env (changed or untracked) in the repository is refused', async () => {
    const dir = repo();
    const tool = toolsOn(dir, ['Read(.env)']);
    // Untracked, taken in by include_untracked.
    linkSync(join(dir, '.env'), join(dir, 'docs/copy.txt'));
    const untracked = await tool('git', { operation: 'stash', action: 'push', include_untracked: true });
    expect(untracked.ok).toBe(false);
    expect(untracked.metadata.error_code).toBe('PERMISSION_DENIED');
    expect(untracked.output).toContain('nothing was changed');
    expect(untracked.output).not.toContain('HIDDEN-LINKED');
    expect(statSync(join(dir, 'docs/copy.txt')).nlink).toBe(2);
    rmSync(join(dir, 'docs/copy.txt'));
    // Tracked and changed: the stash would hold its content, and put the placeholder back.
    rmSync(join(dir, 'docs/e.txt'));
    linkSync(join(dir, '.env'), join(dir, 'docs/e.txt'));
    const tracked = await tool('git', { operation: 'stash', action: 'push' });
    expect(tracked.ok).toBe(false);
    expect(tracked.output).toContain('nothing was changed');
    expect(sh(dir, 'stash', 'list')).toBe('');
    expect(readFileSync(join(dir, 'docs/e.txt'), 'utf8')).toBe(`${SECRET}\n`);
    // Other changes stash as usual.
    rmSync(join(dir, 'docs/e.txt'));
    writeFileSync(join(dir, 'docs/e.txt'), 'placeholder\n');
    put(dir, { 'src/a.ts': 'work\n' });
    const plain = await tool('git', { operation: 'stash', action: 'push', include_untracked: true });
    expect(plain.ok, plain.output).toBe(true);
    expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('a\n');
  }, 120_000);
});
