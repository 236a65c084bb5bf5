/**
 * Keeps what a kernel or debug adapter starts under it. On Linux a process can be made a "child
 * subreaper" (`prctl(PR_SET_CHILD_SUBREAPER)`): the orphans among its descendants are reparented
 * to it instead of to init, so a process that cleared its environment, left the process group
 * and lost its parent (`env -i setsid …` after a double fork) is still in the tree under the
 * leader, and is killed with it. Node cannot call `prctl`, so the leader is started through a
 * one-line Python `exec` that sets the flag first (it survives `execve`), and the leader's
 * parent-death signal, so it dies with a host killed outright; without Python, or off Linux, the
 * command runs as it is.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { executable, onPath } from './path-lookup.js';

/**
 * Sets the flag (PR_SET_CHILD_SUBREAPER is 36) and asks to be killed when the host dies
 * (PR_SET_PDEATHSIG is 1, SIGKILL 9: a host killed outright runs no exit hook to kill the leader),
 * then becomes the command in its argv; a host gone before that (the parent changed) ends it.
 */
export const SUBREAPER_PYTHON = [
  'import ctypes, os, sys',
  'host = os.getppid()',
  'try: libc = ctypes.CDLL(None, use_errno=True); libc.prctl(36, 1, 0, 0, 0); libc.prctl(1, 9, 0, 0, 0)',
  'except Exception: pass',
  'if os.getppid() != host: os._exit(1)',
  'os.execv(sys.argv[1], sys.argv[1:])',
].join('\n');

const LINUX = process.platform === 'linux' && existsSync('/proc/self/stat');
let python: string | null | undefined;

function pythonFor(): string | undefined {
  if (python === undefined) python = (executable('/usr/bin/python3') ? '/usr/bin/python3' : onPath('python3')) ?? null;
  return python ?? undefined;
}

/**
 * `command args` started as a child subreaper when it can be (see the module comment). A command
 * that is not found is left as it is, so starting it fails as before (`ENOENT`).
 */
export function asSubreaper(command: string, args: readonly string[]): { command: string; args: string[] } {
  const py = LINUX ? pythonFor() : undefined;
  const path = isAbsolute(command) ? (executable(command) ? command : undefined) : onPath(command);
  if (py === undefined || path === undefined) return { command, args: [...args] };
  // Isolated (`-I`: no PYTHON* variables, no user site, the working folder not on `sys.path`, so a
  // workspace file named `ctypes.py` is never imported) and without `site` (`-S`, a faster start).
  return { command: py, args: ['-I', '-S', '-c', SUBREAPER_PYTHON, path, ...args] };
}
