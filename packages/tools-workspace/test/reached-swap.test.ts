// A path the kernel judged can be swapped for a symbolic link before the backend opens it (a
// background process the model started flips it back and forth). The rules then hold on the file
// the backend actually reached: here the swap is made deterministic by a workspace whose file calls
// make it right after the kernel's check and before the real LocalWorkspace opens the path.
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type PermissionPolicyConfig,
  ToolInvoker,
  type ToolInvocationResult,
  ToolRegistry,
  type WorkspaceFileSystem,
  type WorkspaceServices,
} from '@a3s-code/core';
import { createTestInvocation, ScriptedConfirmationManager } from '@a3s-code/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function repo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-reached-')));
  made.push(dir);
  writeFileSync(join(dir, '.env'), 'SECRET=hunter2\n');
  mkdirSync(join(dir, 'secrets'));
  writeFileSync(join(dir, 'secrets', 'token.txt'), 'KEY=topsecret\n');
  writeFileSync(join(dir, 'x.txt'), 'plain\n');
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'd', 'token.txt'), 'inside\n');
  return dir;
}

/**
 * The swaps a background process would make: `x.txt` becomes a link to `target` (a symbolic one,
 * or with `hard` another name of it), `d` one to `secrets`.
 */
function swapper(dir: string, target: string, hard: boolean): (path: string) => void {
  return (path) => {
    if (path === 'x.txt') {
      rmSync(join(dir, 'x.txt'), { force: true });
      if (hard) linkSync(join(dir, target), join(dir, 'x.txt'));
      else symlinkSync(target, join(dir, 'x.txt'));
    } else if (path === 'd' || path.startsWith('d/')) {
      rmSync(join(dir, 'd'), { recursive: true, force: true });
      symlinkSync('secrets', join(dir, 'd'));
    }
  };
}

/** Which file calls make the swap: those that read and list, or those that write and remove. */
type SwapOn = 'reads' | 'writes';

/** `ws` whose file calls (`on`) first let `swap` change the path (after the kernel judged it). */
function swapping(ws: LocalWorkspace, swap: (path: string) => void, on: SwapOn): WorkspaceServices {
  const real = ws.fs;
  const first =
    (kind: SwapOn) =>
    <T>(path: string, then: () => T): T => {
      if (kind === on) swap(path);
      return then();
    };
  const r = first('reads');
  const w = first('writes');
  const fs: WorkspaceFileSystem = {
    readFile: (p, o) => r(p, () => real.readFile(p, o)),
    readChunks: (p, o) => r(p, () => real.readChunks(p, o)),
    stat: (p, o) => real.stat(p, o),
    list: (p, o) => r(p, () => real.list(p, o)),
    writeFile: (p, d, o) => w(p, () => real.writeFile(p, d, o)),
    remove: (p, o) => w(p, () => real.remove(p, o)),
  };
  return new Proxy(ws, {
    get(target, key) {
      if (key === 'fs') return fs;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function invokerOn(dir: string, policy: PermissionPolicyConfig, on: SwapOn, target = '.env', hard = false) {
  const local = new LocalWorkspace({ root: dir });
  const workspace = swapping(local, swapper(dir, target, hard), on);
  const registry = new ToolRegistry({ capabilities: local.capabilities });
  registry.registerPack(workspaceToolPack);
  const confirmation = new ScriptedConfirmationManager([]);
  const invoker = new ToolInvoker({ registry, workspace, policy, confirmation });
  let n = 0;
  const call = (name: string, args: Record<string, unknown>): Promise<ToolInvocationResult> =>
    invoker.invoke({ id: `s${++n}`, name, args }, createTestInvocation({}).context);
  return { call, confirmation };
}

const DENY: PermissionPolicyConfig = {
  defaultDecision: 'allow',
  deny: ['Read(.env)', 'Write(.env)', 'Edit(.env)', 'Read(secrets/**)', 'Write(secrets/**)'],
};

describe('path rules hold on the file the backend reached, not only on the path judged', () => {
  it('PERM-02: a write whose file is swapped for a link to a denied file is refused and the file kept', async () => {
    const dir = repo();
    const { call } = invokerOn(dir, DENY, 'writes');
    const r = await call('write', { file_path: 'x.txt', content: 'PWNED\n' });
    expect(r.ok, r.output).toBe(false);
    expect(r.output).toMatch(/Write\(\.env\)|Read\(\.env\)/);
    expect(r.output).toContain('.env');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SECRET=hunter2\n');
  });

  it('PERM-02: a write whose folder is swapped for a link to a denied folder is refused and the file kept', async () => {
    const dir = repo();
    const { call } = invokerOn(dir, DENY, 'writes');
    const r = await call('write', { file_path: 'd/token.txt', content: 'PWNED\n' });
    expect(r.ok, r.output).toBe(false);
    expect(readFileSync(join(dir, 'secrets', 'token.txt'), 'utf8')).toBe('KEY=topsecret\n');
  });

  it('PERM-02: a read and a listing reached through a swapped link hold to the deny rules', async () => {
    const dir = repo();
    const { call } = invokerOn(dir, DENY, 'reads');
    const read = await call('read', { file_path: 'x.txt' });
    expect(read.ok, read.output).toBe(false);
    expect(read.output).not.toContain('hunter2');
    expect(read.output).toContain('Read(.env)');
    const dirRead = await call('read', { file_path: 'd/token.txt' });
    expect(dirRead.output).not.toContain('topsecret');
    expect(dirRead.ok).toBe(false);
    const ls = await call('ls', { path: 'd' });
    expect(ls.output).not.toContain('token.txt');
  });

  it('PERM-05: a write allowed unasked never reaches a file under an ask rule through a swapped link', async () => {
    const dir = repo();
    const policy: PermissionPolicyConfig = { defaultDecision: 'allow', ask: ['Write(.env)', 'Read(.env)'] };
    const writes = invokerOn(dir, policy, 'writes');
    const r = await writes.call('write', { file_path: 'x.txt', content: 'PWNED\n' });
    expect(r.ok, r.output).toBe(false);
    expect(r.output).toContain('needs a confirmation this call did not get');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SECRET=hunter2\n');
    rmSync(join(dir, 'x.txt'));
    writeFileSync(join(dir, 'x.txt'), 'plain\n');
    const reads = invokerOn(dir, policy, 'reads');
    const read = await reads.call('read', { file_path: 'x.txt' });
    expect(read.ok, read.output).toBe(false);
    expect(read.output).not.toContain('hunter2');
    expect([...writes.confirmation.requests, ...reads.confirmation.requests]).toEqual([]);
  });

  it("a read swapped to a link into the runtime's own state is refused with no rule at all", async () => {
    const dir = repo();
    mkdirSync(join(dir, '.a3s', 'effect-log'), { recursive: true });
    writeFileSync(join(dir, '.a3s', 'effect-log', 's.jsonl'), '{"seq":1,"secret":"LOGGED"}\n');
    const { call } = invokerOn(dir, { defaultDecision: 'allow' }, 'reads', '.a3s/effect-log/s.jsonl');
    const read = await call('read', { file_path: 'x.txt' });
    expect(read.ok, read.output).toBe(false);
    expect(read.output).not.toContain('LOGGED');
    expect(read.output).toContain("runtime's own state");
  });

  it('a file reached through a link no rule covers is still read and written', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'other.txt'), 'other\n');
    const read = await invokerOn(dir, DENY, 'reads', 'other.txt').call('read', { file_path: 'x.txt' });
    expect(read.ok, read.output).toBe(true);
    expect(read.output).toContain('other');
    rmSync(join(dir, 'x.txt'));
    writeFileSync(join(dir, 'x.txt'), 'plain\n');
    const write = await invokerOn(dir, DENY, 'writes', 'other.txt').call('write', {
      file_path: 'x.txt',
      content: 'changed\n',
    });
    expect(write.ok, write.output).toBe(true);
    expect(readFileSync(join(dir, 'other.txt'), 'utf8')).toBe('changed\n');
    expect(existsSync(join(dir, '.env'))).toBe(true);
  });

  it('PERM-02: a file swapped for another name (a hard link) of a denied file is neither read nor written', async () => {
    const dir = repo();
    const read = await invokerOn(dir, DENY, 'reads', '.env', true).call('read', { file_path: 'x.txt' });
    expect(read.ok, read.output).toBe(false);
    expect(read.output).not.toContain('hunter2');
    expect(read.output).toContain('a hard link, of .env');
    rmSync(join(dir, 'x.txt'));
    writeFileSync(join(dir, 'x.txt'), 'plain\n');
    const write = await invokerOn(dir, DENY, 'writes', '.env', true).call('write', {
      file_path: 'x.txt',
      content: 'PWNED\n',
    });
    expect(write.ok, write.output).toBe(false);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SECRET=hunter2\n');
    rmSync(join(dir, 'x.txt'));
    writeFileSync(join(dir, 'x.txt'), 'plain\n');
    const edit = await invokerOn(dir, DENY, 'writes', '.env', true).call('edit', {
      file_path: 'x.txt',
      old_string: 'plain',
      new_string: 'PWNED',
    });
    expect(edit.ok, edit.output).toBe(false);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SECRET=hunter2\n');
  });
});
