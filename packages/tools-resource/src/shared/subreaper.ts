/**
 * Keeps what a kernel or debug adapter starts under it. On Linux a process can be made a "child
 * subreaper" (`prctl(PR_SET_CHILD_SUBREAPER)`): the orphans among its descendants are reparented
 * to it instead of to init, so a process that cleared its environment, left the process group
 * and lost its parent (`env -i setsid …` after a double fork) is still in the tree under it.
 * Node cannot call `prctl`, so the command is started under a small resident Python process that
 * sets the flag, forks the command and stays, reaping the orphans it adopts. It asks for a
 * catchable signal when the host dies (`PR_SET_PDEATHSIG` with `SIGALRM`): a host killed outright
 * (`kill -9`) runs no exit hook, so the wrapper itself then kills every process below it and
 * exits. When the command exits, the wrapper kills what is left below it too and exits as the
 * command did (its exit code, or its signal raised again). Without Python, or off Linux, the
 * command runs as it is.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { executable, onPath } from './path-lookup.js';

/**
 * The resident wrapper. It sets the flag (PR_SET_CHILD_SUBREAPER is 36) and the parent-death
 * signal (PR_SET_PDEATHSIG is 1, SIGALRM 14), ends at once (killing nothing but itself) when the
 * host is already gone (the parent changed before `prctl`), forks the command in its argv, gives
 * its own standard streams and other descriptors up (so the command's pipes end when the command
 * closes them), reaps its children until the command exits, then kills what is left below it
 * (`clear`: every process whose chain of parents leads to it, stopped then killed, until none is
 * left) and exits as the command did. `SIGALRM`, `SIGTERM` and `SIGHUP` make it clear and exit.
 * The command starts with the signals Python ignores (`SIGPIPE`, `SIGXFSZ`) at their defaults.
 */
export const SUBREAPER_PYTHON = [
  'import ctypes, os, signal, sys, time',
  'host = os.getppid()',
  'me = os.getpid()',
  'def below():',
  '    up = {}',
  "    for p in os.listdir('/proc'):",
  '        if not p.isdigit(): continue',
  '        try:',
  "            with open('/proc/' + p + '/stat', 'rb') as f: s = f.read()",
  "            up[int(p)] = int(s[s.rindex(b')') + 2:].split()[1])",
  '        except (OSError, ValueError, IndexError): pass',
  '    mine = {me}',
  '    more = True',
  '    while more:',
  '        more = False',
  '        for p, q in up.items():',
  '            if q in mine and p not in mine: mine.add(p); more = True',
  '    mine.discard(me)',
  '    return mine',
  'def reap():',
  '    try:',
  '        while os.waitpid(-1, os.WNOHANG)[0] > 0: pass',
  '    except ChildProcessError: pass',
  'def clear():',
  '    for _ in range(100):',
  '        k = below()',
  '        if not k: return',
  '        for sig in (signal.SIGSTOP, signal.SIGKILL):',
  '            for p in k:',
  '                try: os.kill(p, sig)',
  '                except OSError: pass',
  '        reap()',
  '        time.sleep(0.01)',
  'def doom(signum=0, frame=None):',
  '    clear()',
  '    if signum in (signal.SIGTERM, signal.SIGHUP):',
  '        signal.signal(signum, signal.SIG_DFL); os.kill(me, signum)',
  '    os._exit(1)',
  'for s in (signal.SIGALRM, signal.SIGTERM, signal.SIGHUP): signal.signal(s, doom)',
  'try: libc = ctypes.CDLL(None, use_errno=True); libc.prctl(36, 1, 0, 0, 0); libc.prctl(1, 14, 0, 0, 0)',
  'except Exception: pass',
  'if os.getppid() != host: os._exit(1)',
  'kid = os.fork()',
  'if kid == 0:',
  '    for s in (signal.SIGALRM, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGXFSZ): signal.signal(s, signal.SIG_DFL)',
  '    try: os.execv(sys.argv[1], sys.argv[1:])',
  "    except OSError as e: os.write(2, ('cannot run %s: %s\\n' % (sys.argv[1], e)).encode())",
  '    os._exit(127)',
  'null = os.open(os.devnull, os.O_RDWR)',
  'for fd in (0, 1, 2): os.dup2(null, fd)',
  'os.closerange(3, 4096)',
  'status = 0',
  'while True:',
  '    try: pid, st = os.waitpid(-1, 0)',
  '    except ChildProcessError: break',
  '    if pid == kid: status = st; break',
  'clear()',
  'if os.WIFSIGNALED(status):',
  '    sig = os.WTERMSIG(status)',
  '    try:',
  '        import resource; resource.setrlimit(resource.RLIMIT_CORE, (0, 0))',
  '        signal.signal(sig, signal.SIG_DFL)',
  '    except Exception: pass',
  '    os.kill(me, sig)',
  '    os._exit(128 + sig)',
  'os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)',
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
