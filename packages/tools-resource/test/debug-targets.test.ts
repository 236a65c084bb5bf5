// debug pointed where it must not go, as a hostile model would: attach to the host process, its
// threads, its parents or a process working outside the workspace; launch of a program outside
// the workspace (absolute, `..`, symbolic links); two launches at once; lldb commands through
// evaluate. Stand-in `dlv` and `dart` binaries that only record that they ran show that each
// refusal comes before any adapter starts.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DebugResource, listAdapters, openDebugResource } from '../src/debug.js';
import { checkAttachPid } from '../src/debug/target-guard.js';
import { caller, errorCode, project } from './debug-support.js';

const GO_MOD = 'module example.com/app\n\ngo 1.19\n';
const GO_MAIN = 'package main\n\nfunc main() {\n\tprintln("hi")\n}\n';

let dir = '';
let outside = '';
let debug: DebugResource | undefined;
let call: ReturnType<typeof caller>;
let started = '';
let path: string | undefined;
const children: ChildProcess[] = [];
const servers: Server[] = [];

/** Puts a `dlv` and a `dart` first on PATH that append a line to `started` and exit without serving. */
function fakeAdapters(): void {
  const bin = join(outside, 'bin');
  mkdirSync(bin, { recursive: true });
  started = join(outside, 'started');
  for (const name of ['dlv', 'dart']) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "$*" >> '${started}'\nexit 1\n`);
    chmodSync(join(bin, name), 0o755);
  }
  path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
}
const adapterRuns = () => (existsSync(started) ? readFileSync(started, 'utf8').split('\n').filter(Boolean).length : 0);

beforeEach(async () => {
  dir = project({ 'go.mod': GO_MOD, 'main.go': GO_MAIN, 'secret/app.go': GO_MAIN });
  outside = mkdtempSync(join(tmpdir(), 'a3s-debug-outside-'));
  fakeAdapters();
  debug = await openDebugResource({ stopWaitMs: 5000 });
  call = caller(dir, () => debug!);
});
afterEach(async () => {
  if (path !== undefined) process.env.PATH = path;
  path = undefined;
  await debug?.close();
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const s of servers.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** Starts `sleep 60` working in `cwd`. */
function sleeper(cwd: string): ChildProcess {
  const child = spawn('sleep', ['60'], { cwd, stdio: 'ignore' });
  children.push(child);
  return child;
}

describe.skipIf(!existsSync('/proc/self/stat'))('attach by pid is held to the workspace', () => {
  it('calls that run nothing (no program before or after them) report no change, so they need no verification', async () => {
    for (const op of ['adapters', 'status', 'terminate', 'threads']) {
      const r = await call({ op });
      expect(r.metadata?.changes, op).toEqual([]);
    }
    expect(adapterRuns()).toBe(0);
  });

  it('DBG-08: attach to the host process itself is refused before any adapter starts', async () => {
    const r = await call({ op: 'attach', adapter: 'delve', pid: process.pid });
    expect(errorCode(r)).toBe('DEBUG_TARGET');
    expect(r.output).toContain(`process ${process.pid} is the A3S host process itself`);
    expect(r.output).toContain('debug attaches only to a program running inside the workspace');
    expect(adapterRuns()).toBe(0);
    expect((await call({ op: 'status' })).metadata?.running).toBe(false);
  });

  it('DBG-08: attach to a thread of the host, its parent or pid 1 is refused', async () => {
    const thread = readdirSync('/proc/self/task')
      .map(Number)
      .find((t) => t !== process.pid);
    expect(thread).toBeDefined();
    const host = await call({ op: 'attach', adapter: 'delve', pid: thread });
    expect(host.output).toContain(`process ${thread} is the A3S host process itself`);
    for (const pid of [process.ppid, 1]) {
      const r = await call({ op: 'attach', adapter: 'delve', pid });
      expect(errorCode(r)).toBe('DEBUG_TARGET');
      expect(r.output).toContain(`process ${pid} is a parent of the A3S host process`);
    }
    expect(adapterRuns()).toBe(0);
  });

  it('DBG-08: attach to a process working outside the workspace is refused; one inside passes the check', async () => {
    const away = sleeper(outside);
    const r = await call({ op: 'attach', adapter: 'delve', pid: away.pid });
    expect(errorCode(r)).toBe('DEBUG_TARGET');
    expect(r.output).toMatch(/works in .*a3s-debug-outside-.*, outside the workspace/);
    expect(adapterRuns()).toBe(0);
    const near = sleeper(join(dir, 'secret'));
    expect(() => checkAttachPid(dir, near.pid!)).not.toThrow();
    // The check passed, so the (stand-in) adapter starts.
    expect(errorCode(await call({ op: 'attach', adapter: 'delve', pid: near.pid }))).toBe('DEBUG_ADAPTER');
    expect(adapterRuns()).toBe(1);
  });

  it('DBG-08: a pid that does not exist is refused', async () => {
    const r = await call({ op: 'attach', adapter: 'delve', pid: 2 ** 30 });
    expect(r.output).toBe(`DEBUG_TARGET: there is no process ${2 ** 30} this runtime can see`);
  });

  it('DBG-08: where the runtime cannot read /proc, attach fails closed and says why', async () => {
    await debug!.close();
    debug = await openDebugResource({ procRoot: join(outside, 'no-proc') });
    const child = sleeper(dir);
    const r = await call({ op: 'attach', adapter: 'delve', pid: child.pid });
    expect(errorCode(r)).toBe('DEBUG_TARGET');
    expect(r.output).toContain('this runtime has no readable /proc), so the attach is refused');
    expect(adapterRuns()).toBe(0);
  });

  it('DBG-08: attach by port to a port the host listens on is refused; so is a port nothing listens on', async () => {
    writeFileSync(join(dir, 'pubspec.yaml'), 'name: app\n');
    const server = createServer();
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const r = await call({ op: 'attach', adapter: 'dart', port });
    expect(errorCode(r)).toBe('DEBUG_TARGET');
    expect(r.output).toContain(
      `port ${port} belongs to process ${process.pid}: process ${process.pid} is the A3S host`,
    );
    await new Promise<void>((r2) => server.close(() => r2()));
    const none = await call({ op: 'attach', adapter: 'dart', port });
    expect(adapterRuns()).toBe(0);
    expect(none.output).toBe(`DEBUG_TARGET: nothing listens on port ${port}; start the debuggee listening there first`);
  });
});

describe('launch is held to the workspace', () => {
  it('DBG-08: a program outside the workspace (absolute, .., a symbolic link) is refused before any adapter starts', async () => {
    mkdirSync(join(outside, 'pkg'));
    spawnSync('cp', [join(dir, 'main.go'), join(outside, 'pkg', 'main.go')]);
    symlinkSync(join(outside, 'pkg'), join(dir, 'linked'));
    symlinkSync(join(outside, 'pkg', 'main.go'), join(dir, 'alias.go'));
    const rel = `../${outside.split('/').pop()}/pkg/main.go`;
    for (const program of [join(outside, 'pkg', 'main.go'), rel, 'linked/main.go', 'alias.go', 'linked']) {
      const r = await call({ op: 'launch', program, adapter: 'delve' });
      expect(errorCode(r), program).toBe('DEBUG_TARGET');
      expect(r.output).toMatch(
        /^DEBUG_TARGET: launch runs programs inside the workspace \(.*\); .* resolves to .*, outside it$/,
      );
    }
    const missing = await call({ op: 'launch', program: 'nope.go' });
    expect(missing.output).toBe('DEBUG_ARGS: the program nope.go does not exist');
    expect(adapterRuns()).toBe(0);
    // Inside the workspace (also through a link that stays inside), the adapter starts.
    symlinkSync(join(dir, 'main.go'), join(dir, 'inner.go'));
    expect(errorCode(await call({ op: 'launch', program: 'inner.go' }))).toBe('DEBUG_ADAPTER');
    expect(readFileSync(started, 'utf8')).toMatch(/^dap --listen/);
  });

  it('DBG-05: two launches at once start one adapter; the other is rejected', async () => {
    const results = await Promise.allSettled([
      debug!.launch(dir, 'main.go', [], 'delve'),
      debug!.launch(dir, 'main.go', [], 'delve'),
    ]);
    const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : 'ok'));
    expect(codes.sort()).toEqual(['DEBUG_ADAPTER', 'DEBUG_SESSION_EXISTS']);
    expect(adapterRuns()).toBe(1);
  });
});

const LLDB = (() => {
  const probe = project({ 'CMakeLists.txt': '' });
  try {
    return listAdapters(probe).find((a) => a.id === 'lldb')?.available === true;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();
const C_MAIN = '#include <stdio.h>\nint main(void) {\n  int n = 2;\n  printf("%d\\n", n);\n  return 0;\n}\n';

describe.skipIf(!LLDB || spawnSync('cc', ['--version']).status !== 0)('evaluate on lldb-dap', () => {
  it('DBG-13: evaluate takes expressions only; lldb commands (platform shell, script) do not run', async () => {
    if (path !== undefined) process.env.PATH = path;
    path = undefined;
    writeFileSync(join(dir, 'CMakeLists.txt'), '');
    writeFileSync(join(dir, 'a.c'), C_MAIN);
    expect(spawnSync('cc', ['-g', '-O0', '-o', join(dir, 'a'), join(dir, 'a.c')]).status).toBe(0);
    await call({ op: 'breakpoints', file: 'a.c', lines: [4] });
    expect((await call({ op: 'launch', program: 'a' })).output).toMatch(/stopped \(breakpoint\)/);
    for (const expression of [
      '`platform shell touch pwned1',
      'platform shell touch pwned2',
      'script import os; os.system("touch pwned3")',
    ]) {
      const r = await call({ op: 'evaluate', expression });
      expect(errorCode(r), expression).toBe('DEBUG_REQUEST');
    }
    expect(readdirSync(dir).filter((n) => n.startsWith('pwned'))).toEqual([]);
    expect((await call({ op: 'evaluate', expression: 'n + 40' })).output).toBe('42');
  }, 60_000);
});
