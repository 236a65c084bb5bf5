/**
 * The descendants of a process, read from `/proc` (Linux). A kernel or adapter we start leads its
 * own process group, but a child it starts may leave the group (`setsid`, `start_new_session`,
 * `detached: true`); killing the group alone would leave such a child running after the session
 * closed, so the tree is collected first and each member killed too.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Every live descendant of `root` (children, their children, …); `[]` where `/proc` is not available. */
export function descendants(root: number): number[] {
  if (process.platform !== 'linux' || root <= 0) return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // `pid (comm) state ppid …`; comm may contain spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') continue;
    const parent = Number(ppid);
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [Number(entry)]);
    else list.push(Number(entry));
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (out.includes(child)) continue;
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Sends SIGKILL to each of `pids`, ignoring those already gone. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
