// debug on debugpy with a real Python program; the supervisor's rules (one session, TTL) too.
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DebugResource, debugTool, debugToolPack, DEBUG_RESOURCE, openDebugResource } from '../src/debug.js';
import { alive, aliveAfter, caller, errorCode, project } from './debug-support.js';

const DEBUGPY = spawnSync('/usr/bin/python3', ['-c', 'import debugpy']).status === 0;

const APP = `import os

def add(a, b):
    total = a + b
    return total

items = list(range(120))
long_text = "x" * 1000
print("start", flush=True)
r = add(2, 3)
print("result", r, flush=True)
`;

let dir: string;
let debug: DebugResource;
let now: number;
let call: ReturnType<typeof caller>;

beforeEach(async () => {
  dir = project({ 'requirements.txt': '', 'app.py': APP });
  now = 1_000_000;
  debug = await openDebugResource({ clock: () => now, stopWaitMs: 20_000 });
  call = caller(dir, () => debug);
});
afterEach(async () => {
  await debug.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('debug pack', () => {
  it('DBG-03: debug is in the exec tier and not parallel-safe; DBG-01: it requires the debug supervisor', () => {
    expect(debugToolPack.tools.map((t) => [t.name, t.tier])).toEqual([['debug', 'exec']]);
    expect(debugTool.capabilities).toMatchObject({ readOnly: false, maxParallelism: 1 });
    expect(debugTool.requires).toEqual(['exec', DEBUG_RESOURCE]);
  });

  it('DBG-06: adapters names each unavailable adapter with its reason (marker, then binary)', async () => {
    const r = await call({ op: 'adapters' });
    const list = r.metadata?.adapters as { id: string; available: boolean; reason?: string }[];
    expect(list.map((a) => a.id)).toEqual(['dart', 'debugpy', 'lldb', 'delve']);
    expect(list.find((a) => a.id === 'delve')?.reason).toMatch(/no root marker .*go\.mod/);
    const path = process.env.PATH;
    const goDir = project({ 'go.mod': 'module x\n' });
    try {
      process.env.PATH = '/nonexistent';
      const r2 = await caller(goDir, () => debug)({ op: 'adapters' });
      const delve = (r2.metadata!.adapters as { id: string; reason?: string }[]).find((a) => a.id === 'delve');
      expect(delve?.reason).toBe('binary not found: needs `dlv` on PATH');
    } finally {
      process.env.PATH = path;
      rmSync(goDir, { recursive: true, force: true });
    }
  });

  it('DBG-02: launch without the root marker starts nothing and says why', async () => {
    rmSync(`${dir}/requirements.txt`);
    const r = await call({ op: 'launch', program: 'app.py' });
    expect(errorCode(r)).toBe('DEBUG_ADAPTER');
    expect(r.output).toMatch(/no root marker/);
    expect((await call({ op: 'status' })).metadata?.running).toBe(false);
  });
});

describe.skipIf(!DEBUGPY)('debug on debugpy', () => {
  it('DBG-07, DBG-08: breakpoints set before launch stop the program; DBG-11: stack; DBG-13: evaluate in the frame', async () => {
    expect((await call({ op: 'breakpoints', file: 'app.py', lines: [4] })).exitCode).toBe(0);
    const launched = await call({ op: 'launch', program: 'app.py' });
    expect(launched.output).toMatch(/stopped \(breakpoint\).* at add \(.*app\.py:4\)/);
    const stack = await call({ op: 'stack' });
    const frames = stack.metadata?.frames as { id: number; name: string; line: number }[];
    expect(frames.map((f) => [f.name, f.line])).toEqual([
      ['add', 4],
      ['<module>', 10],
    ]);
    expect((await call({ op: 'evaluate', expression: 'a * 10 + b' })).output).toBe('23');
    expect((await call({ op: 'evaluate', expression: 'len(items)', frame_id: frames[1]!.id })).output).toBe('120');
  });

  it('DBG-10, DBG-12: scopes carry references; variables returns at most 50 children with values cut at 400 chars', async () => {
    await call({ op: 'breakpoints', file: 'app.py', lines: [4] });
    await call({ op: 'launch', program: 'app.py' });
    const frames = (await call({ op: 'stack' })).metadata?.frames as { id: number }[];
    const scopes = (await call({ op: 'scopes', frame_id: frames[1]!.id })).metadata?.scopes as {
      name: string;
      reference: number;
    }[];
    const globals = scopes.find((s) => /global/i.test(s.name))!;
    const vars = (await call({ op: 'variables', reference: globals.reference })).metadata?.variables as {
      name: string;
      value: string;
      reference: number | null;
    }[];
    const text = vars.find((v) => v.name === 'long_text')!;
    expect(text.value.length).toBeLessThanOrEqual(401);
    const items = vars.find((v) => v.name === 'items')!;
    const children = await call({ op: 'variables', reference: items.reference });
    expect((children.metadata!.variables as unknown[]).length).toBe(50);
    expect(children.metadata?.truncated).toBe(true);
    const threads = await call({ op: 'threads' });
    expect((threads.metadata!.threads as unknown[]).length).toBeGreaterThan(0);
  });

  it('DBG-09: step_over moves one line, continue runs to the end; DBG-14: output holds the program output', async () => {
    await call({ op: 'breakpoints', file: 'app.py', lines: [4] });
    await call({ op: 'launch', program: 'app.py' });
    expect((await call({ op: 'step_over' })).output).toMatch(/stopped \(step\).*app\.py:5\)/);
    expect((await call({ op: 'continue' })).output).toMatch(/the program ended/);
    expect((await call({ op: 'output' })).output).toContain('start\nresult 5\n');
  });

  it('DBG-05: a second launch is rejected naming the running session; DBG-14: terminate leaves no process', async () => {
    await call({ op: 'breakpoints', file: 'app.py', lines: [4] });
    await call({ op: 'launch', program: 'app.py' });
    const pid = Number((await call({ op: 'evaluate', expression: 'os.getpid()' })).output);
    expect(alive(pid)).toBe(true);
    const adapterPid = (await debug.current())!.pid;
    expect(alive(adapterPid)).toBe(true);
    const second = await call({ op: 'launch', program: 'app.py' });
    expect(errorCode(second)).toBe('DEBUG_SESSION_EXISTS');
    expect(second.output).toContain('app.py');
    expect((await call({ op: 'terminate' })).metadata?.ended).toBe(true);
    expect(await aliveAfter([pid, adapterPid], 5000)).toEqual([]);
    expect((await call({ op: 'stack' })).output).toMatch(/DEBUG_NO_SESSION/);
  });

  it('DBG-04: a session past its 30-minute TTL is ended and its processes killed', async () => {
    await call({ op: 'breakpoints', file: 'app.py', lines: [4] });
    await call({ op: 'launch', program: 'app.py' });
    const pid = Number((await call({ op: 'evaluate', expression: 'os.getpid()' })).output);
    now += 29 * 60_000;
    expect((await call({ op: 'status' })).metadata?.running).toBe(true);
    now += 60_000;
    expect((await call({ op: 'status' })).metadata?.running).toBe(false);
    expect(await aliveAfter([pid], 5000)).toEqual([]);
  });

  it('DBG-14: terminate also kills what the debuggee started outside its process group (setsid, double fork, env -i)', async () => {
    writeFileSync(
      join(dir, 'forks.py'),
      [
        'import os, subprocess, time',
        "a = subprocess.Popen(['setsid', 'sleep', '310']).pid",
        "b = subprocess.Popen(['sh', '-c', '(setsid sleep 311 & echo $! > b.pid)']).wait()",
        "c = subprocess.Popen(['sh', '-c', '(env -i setsid sleep 312 & echo $! > c.pid)']).wait()",
        'time.sleep(0.2)',
        "b = int(open('b.pid').read())",
        "c = int(open('c.pid').read())",
        'print("pids", a, b, c, flush=True)',
        'while True: time.sleep(0.05)',
      ].join('\n'),
    );
    // A debuggee that never stops: launch waits stopWaitMs for a stop, so keep that short here.
    await debug.close();
    debug = await openDebugResource({ stopWaitMs: 300 });
    const launched = await call({ op: 'launch', program: 'forks.py' });
    expect(launched.exitCode).toBe(0);
    let pids: number[] = [];
    for (let i = 0; i < 100 && pids.length === 0; i++) {
      const m = /pids (\d+) (\d+) (\d+)/.exec((await call({ op: 'output' })).output);
      if (m) pids = [Number(m[1]), Number(m[2]), Number(m[3])];
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(pids).toHaveLength(3);
    expect(await aliveAfter(pids, 0)).toEqual(pids);
    expect((await call({ op: 'terminate' })).metadata?.ended).toBe(true);
    expect(await aliveAfter(pids, 5000)).toEqual([]);
  });

  it('DBG-04: a debuggee that never stops is ended at the TTL even when no call comes', async () => {
    writeFileSync(
      join(dir, 'loop.py'),
      'import os, time\nprint("pid", os.getpid(), flush=True)\nwhile True: time.sleep(0.05)\n',
    );
    const short = await openDebugResource({ ttlMs: 1500, stopWaitMs: 300 });
    try {
      const s = await short.launch(dir, 'loop.py', []);
      let pid = 0;
      for (let i = 0; i < 100 && pid === 0; i++) {
        pid = Number(/pid (\d+)/.exec(s.output().text)?.[1] ?? 0);
        if (pid === 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(pid).toBeGreaterThan(0);
      expect(await aliveAfter([pid, s.pid], 8000)).toEqual([]);
      expect(short.ttlLeft()).toBeUndefined();
    } finally {
      await short.close();
    }
  });

  it('the adapter and the debuggee see the project folder as PWD, not the folder the host was started from', async () => {
    writeFileSync(
      join(dir, 'pwd.py'),
      'import os\nprint("PWD=" + os.environ.get("PWD", "?") + "|CWD=" + os.getcwd(), flush=True)\n',
    );
    const r = await call({ op: 'launch', program: 'pwd.py' });
    expect(r.output).toMatch(/the program ended/);
    const real = realpathSync(dir);
    expect(process.cwd()).not.toBe(real);
    expect((await call({ op: 'output' })).output).toContain(`PWD=${dir}|CWD=${real}`);
  });

  it('DBG-08: a launch with no breakpoint set returns running after a short settle, not the whole stop wait; wait, pause and status follow', async () => {
    writeFileSync(join(dir, 'loop.py'), 'import time\nprint("up", flush=True)\nwhile True: time.sleep(0.05)\n');
    writeFileSync(join(dir, 'late.py'), 'import time\ntime.sleep(1.5)\nprint("bye", flush=True)\n');
    const t0 = Date.now();
    const launched = await call({ op: 'launch', program: 'loop.py' });
    expect(Date.now() - t0).toBeLessThan(12_000);
    expect([launched.output, launched.metadata?.state]).toEqual([expect.stringMatching(/: running$/), 'running']);
    const short = await openDebugResource({ stopWaitMs: 500 });
    try {
      const waited = await caller(
        dir,
        () => short,
      )({ op: 'launch', program: 'loop.py' }).then(() => caller(dir, () => short)({ op: 'wait' }));
      expect([waited.exitCode, waited.metadata?.state]).toEqual([0, 'running']);
      expect(waited.output).toMatch(/no stop and no end within 500 ms/);
    } finally {
      await short.close();
    }
    expect((await call({ op: 'pause' })).metadata?.state).toBe('stopped');
    expect((await call({ op: 'status' })).output).toMatch(/stopped/);
    await call({ op: 'terminate' });
    const fast = await openDebugResource({ settleMs: 100 });
    try {
      const run = caller(dir, () => fast);
      expect((await run({ op: 'launch', program: 'late.py' })).metadata?.state).toBe('running');
      expect((await run({ op: 'wait' })).output).toMatch(/the program ended with exit code 0/);
    } finally {
      await fast.close();
    }
  });

  it('DBG-08: wait_ms bounds how long launch, continue and wait wait for a stop; a program still going is running, not an error', async () => {
    writeFileSync(
      join(dir, 'serve.py'),
      'import time\ndef handler():\n    return 1\nwhile True:\n    time.sleep(0.05)\n',
    );
    await call({ op: 'breakpoints', file: 'serve.py', lines: [3] });
    const t0 = Date.now();
    const launched = await call({ op: 'launch', program: 'serve.py', wait_ms: 300 });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect([launched.exitCode, launched.metadata?.state], launched.output).toEqual([0, 'running']);
    const waited = await call({ op: 'wait', wait_ms: 200 });
    expect([waited.exitCode, waited.output]).toEqual([0, expect.stringMatching(/no stop and no end within 200 ms/)]);
    expect((await call({ op: 'pause' })).metadata?.state).toBe('stopped');
    const t1 = Date.now();
    const continued = await call({ op: 'continue', wait_ms: 250 });
    expect(Date.now() - t1).toBeLessThan(5_000);
    expect([continued.exitCode, continued.metadata?.state]).toEqual([0, 'running']);
    expect(continued.output).toMatch(/no stop and no end within 250 ms/);
    await expect(call({ op: 'wait', wait_ms: 120_001 })).rejects.toThrow(/wait_ms: Too big/);
  });

  it('DBG-07: an empty lines[] clears the file, so launch runs to the end', async () => {
    await call({ op: 'breakpoints', file: 'app.py', lines: [4] });
    await call({ op: 'breakpoints', file: 'app.py', lines: [] });
    expect((await call({ op: 'launch', program: 'app.py' })).output).toMatch(/the program ended/);
  });
});

describe.skipIf(!DEBUGPY)('debug when the adapter dies', () => {
  it('status says the adapter ended unexpectedly (and how), not that the program ended; a normal end says nothing of the kind', async () => {
    await call({ op: 'breakpoints', file: 'app.py', lines: [4] });
    expect((await call({ op: 'launch', program: 'app.py' })).output).toMatch(/stopped \(breakpoint\)/);
    const session = (await debug.current())!;
    process.kill(session.adapterPid!, 'SIGKILL');
    for (let i = 0; i < 200 && session.alive; i++) await new Promise((r) => setTimeout(r, 25));
    const status = await call({ op: 'status' });
    expect(status.output).toMatch(
      /the debug adapter \(debugpy\) ended unexpectedly \(signal SIGKILL\) before the program did/,
    );
    expect(status.metadata).toMatchObject({ running: false, state: 'adapter_died', adapter_exit: 'signal SIGKILL' });
    const stack = await call({ op: 'stack' });
    expect(errorCode(stack)).toBe('DEBUG_NO_SESSION');
    expect(stack.output).toMatch(/debug adapter \(debugpy\) ended unexpectedly \(signal SIGKILL\)/);
    await call({ op: 'terminate' });
    expect((await call({ op: 'launch', program: 'app.py' })).output).toMatch(/stopped \(breakpoint\)/);
    await call({ op: 'continue' });
    const ended = await call({ op: 'status' });
    expect(ended.output).not.toMatch(/unexpectedly/);
  });
});
