// debug on delve (a Go fixture) and lldb-dap (a C fixture), real adapters and real programs.
import { readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { type DebugResource, listAdapters, openDebugResource } from '../src/debug.js';
import { alive, aliveAfter, caller, project } from './debug-support.js';

const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const GO = has('dlv', ['version']) && has('go', ['version']);
const probe = project({ 'CMakeLists.txt': '' });
const LLDB = has('cc', ['--version']) && listAdapters(probe).find((a) => a.id === 'lldb')?.available === true;
rmSync(probe, { recursive: true, force: true });

const GO_MAIN = `package main

import (
\t"fmt"
\t"os"
)

func add(a, b int) int {
\ttotal := a + b
\treturn total
}

func main() {
\tfmt.Println("start", os.Getpid())
\tr := add(2, 3)
\tfmt.Println("result", r)
}
`;

const C_MAIN = `#include <stdio.h>
#include <unistd.h>

int add(int a, int b) {
  int total = a + b;
  return total;
}

int main(void) {
  printf("start\\n");
  int r = add(2, 3);
  printf("result %d\\n", r);
  return 0;
}
`;

let dir = '';
let debug: DebugResource | undefined;
afterEach(async () => {
  await debug?.close();
  debug = undefined;
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!GO)('debug on delve', () => {
  it('DBG-15: dlv dap stops at a breakpoint set before launch; stack, scopes, variables, evaluate, step, terminate', async () => {
    dir = project({ 'go.mod': 'module example.com/fx\n\ngo 1.19\n', 'main.go': GO_MAIN });
    debug = await openDebugResource({ stopWaitMs: 60_000 });
    const call = caller(dir, () => debug!);
    await call({ op: 'breakpoints', file: 'main.go', lines: [9] });
    const launched = await call({ op: 'launch', program: '.' });
    expect(launched.output).toMatch(/with delve: stopped \(breakpoint\).* at main\.add \(.*main\.go:9\)/);
    const frames = (await call({ op: 'stack' })).metadata?.frames as { id: number; name: string; line: number }[];
    expect(frames.slice(0, 2).map((f) => [f.name, f.line])).toEqual([
      ['main.add', 9],
      ['main.main', 15],
    ]);
    const scopes = (await call({ op: 'scopes', frame_id: frames[0]!.id })).metadata?.scopes as { reference: number }[];
    const vars = (await call({ op: 'variables', reference: scopes[0]!.reference })).metadata?.variables as {
      name: string;
      value: string;
    }[];
    expect(vars.filter((v) => v.name === 'a' || v.name === 'b').map((v) => v.value)).toEqual(['2', '3']);
    expect((await call({ op: 'evaluate', expression: 'a * 10 + b', frame_id: frames[0]!.id })).output).toBe('23');
    expect((await call({ op: 'step_over' })).output).toMatch(/main\.go:10\)/);
    const adapterPid = (await debug.current())!.pid;
    const debuggee = Number(spawnSync('pgrep', ['-P', String(adapterPid)], { encoding: 'utf8' }).stdout.trim());
    expect(alive(debuggee)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['go.mod', 'main.go']);
    expect((await call({ op: 'terminate' })).metadata?.ended).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(adapterPid)).toBe(false);
    expect(alive(debuggee)).toBe(false);
  }, 120_000);

  it('DBG-07: a breakpoint in a file that does not exist is refused naming it; DBG-09: continue after the end says the program ended', async () => {
    dir = project({ 'go.mod': 'module example.com/fx\n\ngo 1.19\n', 'main.go': GO_MAIN });
    debug = await openDebugResource({ stopWaitMs: 60_000 });
    const call = caller(dir, () => debug!);
    const typo = await call({ op: 'breakpoints', file: 'mian.go', lines: [9] });
    expect([typo.exitCode, typo.output]).toEqual([
      1,
      'DEBUG_ARGS: breakpoints: there is no file mian.go; give the path of a source file, relative to the workspace root',
    ]);
    expect((await call({ op: 'breakpoints', file: 'mian.go', lines: [] })).exitCode).toBe(0);
    expect((await call({ op: 'status' })).output).toBe('no debug session; no breakpoints');
    await call({ op: 'breakpoints', file: 'main.go', lines: [9] });
    await call({ op: 'launch', program: '.' });
    expect((await call({ op: 'continue' })).output).toMatch(/^the program ended/);
    const again = await call({ op: 'continue' });
    expect([again.exitCode, again.output]).toEqual([
      1,
      'DEBUG_ARGS: continue: the program has ended, so there is nothing to run; terminate the session and launch again to debug another run',
    ]);
  }, 120_000);

  it('DBG-07: a breakpoint on a line past the end of the file is refused naming the line count', async () => {
    dir = project({ 'go.mod': 'module example.com/fx\n\ngo 1.19\n', 'main.go': GO_MAIN });
    debug = await openDebugResource();
    const call = caller(dir, () => debug!);
    const past = await call({ op: 'breakpoints', file: 'main.go', lines: [9, 9999] });
    expect([past.exitCode, past.output]).toEqual([
      1,
      'DEBUG_ARGS: breakpoints: main.go has 17 lines, so line 9999 cannot be hit; give lines between 1 and 17',
    ]);
    expect((await call({ op: 'status' })).output).toBe('no debug session; no breakpoints');
    expect((await call({ op: 'breakpoints', file: 'main.go', lines: [17] })).exitCode).toBe(0);
  });

  it('DBG-09: while a continue waits the status says running; DBG-14: an adapter killed then fails the continue and the debuggee dies with it', async () => {
    const spin = 'package main\n\nfunc main() {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\n';
    dir = project({ 'go.mod': 'module example.com/fx\n\ngo 1.19\n', 'main.go': spin });
    debug = await openDebugResource({ stopWaitMs: 2_000 });
    const call = caller(dir, () => debug!);
    expect((await call({ op: 'launch', program: '.' })).output).toMatch(/with delve: running$/);
    expect((await call({ op: 'pause' })).output).toMatch(/^stopped \(pause\)/);
    const adapterPid = (await debug.current())!.pid;
    const debuggee = Number(spawnSync('pgrep', ['-P', String(adapterPid)], { encoding: 'utf8' }).stdout.trim());
    expect(debuggee).toBeGreaterThan(0);
    expect(readdirSync(dir).sort()).toEqual(['go.mod', 'main.go']);
    const waiting = call({ op: 'continue' });
    // The continue is accepted when delve answers it, later on a loaded machine: wait for that.
    let status = (await call({ op: 'status' })).metadata;
    for (let i = 0; i < 100 && status?.state !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call({ op: 'status' })).metadata;
    }
    expect(status).toMatchObject({ running: true, state: 'running' });
    const stack = await call({ op: 'stack' });
    expect(stack.output).toBe(
      "DEBUG_ARGS: stack needs 'thread_id' when the program is not stopped (it is running: pause it first)",
    );
    process.kill(adapterPid, 'SIGKILL');
    const r = await waiting;
    expect([r.exitCode, r.output]).toEqual([
      1,
      'DEBUG_ADAPTER: continue: the debug adapter (delve) ended unexpectedly (signal SIGKILL) before the program stopped or ended; the session is over and its processes were killed, launch again',
    ]);
    expect(await aliveAfter([debuggee], 2_000)).toEqual([]);
  }, 120_000);
});

const GO_DEEP = `package main

import "fmt"

func rec(n int) int {
\tif n == 0 {
\t\treturn 0
\t}
\treturn rec(n-1) + 1
}

func main() {
\tfmt.Println(rec(40))
}
`;

describe.skipIf(!GO)('debug stack on delve', () => {
  it('DBG-11: a stack deeper than 30 frames shows 30 and counts the rest, not delve’s paging hint', async () => {
    dir = project({ 'go.mod': 'module example.com/fx\n\ngo 1.19\n', 'main.go': GO_DEEP });
    debug = await openDebugResource({ stopWaitMs: 60_000 });
    const call = caller(dir, () => debug!);
    await call({ op: 'breakpoints', file: 'main.go', lines: [7] });
    expect((await call({ op: 'launch', program: '.' })).output).toMatch(/stopped \(breakpoint\)/);
    const r = await call({ op: 'stack' });
    const frames = r.metadata?.frames as { name: string }[];
    const total = r.metadata?.total_frames as number;
    expect(frames).toHaveLength(30);
    // 41 calls of rec, then main.main and the runtime's few frames below it.
    expect(total).toBeGreaterThanOrEqual(43);
    expect(total).toBeLessThanOrEqual(47);
    expect(r.output).toContain(`[${total - 30} more frames not shown]`);
  }, 120_000);
});

describe.skipIf(!LLDB)('debug on lldb-dap', () => {
  it('DBG-15: lldb-dap stops a C program at a breakpoint; evaluate in the frame, step, continue, output', async () => {
    dir = project({ 'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\n', 'app.c': C_MAIN });
    expect(spawnSync('cc', ['-g', '-O0', '-o', `${dir}/app`, `${dir}/app.c`]).status).toBe(0);
    debug = await openDebugResource({ stopWaitMs: 30_000 });
    const call = caller(dir, () => debug!);
    await call({ op: 'breakpoints', file: 'app.c', lines: [5] });
    expect((await call({ op: 'launch', program: 'app' })).output).toMatch(
      /with lldb: stopped \(breakpoint\).* at add \(.*app\.c:5\)/,
    );
    const stack = (await call({ op: 'stack' })).metadata?.frames as { name: string; line: number }[];
    expect(stack.slice(0, 2).map((f) => [f.name, f.line])).toEqual([
      ['add', 5],
      ['main', 11],
    ]);
    expect((await call({ op: 'evaluate', expression: 'a * 10 + b' })).output).toBe('23');
    // An expression judged as a Python session's runs only in one.
    const named = await call({ op: 'evaluate', expression: 'a * 10 + b', adapter: 'debugpy' });
    expect(named.exitCode).not.toBe(0);
    expect(named.output).toMatch(/evaluate names adapter 'debugpy', but the session runs 'lldb'/);
    expect((await call({ op: 'step_over' })).output).toMatch(/app\.c:6\)/);
    expect((await call({ op: 'continue' })).output).toMatch(/the program ended with exit code 0/);
    expect((await call({ op: 'output' })).output).toContain('start\nresult 5\n');
  }, 60_000);
});
