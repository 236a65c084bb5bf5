/**
 * What `debug` may point a debugger at: a program inside the workspace (after `..` and symbolic
 * links are resolved), and a running process that works inside the workspace and is neither the
 * host process nor one of its parents (attaching there would let the model run code inside the
 * runtime that holds its keys and its permission policy). A process is judged from Linux `/proc`:
 * its working folder (`/proc/PID/cwd`) and the host's parent chain (`/proc/PID/stat`); a port by
 * the process that listens on it. Where that cannot be read, the attach is refused.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { DebugToolError } from './debug-errors.js';

const ALLOWED = 'debug attaches only to a program running inside the workspace, never to the host or its parents';

const refuse = (message: string, details: Record<string, unknown> = {}) =>
  new DebugToolError('DEBUG_TARGET', message, details);

/** True when the real path `path` is the folder `root` or inside it. */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The real path of the workspace root, or a refusal when it is not a local folder. */
export function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    throw refuse(`the workspace root ${root} is not a local folder, so debug cannot tell what lies inside it`);
  }
}

/**
 * The real path of `program` (relative to `root`, or absolute): it must exist and lie inside the
 * workspace once `..` and symbolic links are resolved.
 */
export function confineProgram(root: string, program: string): string {
  const top = realRoot(root);
  const abs = isAbsolute(program) ? program : resolvePath(root, program);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new DebugToolError('DEBUG_ARGS', `the program ${program} does not exist`, { program });
  }
  if (!within(top, real))
    throw refuse(`launch runs programs inside the workspace (${top}); ${program} resolves to ${real}, outside it`, {
      program,
      resolved: real,
    });
  return real;
}

/** Reads `/proc` (or a stand-in folder, for tests). */
export interface ProcView {
  /** The folder holding the process entries (default `/proc`). */
  readonly root: string;
}

const statFields = (proc: string, pid: number): string[] | undefined => {
  try {
    const text = readFileSync(join(proc, String(pid), 'stat'), 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
};

/** The host process and its parents, up to pid 1 (`undefined` when `/proc` cannot tell). */
function hostChain(proc: string): Set<number> | undefined {
  const chain = new Set<number>();
  let pid = process.pid;
  while (pid > 0 && !chain.has(pid)) {
    chain.add(pid);
    const fields = statFields(proc, pid);
    if (fields === undefined) return pid === process.pid ? undefined : chain;
    pid = Number(fields[1]);
  }
  return chain;
}

/** The process a thread id belongs to (`/proc/PID/status` `Tgid`), or `undefined`. */
function processOf(proc: string, pid: number): number | undefined {
  try {
    const m = /^Tgid:\s*(\d+)/m.exec(readFileSync(join(proc, String(pid), 'status'), 'latin1'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

const unknowable = (what: string) =>
  refuse(`cannot tell ${what} (this runtime has no readable /proc), so the attach is refused; ${ALLOWED}`);

/**
 * The host's pid of the process the model names as `pid`: the workspace's commands may run in a
 * process namespace of their own, whose pids are the ones the model knows (`hostPid` translates).
 * Refused when none of the commands' processes has it.
 */
export function hostPidOf(pid: number, hostPid?: (pid: number) => number | undefined): number {
  const host = hostPid === undefined ? pid : hostPid(pid);
  if (host === undefined)
    throw refuse(
      `there is no process ${pid} among the workspace's commands' processes (the pids bash's ps shows); attach to one of them, or by port`,
      { op: 'attach', pid },
    );
  return host;
}

/**
 * Refuses an attach to process `pid` unless it works inside the workspace `root` and is not the
 * host process, one of its threads, or one of its parents.
 */
export function checkAttachPid(root: string, pid: number, view: ProcView = { root: '/proc' }): void {
  const proc = view.root;
  if (!existsSync(join(proc, 'self', 'stat'))) throw unknowable(`where process ${pid} runs`);
  const owner = processOf(proc, pid);
  if (owner === undefined) throw refuse(`there is no process ${pid} this runtime can see`, { pid });
  const chain = hostChain(proc);
  if (chain === undefined) throw unknowable('which processes are the host');
  if (chain.has(owner))
    throw refuse(
      `process ${pid} is ${owner === process.pid ? 'the A3S host process itself' : 'a parent of the A3S host process (its shell, runner or service manager)'}; ${ALLOWED}`,
      { pid },
    );
  let cwd: string;
  try {
    cwd = realpathSync(readlinkSync(join(proc, String(owner), 'cwd')));
  } catch {
    throw refuse(`cannot read where process ${pid} works (another user's process, or one that is gone); ${ALLOWED}`, {
      pid,
    });
  }
  const top = realRoot(root);
  if (!within(top, cwd))
    throw refuse(
      `process ${pid} works in ${cwd}, outside the workspace (${top}); attach to a process whose working folder is inside the workspace`,
      { pid, cwd },
    );
}

/** The socket inodes listening on TCP `port` (IPv4 and IPv6), or `undefined` without `/proc/net`. */
function listeningInodes(proc: string, port: number): Set<string> | undefined {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  let read = false;
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(join(proc, 'net', table), 'latin1');
    } catch {
      continue;
    }
    read = true;
    for (const row of text.split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      if (cols[1]?.endsWith(hex) === true && cols[3] === '0A' && cols[9] !== undefined) inodes.add(cols[9]);
    }
  }
  return read ? inodes : undefined;
}

/** Every process holding one of the sockets `inodes` open (a listening socket can be inherited). */
function holdersOf(proc: string, inodes: ReadonlySet<string>): number[] {
  const wanted = new Set([...inodes].map((i) => `socket:[${i}]`));
  const holders: number[] = [];
  for (const name of readdirSync(proc)) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try {
      fds = readdirSync(join(proc, name, 'fd'));
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (wanted.has(readlinkSync(join(proc, name, 'fd', fd)))) {
          holders.push(Number(name));
          break;
        }
      } catch {
        // the descriptor closed meanwhile
      }
    }
  }
  return holders;
}

/**
 * Refuses an attach to loopback `port` unless the process listening there passes
 * {@link checkAttachPid}: a port is only as trustworthy as the process behind it.
 */
export function checkAttachPort(root: string, port: number, view: ProcView = { root: '/proc' }): void {
  const proc = view.root;
  if (!existsSync(join(proc, 'self', 'stat'))) throw unknowable(`which process listens on port ${port}`);
  const inodes = listeningInodes(proc, port);
  if (inodes === undefined) throw unknowable(`which process listens on port ${port}`);
  if (inodes.size === 0)
    throw refuse(`nothing listens on port ${port}; start the debuggee listening there first`, { port });
  const holders = holdersOf(proc, inodes);
  if (holders.length === 0)
    throw refuse(`cannot tell which process listens on port ${port} (another user's?); ${ALLOWED}`, { port });
  for (const holder of holders)
    try {
      checkAttachPid(root, holder, view);
    } catch (error) {
      if (error instanceof DebugToolError)
        throw refuse(`port ${port} belongs to process ${holder}: ${error.message}`, { port, pid: holder });
      throw error;
    }
}
