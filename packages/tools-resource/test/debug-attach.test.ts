// debug attach to programs that are already running: debugpy by port, delve (`dlv dap`) and
// lldb-dap by process id, lldb-dap through an lldb-server port. Each suite runs when its adapter
// (and compiler) is here and says so in its title when it skips.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type DebugResource, listAdapters, openDebugResource } from '../src/debug.js';
import { aliveAfter, caller, errorCode, project } from './debug-support.js';

const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const adapterHere = (id: string, marker: Record<string, string>): string | undefined => {
  const probe = project(marker);
  try {
    return listAdapters(probe).find((a) => a.id === id)?.reason;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
};
const DEBUGPY = adapterHere('debugpy', { 'requirements.txt': '' });
const DELVE =
  adapterHere('delve', { 'go.mod': 'module x\n' }) ?? (has('go', ['version']) ? undefined : "'go' is not on PATH");
const LLDB =
  adapterHere('lldb', { 'CMakeLists.txt': '' }) ?? (has('cc', ['--version']) ? undefined : "'cc' is not on PATH");
const LLDB_SERVER = ['lldb-server', 'lldb-server-19', 'lldb-server-18', 'lldb-server-17'].find((b) =>
  has(b, ['version']),
);
const title = (name: string, reason: string | undefined) =>
  reason === undefined ? name : `${name} (skipped: ${reason})`;

let dir = '';
let debug: DebugResource | undefined;
let debuggee: ChildProcess | undefined;
afterEach(async () => {
  await debug?.close();
  debug = undefined;
  debuggee?.kill('SIGKILL');
  debuggee = undefined;
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once a socket listens on loopback `port` (read from /proc/net/tcp: no connection is made). */
async function listening(port: number, ms = 10_000): Promise<void> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const rows = readFileSync('/proc/net/tcp', 'utf8').split('\n');
    if (rows.some((r) => r.trim().split(/\s+/)[1]?.endsWith(`:${hex}`) && r.trim().split(/\s+/)[3] === '0A')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on port ${port}`);
}

/** Starts `command` in `dir` and resolves once its output contains `ready`. */
function startDebuggee(command: string, args: string[], ready: string): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  debuggee = child;
  return new Promise((resolve, reject) => {
    let seen = '';
    const take = (b: Buffer) => {
      seen += b.toString();
      if (seen.includes(ready)) resolve(child);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before '${ready}': ${seen}`)));
  });
}

const GO_LOOP = `package main

import (
\t"fmt"
\t"os"
\t"time"
)

func tick(n int) int {
\tnext := n + 1
\treturn next
}

func main() {
\tfmt.Println("ready", os.Getpid())
\tn := 0
\tfor {
\t\tn = tick(n)
\t\ttime.Sleep(20 * time.Millisecond)
\t}
}
`;

const C_LOOP = `#include <stdio.h>
#include <unistd.h>

int tick(int n) {
  int next = n + 1;
  return next;
}

int main(void) {
  int n = 0;
  printf("ready\\n");
  fflush(stdout);
  for (;;) {
    n = tick(n);
    usleep(20000);
  }
}
`;

const PY_LOOP = `import time

def tick(n):
    nxt = n + 1
    return nxt

n = 0
print("ready", flush=True)
while True:
    n = tick(n)
    time.sleep(0.02)
`;

describe.skipIf(DEBUGPY !== undefined)(title('attach with debugpy', DEBUGPY), () => {
  it('DBG-08: attach by port to a program started under debugpy --listen; it stops at a breakpoint', async () => {
    dir = project({ 'requirements.txt': '', 'loop.py': PY_LOOP });
    const port = await freePort();
    const python = listAdapters(dir).find((a) => a.id === 'debugpy')!.command!;
    const child = await startDebuggee(python, ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, 'loop.py'], 'ready');
    debug = await openDebugResource({ stopWaitMs: 20_000 });
    const call = caller(dir, () => debug!);
    await call({ op: 'breakpoints', file: 'loop.py', lines: [4] });
    const r = await call({ op: 'attach', adapter: 'debugpy', port });
    expect(r.output).toMatch(/^attached with debugpy to port \d+: stopped \(breakpoint\) .* at tick \(.*loop\.py:4\)/);
    expect(Number((await call({ op: 'evaluate', expression: 'n + 1000' })).output)).toBeGreaterThan(1000);
    expect((await call({ op: 'terminate' })).metadata?.ended).toBe(true);
    expect(await aliveAfter([child.pid!], 5000)).toEqual([]);
  }, 60_000);

  it('DBG-08: attach with debugpy by pid is refused with the way to attach by port', async () => {
    dir = project({ 'requirements.txt': '' });
    debug = await openDebugResource();
    const r = await caller(dir, () => debug!)({ op: 'attach', adapter: 'debugpy', pid: process.pid });
    expect(errorCode(r)).toBe('DEBUG_ARGS');
    expect(r.output).toContain('python -m debugpy --listen PORT');
  });
});

describe.skipIf(DELVE !== undefined)(title('attach with delve', DELVE), () => {
  it('DBG-08: dlv dap attaches to a running Go process by pid; breakpoint, evaluate, terminate kills it', async () => {
    dir = project({ 'go.mod': 'module example.com/loop\n\ngo 1.19\n', 'main.go': GO_LOOP });
    const build = spawnSync('go', ['build', '-gcflags=all=-N -l', '-o', 'loop', '.'], { cwd: dir, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const child = await startDebuggee(`${dir}/loop`, [], 'ready');
    debug = await openDebugResource({ stopWaitMs: 60_000 });
    const call = caller(dir, () => debug!);
    await call({ op: 'breakpoints', file: 'main.go', lines: [10] });
    const r = await call({ op: 'attach', adapter: 'delve', pid: child.pid });
    expect(r.output).toMatch(
      new RegExp(
        `^attached with delve to process ${child.pid}: stopped \\(breakpoint\\).* at main\\.tick \\(.*main\\.go:10\\)`,
      ),
    );
    expect(Number((await call({ op: 'evaluate', expression: 'n + 1000' })).output)).toBeGreaterThanOrEqual(1000);
    const frames = (await call({ op: 'stack' })).metadata?.frames as { name: string }[];
    expect(frames.slice(0, 2).map((f) => f.name)).toEqual(['main.tick', 'main.main']);
    expect((await call({ op: 'terminate' })).metadata?.ended).toBe(true);
    expect(await aliveAfter([child.pid!], 5000)).toEqual([]);
  }, 120_000);

  it('DBG-08: delve attach by port is refused, naming attach by pid', async () => {
    dir = project({ 'go.mod': 'module x\n' });
    debug = await openDebugResource();
    const r = await caller(dir, () => debug!)({ op: 'attach', adapter: 'delve', port: 4000 });
    expect(r.output).toBe('DEBUG_ARGS: delve attaches to a running Go process by its id here: attach {pid}');
  });
});

describe.skipIf(LLDB !== undefined)(title('attach with lldb-dap', LLDB), () => {
  it('DBG-08: lldb-dap attaches to a running C process by pid; breakpoint, evaluate in the frame, terminate', async () => {
    dir = project({ 'CMakeLists.txt': '', 'loop.c': C_LOOP });
    expect(spawnSync('cc', ['-g', '-O0', '-o', `${dir}/loop`, `${dir}/loop.c`]).status).toBe(0);
    const child = await startDebuggee(`${dir}/loop`, [], 'ready');
    debug = await openDebugResource({ stopWaitMs: 30_000 });
    const call = caller(dir, () => debug!);
    await call({ op: 'breakpoints', file: 'loop.c', lines: [5] });
    const r = await call({ op: 'attach', adapter: 'lldb', pid: child.pid });
    expect(r.output).toMatch(
      new RegExp(`^attached with lldb to process ${child.pid}: stopped \\(breakpoint\\).* at tick \\(.*loop\\.c:5\\)`),
    );
    expect((await call({ op: 'evaluate', expression: 'n + 1000' })).output).toMatch(/^\d{4,}$/);
    expect((await call({ op: 'terminate' })).metadata?.ended).toBe(true);
    expect(await aliveAfter([child.pid!], 5000)).toEqual([]);
  }, 60_000);

  it.skipIf(LLDB_SERVER === undefined)(
    `DBG-08: lldb-dap attaches by port to a program under lldb-server gdbserver${LLDB_SERVER === undefined ? ' (skipped: no lldb-server on PATH)' : ''}`,
    async () => {
      dir = project({ 'CMakeLists.txt': '', 'loop.c': C_LOOP });
      expect(spawnSync('cc', ['-g', '-O0', '-o', `${dir}/loop`, `${dir}/loop.c`]).status).toBe(0);
      const port = await freePort();
      debuggee = spawn(LLDB_SERVER!, ['gdbserver', `127.0.0.1:${port}`, `${dir}/loop`], { cwd: dir, stdio: 'ignore' });
      await listening(port);
      debug = await openDebugResource({ stopWaitMs: 30_000 });
      const call = caller(dir, () => debug!);
      await call({ op: 'breakpoints', file: 'loop.c', lines: [5] });
      const r = await call({ op: 'attach', adapter: 'lldb', port });
      expect(r.output).toMatch(/^attached with lldb to port \d+: (stopped|running)/);
      // lldb-dap may report the stop at the attach point and continue to the breakpoint after it:
      // on a loaded machine the attach can answer in between. The program stops at line 5 either way.
      let status = r.output;
      for (let i = 0; i < 100 && !/: stopped/.test(status); i++) {
        await new Promise((res) => setTimeout(res, 100));
        status = (await call({ op: 'status' })).output;
      }
      expect(status).toMatch(/: stopped/);
      expect((await call({ op: 'terminate' })).metadata?.ended).toBe(true);
    },
    60_000,
  );
});

describe('attach arguments', () => {
  it('DBG-08: attach needs exactly one of port and pid', async () => {
    dir = project({ 'requirements.txt': '' });
    debug = await openDebugResource();
    const call = caller(dir, () => debug!);
    for (const args of [{}, { port: 5678, pid: 42 }]) {
      const r = await call({ op: 'attach', adapter: 'debugpy', ...args });
      expect(r.output).toBe("DEBUG_ARGS: attach needs exactly one of 'port' (the debuggee listens there) or 'pid'");
    }
  });
});

describe('the dart adapter without a Dart SDK', () => {
  it('DBG-06: with pubspec.yaml and no dart on PATH, adapters names the missing binary; launch and attach say so', async () => {
    dir = project({ 'pubspec.yaml': 'name: app\n', 'bin/main.dart': "void main() {\n  print('hi');\n}\n" });
    debug = await openDebugResource();
    const call = caller(dir, () => debug!);
    const path = process.env.PATH;
    try {
      process.env.PATH = `${dir}/no-bin`;
      const listed = (await call({ op: 'adapters' })).metadata?.adapters as { id: string; reason?: string }[];
      expect(listed.find((a) => a.id === 'dart')?.reason).toBe('binary not found: needs `dart` on PATH');
      const launched = await call({ op: 'launch', program: 'bin/main.dart' });
      expect(launched.output).toBe(
        'DEBUG_ADAPTER: the dart adapter cannot start here: binary not found: needs `dart` on PATH',
      );
      const attached = await call({ op: 'attach', adapter: 'dart', port: 8181 });
      expect(attached.output).toBe(launched.output);
    } finally {
      process.env.PATH = path;
    }
    rmSync(`${dir}/pubspec.yaml`);
    const unmarked = (await call({ op: 'adapters' })).metadata?.adapters as { id: string; reason?: string }[];
    expect(unmarked.find((a) => a.id === 'dart')?.reason).toBe(`no root marker in ${dir} (looked for pubspec.yaml)`);
  });
});
