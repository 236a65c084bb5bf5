// debugpy and the project's own interpreter: a virtual environment in `.venv` (or `venv`) whose
// Python can import debugpy runs the adapter and the program, ahead of the system's Python; one
// that cannot is passed over. Whether it can is judged from the environment's files, never by
// running the project's interpreter (which the workspace, or the model, may have replaced with
// anything). The environments here are real (`python3 -m venv`); their `bin/python3` is a small
// wrapper that leaves a mark and runs the environment's own Python, so the test sees what ran.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DebugResource, listAdapters, openDebugResource } from '../src/debug.js';
import { debugpyCandidates } from '../src/debug/adapters.js';
import { caller, project } from './debug-support.js';

const DEBUGPY = spawnSync('/usr/bin/python3', ['-c', 'import debugpy']).status === 0;
const VENV = spawnSync('/usr/bin/python3', ['-c', 'import venv']).status === 0;
const APP = 'print("hello from the app", flush=True)\n';

/**
 * A virtual environment at `<dir>/<name>` made by /usr/bin/python3 (seeing the system's packages,
 * and so debugpy, when `system`), whose `bin/python3` notes each start in `<dir>/<name>.log`.
 */
function venv(dir: string, name: string, system: boolean): string {
  const env = join(dir, name);
  const made = spawnSync('/usr/bin/python3', [
    '-m',
    'venv',
    '--without-pip',
    ...(system ? ['--system-site-packages'] : []),
    env,
  ]);
  if (made.status !== 0) throw new Error(`venv: ${made.stderr}`);
  const py = join(env, 'bin', 'python3');
  renameSync(py, join(env, 'bin', 'python3-real'));
  writeFileSync(
    py,
    `#!/bin/sh\necho "$*" >> '${join(dir, `${name}.log`)}'\nexec '${join(env, 'bin', 'python3-real')}' "$@"\n`,
  );
  chmodSync(py, 0o755);
  return py;
}

let debug: DebugResource;
let dir: string;
beforeEach(async () => {
  debug = await openDebugResource({ stopWaitMs: 20_000 });
});
afterEach(async () => {
  await debug.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!DEBUGPY || !VENV)('debugpy and the project interpreter', () => {
  it('DBG-16: a .venv whose Python imports debugpy runs the adapter and the program, not the system Python', async () => {
    dir = project({ 'requirements.txt': '', 'app.py': APP });
    const venvPython = venv(dir, '.venv', true);
    expect(debugpyCandidates(dir)[0]).toBe(venvPython);
    const call = caller(dir, () => debug);
    expect((await call({ op: 'launch', program: 'app.py' })).output).toMatch(/the program ended/);
    expect((await call({ op: 'output' })).output).toContain('hello from the app');
    // It ran for the adapter (and the program), never to be asked whether it imports debugpy.
    const starts = readFileSync(join(dir, '.venv.log'), 'utf8');
    expect(starts).toContain('debugpy.adapter');
    expect(starts).not.toContain('import debugpy');
  });

  it('DBG-16: venv/bin is used too; an environment that cannot import debugpy is passed over without running it', async () => {
    dir = project({ 'requirements.txt': '', 'app.py': APP });
    venv(dir, '.venv', false);
    venv(dir, 'venv', true);
    const call = caller(dir, () => debug);
    expect((await call({ op: 'launch', program: 'app.py' })).output).toMatch(/the program ended/);
    expect(readFileSync(join(dir, 'venv.log'), 'utf8')).toContain('debugpy');
    expect(existsSync(join(dir, '.venv.log'))).toBe(false);
  });
});

describe('the project interpreter is never run to find an adapter', () => {
  it('a .venv/bin/python3 that is no virtual environment, or one without debugpy, does not run when adapters are listed', () => {
    dir = project({ 'requirements.txt': '', '.env': 'SECRET=1\n' });
    const bin = join(dir, '.venv', 'bin');
    mkdirSync(bin, { recursive: true });
    const mark = join(dir, 'ran');
    writeFileSync(join(bin, 'python3'), `#!/bin/sh\ncat '${join(dir, '.env')}' > '${mark}'\nexit 0\n`);
    chmodSync(join(bin, 'python3'), 0o755);
    const first = listAdapters(dir).find((a) => a.id === 'debugpy');
    expect(existsSync(mark)).toBe(false);
    expect(first?.command).not.toBe(join(bin, 'python3'));
    // A pyvenv.cfg alone, with no debugpy beside it and no base Python that has it: still not run.
    writeFileSync(join(dir, '.venv', 'pyvenv.cfg'), `home = ${bin}\ninclude-system-site-packages = true\n`);
    const second = listAdapters(dir).find((a) => a.id === 'debugpy');
    expect(existsSync(mark)).toBe(false);
    expect(second?.command).not.toBe(join(bin, 'python3'));
  });
});
