// eval against cells that fight their kernel: stdin reads, escaping children, concurrent calls.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EvalResource, openEvalResource } from '../src/eval.js';
import { aliveAfter } from './debug-support.js';

let dir: string;
let kernels: EvalResource;
const cell = { bridge: async () => ({ ok: true, output: '' }) };

/** `pid` and its parents, up to init: the kernel's pid is in it when `pid` is in the kernel's tree. */
function ancestry(pid: number): number[] {
  const chain = [pid];
  for (let p = pid; p > 1; chain.push(p)) {
    const parent = Number(readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
    if (!(parent > 0)) break;
    p = parent;
  }
  return chain;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-hostile-'));
  kernels = await openEvalResource({ inactivityMs: 30_000 });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('eval: hostile cells', () => {
  it('input() fails at once instead of waiting out the budget, and closing sys.stdin does not break the kernel', async () => {
    const r = await kernels.run('python', 'x = 41\ninput()', dir, cell);
    expect(r.ok).toBe(false);
    expect(r.error).toContain('EOFError: eval cells have no standard input');
    const closed = await kernels.run(
      'python',
      'import sys, subprocess\nsys.stdin.close()\nsubprocess.run(["cat"]).returncode',
      dir,
      cell,
    );
    expect(closed.echo).toBe('0');
    expect((await kernels.run('python', 'x + 1', dir, cell)).echo).toBe('42');
  });

  it('the kernels see their own folder as PWD, not the folder the host was started from', async () => {
    const py = await kernels.run('python', "import os\n(os.environ['PWD'], os.getcwd())", dir, cell);
    expect(py.echo).toBe(`('${dir}', '${dir}')`);
    const js = await kernels.run('javascript', '[process.env.PWD, process.cwd()].join()', dir, cell);
    expect(js.echo).toBe(`'${dir},${dir}'`);
  });

  it('the kernels never see the model-provider credentials of the host', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-eval-0000';
    try {
      const py = await kernels.run('python', "import os\nos.environ.get('OPENAI_API_KEY', 'unset')", dir, cell);
      expect(py.echo).toBe("'unset'");
      const js = await kernels.run('javascript', "process.env.OPENAI_API_KEY ?? 'unset'", dir, cell);
      expect(js.echo).toContain('unset');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('children that left the kernel group (setsid, detached, daemonized) die when the session closes', async () => {
    const py = await kernels.run(
      'python',
      [
        'import os, subprocess, time',
        "a = subprocess.Popen(['sleep', '300'], start_new_session=True).pid",
        'r, w = os.pipe()',
        'if os.fork() == 0:',
        '    os.setsid()',
        '    if os.fork() == 0:',
        "        p = subprocess.Popen(['sleep', '301']); os.write(w, str(p.pid).encode()); time.sleep(300)",
        '    os._exit(0)',
        'b = int(os.read(r, 32))',
        '[a, b]',
      ].join('\n'),
      dir,
      cell,
    );
    const js = await kernels.run(
      'javascript',
      "require('node:child_process').spawn('sleep', ['302'], { detached: true, stdio: 'ignore' }).pid",
      dir,
      cell,
    );
    const pids = [...(JSON.parse(py.echo ?? '[]') as number[]), Number(js.echo)];
    expect(pids).toHaveLength(3);
    expect(await aliveAfter(pids, 0)).toEqual(pids);
    await kernels.close();
    expect(await aliveAfter(pids, 5_000)).toEqual([]);
  });

  it('an orphan that cleared its environment and left the session (env -i setsid after a double fork) comes back to the kernel and dies on close', async () => {
    const spawnOrphan = (language: 'python' | 'javascript') =>
      kernels.run(
        language,
        language === 'javascript'
          ? [
              "const { execFileSync } = require('node:child_process');",
              "execFileSync('sh', ['-c', '(env -i setsid sleep 303 & echo $! > pid-js) ; exit'], { stdio: 'ignore' });",
              'await new Promise((r) => setTimeout(r, 100));',
              "Number(require('node:fs').readFileSync('pid-js', 'utf8'))",
            ].join('\n')
          : [
              'import subprocess, time',
              "subprocess.run(['sh', '-c', '(env -i setsid sleep 305 & echo $! > pid-py) ; exit'])",
              'time.sleep(0.1)',
              "int(open('pid-py').read())",
            ].join('\n'),
        dir,
        cell,
      );
    const pids: number[] = [];
    for (const language of ['javascript', 'python'] as const) {
      const pid = Number((await spawnOrphan(language)).echo);
      expect(pid).toBeGreaterThan(0);
      const kernel = kernels.kernels().find((k) => k.language === language)!;
      // Its parent (the shell) is gone: it was reparented into the kernel's tree (the interpreter
      // or the wrapper it runs under), not to init.
      expect(ancestry(pid), language).toContain(kernel.pid);
      // The job runs `env -i setsid sleep`: on a busy machine it may not have reached sleep yet.
      for (let i = 0; i < 100 && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(readFileSync(`/proc/${pid}/environ`, 'utf8')).not.toContain('A3S_PROCESS_TAG');
      pids.push(pid);
    }
    expect(await aliveAfter(pids, 0)).toEqual(pids);
    await kernels.close();
    expect(await aliveAfter(pids, 5_000)).toEqual([]);
  });

  it('a workspace file that shadows a Python module (ctypes.py, os.py) does not run when the JavaScript kernel starts', async () => {
    writeFileSync(join(dir, 'ctypes.py'), "open('pwned-ctypes', 'w').write('x')\n");
    writeFileSync(join(dir, 'os.py'), "open('pwned-os', 'w').write('x')\n");
    const r = await kernels.run('javascript', '1 + 1', dir, cell);
    expect(r.echo).toBe('2');
    expect(existsSync(join(dir, 'pwned-ctypes')) || existsSync(join(dir, 'pwned-os'))).toBe(false);
  });

  it('a cell that kills its own kernel fails with EVAL_KERNEL_DIED, and what it had started dies with the kernel', async () => {
    const py = kernels.run(
      'python',
      "import os, subprocess\np = subprocess.Popen(['setsid', 'sleep', '304'])\nprint(p.pid, flush=True)\nimport time; time.sleep(0.1)\nos._exit(0)",
      dir,
      cell,
    );
    const pyErr = await py.then(
      () => undefined,
      (e: { code: string; details: { output: string } }) => e,
    );
    expect(pyErr?.code).toBe('EVAL_KERNEL_DIED');
    const js = kernels.run(
      'javascript',
      "const c = require('node:child_process').spawn('setsid', ['sleep', '305'], { detached: true, stdio: 'ignore' }); c.unref(); console.log(c.pid);\nawait new Promise((r) => setTimeout(r, 100));\nprocess.exit(3)",
      dir,
      cell,
    );
    const jsErr = await js.then(
      () => undefined,
      (e: { code: string; details: { output: string } }) => e,
    );
    expect(jsErr?.code).toBe('EVAL_KERNEL_DIED');
    const pids = [Number(pyErr?.details.output), Number(jsErr?.details.output)];
    expect(pids.every((p) => p > 0)).toBe(true);
    // Not closed yet: the kernels' own deaths took their processes along.
    expect(await aliveAfter(pids, 5_000)).toEqual([]);
    expect((await kernels.run('python', '6 * 7', dir, cell)).echo).toBe('42');
  });

  it('a Python cell that forks answers once, from the kernel: the child that runs on to the end of the cell exits', async () => {
    const code =
      "import os, time\npid = os.fork()\nif pid != 0: time.sleep(0.2)\nprint('from', 'child' if pid == 0 else 'parent')\n'child' if pid == 0 else 'parent'";
    const r = await kernels.run('python', code, dir, cell);
    expect(r.echo).toBe("'parent'");
    expect(r.output).toBe('from child\nfrom parent\n');
    const kernel = kernels.kernels()[0]!.pid;
    const interpreter = Number((await kernels.run('python', 'os.getpid()', dir, cell)).echo);
    expect(ancestry(interpreter)).toContain(kernel);
    for (let i = 0; i < 3; i++)
      expect((await kernels.run('python', 'os.getpid()', dir, cell)).echo).toBe(String(interpreter));
  });

  it('a second call of a language while its cell runs fails with EVAL_BUSY and starts no second kernel', async () => {
    const calls = await Promise.allSettled([
      kernels.run('python', 'import time; time.sleep(0.5); 1', dir, cell),
      kernels.run('python', '2', dir, cell),
      kernels.run('javascript', '3', dir, cell),
    ]);
    expect(calls[0]).toMatchObject({ status: 'fulfilled', value: { echo: '1' } });
    expect(calls[1]).toMatchObject({ status: 'rejected', reason: { code: 'EVAL_BUSY' } });
    expect(calls[2]).toMatchObject({ status: 'fulfilled', value: { echo: '3' } });
    const before = kernels.kernels().map((k) => k.pid);
    expect(before).toHaveLength(2);
    await kernels.close();
    expect(await aliveAfter(before, 5_000)).toEqual([]);
  });

  it('EVAL-03: reset kills what the old kernel started, even a process that left its group and session and cleared its environment; so does closing', async () => {
    // `sh` exits at once: its `sleep`, without the tag, in a session of its own, is left only under the kernel.
    const orphan = (n: number) =>
      `import subprocess\np = subprocess.Popen(['setsid', 'sh', '-c', 'env -i setsid sleep ${n} & echo $!'], stdout=subprocess.PIPE, start_new_session=True)\nint(p.stdout.readline())`;
    const first = Number((await kernels.run('python', orphan(306), dir, cell)).echo);
    expect(await aliveAfter([first], 0)).toEqual([first]);
    expect((await kernels.run('python', '1', dir, { ...cell, reset: true })).started).toBe(true);
    expect(await aliveAfter([first], 5_000)).toEqual([]);
    const second = Number((await kernels.run('python', orphan(307), dir, cell)).echo);
    expect(await aliveAfter([second], 0)).toEqual([second]);
    await kernels.close();
    expect(await aliveAfter([second], 5_000)).toEqual([]);
  });
});
