// Path ask rules hold on the files themselves, not only on the arguments: with
// `ask: Write(secret/**), Read(secret/**)` and everything else allowed, a model-side call that
// reaches a file under `secret/` by another route (a symbolic link in the workspace, a search over
// the whole tree, a tool whose arguments name no file) was never asked about it, so the kernel
// refuses it or leaves the file out. Naming the file itself asks, as before. Real files, a real
// LocalWorkspace and the real kernel; the confirmation manager is core's scripted one.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GovernanceSnapshot, ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation, ScriptedConfirmationManager } from '@a3s-code/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function repo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-ask-paths-')));
  made.push(dir);
  mkdirSync(join(dir, 'secret'));
  writeFileSync(join(dir, 'secret', 'key.txt'), 'ASK-SECRET-1\n');
  writeFileSync(join(dir, 'open.txt'), 'visible ASK-SECRET-0\n');
  symlinkSync('secret', join(dir, 'alias'));
  return dir;
}

function invokerOn(
  dir: string,
  answers: boolean[],
  governance: GovernanceSnapshot = {},
  withManager = true,
  ask: readonly string[] = ['Write(secret/**)', 'Read(secret/**)'],
) {
  const workspace = new LocalWorkspace({ root: dir });
  const registry = new ToolRegistry({ capabilities: workspace.capabilities });
  registry.registerPack(workspaceToolPack);
  const confirmation = new ScriptedConfirmationManager(answers);
  const invoker = new ToolInvoker({
    registry,
    workspace,
    policy: { defaultDecision: 'allow', ask: [...ask] },
    ...(withManager ? { confirmation } : {}),
  });
  let n = 0;
  const call = (name: string, args: Record<string, unknown>): Promise<ToolInvocationResult> =>
    invoker.invoke({ id: `a${++n}`, name, args }, createTestInvocation(governance).context);
  return { call, confirmation };
}

describe('path ask rules hold on the files a call reaches', () => {
  it('PERM-05/PERM-06: a write or read through a symbolic link to an asked folder is refused, never made unasked', async () => {
    const dir = repo();
    const { call, confirmation } = invokerOn(dir, []);
    const write = await call('write', { file_path: 'alias/key.txt', content: 'overwritten' });
    expect(write.ok, write.output).toBe(false);
    expect(write.metadata.error_code).toBe('PERMISSION_DENIED');
    // `write` reads the file first (for its diff), so the read rule may be the one that stops it.
    expect(write.output).toMatch(/(Write|Read)\(secret\/\*\*\) needs a confirmation this call did not get/);
    expect(readFileSync(join(dir, 'secret', 'key.txt'), 'utf8')).toBe('ASK-SECRET-1\n');
    const read = await call('read', { file_path: 'alias/key.txt' });
    expect(read.ok, read.output).toBe(false);
    expect(read.output).not.toContain('ASK-SECRET-1');
    expect(read.output).toContain('Read(secret/**) needs a confirmation');
    // Nobody was asked: the refusals came from the files, not from a prompt.
    expect(confirmation.requests).toEqual([]);
  });

  it('PERM-05/PERM-06: with only a write ask rule, the write through the link is refused by it and the file is kept', async () => {
    const dir = repo();
    const { call, confirmation } = invokerOn(dir, [], {}, true, ['Write(secret/**)']);
    const write = await call('write', { file_path: 'alias/key.txt', content: 'overwritten' });
    expect(write.ok, write.output).toBe(false);
    expect(write.output).toContain(
      'Write(secret/**) needs a confirmation this call did not get (writing alias/key.txt)',
    );
    expect(readFileSync(join(dir, 'secret', 'key.txt'), 'utf8')).toBe('ASK-SECRET-1\n');
    // Reading is not under a rule here.
    expect((await call('read', { file_path: 'alias/key.txt' })).output).toContain('ASK-SECRET-1');
    expect(confirmation.requests).toEqual([]);
  });

  it('PERM-05: grep and glob over the tree leave the asked files out; other files are found', async () => {
    const dir = repo();
    const { call, confirmation } = invokerOn(dir, []);
    const grep = await call('grep', { pattern: 'ASK-SECRET' });
    expect(grep.output).toContain('open.txt');
    expect(grep.output).not.toContain('ASK-SECRET-1');
    const glob = await call('glob', { pattern: '**/*.txt' });
    expect(glob.output).toContain('open.txt');
    expect(glob.output).not.toContain('key.txt');
    expect(confirmation.requests).toEqual([]);
  });

  it('PERM-06: naming the file itself asks; approved, it is read and written', async () => {
    const dir = repo();
    const { call, confirmation } = invokerOn(dir, [true, true]);
    const read = await call('read', { file_path: 'secret/key.txt' });
    expect(read.ok, read.output).toBe(true);
    expect(read.output).toContain('ASK-SECRET-1');
    const write = await call('write', { file_path: './secret/key.txt', content: 'changed\n' });
    expect(write.ok, write.output).toBe(true);
    expect(readFileSync(join(dir, 'secret', 'key.txt'), 'utf8')).toBe('changed\n');
    expect(confirmation.requests.map((r) => r.toolName)).toEqual(['read', 'write']);
  });

  it('PERM-04/PERM-07: in the YOLO lane and without a confirmation manager, ask rules ask nobody and hold nothing', async () => {
    for (const [governance, withManager] of [
      [{ yolo: true }, true],
      [{}, false],
    ] as const) {
      const dir = repo();
      const { call } = invokerOn(dir, [], governance, withManager);
      const write = await call('write', { file_path: 'alias/key.txt', content: 'through the link\n' });
      expect(write.ok, write.output).toBe(true);
      expect(readFileSync(join(dir, 'secret', 'key.txt'), 'utf8')).toBe('through the link\n');
    }
  });

  it('PERM-06: a call confirmed under the default (ask everything) was not shown the asked files it reaches: they stay held', async () => {
    const dir = repo();
    const workspace = new LocalWorkspace({ root: dir });
    const registry = new ToolRegistry({ capabilities: workspace.capabilities });
    registry.registerPack(workspaceToolPack);
    const confirmation = new ScriptedConfirmationManager([true, true, true]);
    const invoker = new ToolInvoker({
      registry,
      workspace,
      policy: { defaultDecision: 'ask', ask: ['Read(secret/**)'] },
      confirmation,
    });
    const call = (id: string, name: string, args: Record<string, unknown>) =>
      invoker.invoke({ id, name, args }, createTestInvocation().context);
    const grep = await call('g', 'grep', { pattern: 'ASK-SECRET' });
    expect(grep.ok, grep.output).toBe(true);
    expect(grep.output).toContain('open.txt');
    expect(grep.output).not.toContain('ASK-SECRET-1');
    const viaLink = await call('l', 'read', { file_path: 'alias/key.txt' });
    expect(viaLink.ok).toBe(false);
    expect(viaLink.output).toContain('Read(secret/**) needs a confirmation this call did not get');
    // Named by its own path, the read is asked under the rule itself, and approved, it reads.
    const named = await call('n', 'read', { file_path: 'secret/key.txt' });
    expect(named.output).toContain('ASK-SECRET-1');
    expect(confirmation.requests.map((r) => r.rule)).toEqual(['default', 'default', 'Read(secret/**)']);
  });
});
