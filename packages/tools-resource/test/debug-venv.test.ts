// debugpy and the project's own interpreter: a `.venv/bin/python3` (or `venv/bin/python3`) that can
// import debugpy runs the adapter and the program, ahead of the system's Python; one that cannot
// import it is passed over. The interpreters here are small wrappers around /usr/bin/python3 that
// leave a mark, so the test sees which one ran.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DebugResource, openDebugResource } from '../src/debug.js';
import { debugpyCandidates } from '../src/debug/adapters.js';
import { caller, project } from './debug-support.js';

const DEBUGPY = spawnSync('/usr/bin/python3', ['-c', 'import debugpy']).status === 0;
const APP = 'print("hello from the app", flush=True)\n';

/** A `python3` in `<dir>/<venv>/bin` that notes each start in `<dir>/<venv>.log`, then runs `real`. */
function wrapper(dir: string, venv: string, real: string): string {
  const bin = join(dir, venv, 'bin');
  mkdirSync(bin, { recursive: true });
  const path = join(bin, 'python3');
  writeFileSync(path, `#!/bin/sh\necho "$*" >> '${join(dir, `${venv}.log`)}'\nexec ${real} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
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

describe.skipIf(!DEBUGPY)('debugpy and the project interpreter', () => {
  it('DBG-16: a .venv/bin interpreter that imports debugpy runs the adapter and the program, not the system Python', async () => {
    dir = project({ 'requirements.txt': '', 'app.py': APP });
    const venvPython = wrapper(dir, '.venv', '/usr/bin/python3');
    expect(debugpyCandidates(dir)[0]).toBe(venvPython);
    const call = caller(dir, () => debug);
    expect((await call({ op: 'launch', program: 'app.py' })).output).toMatch(/the program ended/);
    expect((await call({ op: 'output' })).output).toContain('hello from the app');
    const starts = readFileSync(join(dir, '.venv.log'), 'utf8');
    expect(starts).toContain('debugpy');
  });

  it('DBG-16: venv/bin is used too; an interpreter that cannot import debugpy is passed over', async () => {
    dir = project({ 'requirements.txt': '', 'app.py': APP });
    // .venv's python3 has no debugpy (it runs Python with -I -S and a path without it).
    const bare = join(dir, 'no-debugpy.sh');
    writeFileSync(bare, '#!/bin/sh\nexec /usr/bin/python3 -I -S "$@"\n');
    chmodSync(bare, 0o755);
    wrapper(dir, '.venv', bare);
    wrapper(dir, 'venv', '/usr/bin/python3');
    const call = caller(dir, () => debug);
    expect((await call({ op: 'launch', program: 'app.py' })).output).toMatch(/the program ended/);
    expect(readFileSync(join(dir, 'venv.log'), 'utf8')).toContain('debugpy');
    // .venv was asked (it could not import debugpy) and then not used again.
    expect(readFileSync(join(dir, '.venv.log'), 'utf8').trim().split('\n')).toEqual(['-c import debugpy']);
    expect(existsSync(join(dir, 'venv.log'))).toBe(true);
  });
});
