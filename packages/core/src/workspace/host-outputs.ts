/**
 * The files inside a workspace that the host process writes its own output to: its stdout or
 * stderr redirected into the workspace (`a3s run … > run.log`), or a pipe whose reader, a sibling
 * process of the host, writes what it reads there (`a3s run … 2>&1 | tee run.log`). Such a file
 * grows while a command runs, and would otherwise count as a change the command made.
 *
 * Found by identity, not by name: the device and inode of the file the descriptor holds (for a
 * pipe, of the files its reader holds open for writing), and the path it is at when found. Linux
 * only (`/proc`): elsewhere none is found. A pipe's reader is looked for among the host's sibling
 * processes (a shell pipeline's commands are children of the shell; at most 256 of them): one
 * elsewhere is not found, and the file then counts as changed, as before.
 *
 * A file found is left out of the change snapshots of commands only while {@link isHostOutputNow}:
 * the path still holds that very file, and it holds no more bytes than its writers' file
 * positions reach. So a command that removes, replaces or moves the file, or writes past what the
 * host (or its reader) wrote, still changes it. What such a check cannot see: a command that
 * rewrites bytes the host already wrote without making the file longer, or that appends to a file
 * the host writes in append mode (`>>`, `tee -a`) just before the host writes again (the host's
 * position then jumps past those bytes). This is accepted: the file is the host's transcript,
 * written all along by the host itself, no input of the workspace's code; a command that wants it
 * as one must copy, move or link it to another path, which is named as usual.
 */
import { fstatSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

/** A file inside the workspace the host writes its own output to (see the module comment). */
export interface HostOutputFile {
  /** Workspace path. */
  readonly path: string;
  /** Absolute path where it was found. */
  readonly absolute: string;
  readonly dev: bigint;
  readonly ino: bigint;
  /** The host's streams that end in it. */
  readonly streams: readonly ('stdout' | 'stderr')[];
  /** The process writing it: the host itself, or the pipe reader (`tee`, pid). */
  readonly writer: string;
  /** The `/proc/<pid>/fdinfo/<fd>` of every descriptor that writes it. */
  readonly positions: readonly string[];
}

const ACCESS = 0o3;
const READ_ONLY = 0o0;

function quietly<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** The position and the open flags of a descriptor, from its `fdinfo` file. */
function fdInfo(file: string): { pos: bigint; flags: number } | undefined {
  const text = quietly(() => readFileSync(file, 'latin1'));
  const pos = text?.match(/^pos:\s+(\d+)$/m)?.[1];
  const flags = text?.match(/^flags:\s+([0-7]+)$/m)?.[1];
  return pos === undefined || flags === undefined ? undefined : { pos: BigInt(pos), flags: Number.parseInt(flags, 8) };
}

/** Most sibling processes looked through for a pipe's reader (a daemon's parent, init, has thousands). */
const MAX_SIBLINGS = 256;

/** The host's sibling processes: the other children of its parent (at most {@link MAX_SIBLINGS}). */
function siblings(): number[] {
  const parent = process.ppid;
  const tasks = quietly(() => readdirSync(`/proc/${parent}/task`)) ?? [];
  const out: number[] = [];
  for (const task of tasks)
    for (const pid of (quietly(() => readFileSync(`/proc/${parent}/task/${task}/children`, 'latin1')) ?? '').split(' '))
      if (/^\d+$/.test(pid) && Number(pid) !== process.pid) out.push(Number(pid));
  return out.slice(0, MAX_SIBLINGS);
}

/** The regular files `pid` holds open for writing, by descriptor: the path and its identity. */
function writtenFiles(pid: number): { fd: string; target: string; dev: bigint; ino: bigint }[] {
  const out: { fd: string; target: string; dev: bigint; ino: bigint }[] = [];
  for (const fd of quietly(() => readdirSync(`/proc/${pid}/fd`)) ?? []) {
    const info = fdInfo(`/proc/${pid}/fdinfo/${fd}`);
    if (info === undefined || (info.flags & ACCESS) === READ_ONLY) continue;
    const target = quietly(() => readlinkSync(`/proc/${pid}/fd/${fd}`));
    const st = quietly(() => statSync(`/proc/${pid}/fd/${fd}`, { bigint: true }));
    if (target?.startsWith('/') && st?.isFile()) out.push({ fd, target, dev: st.dev, ino: st.ino });
  }
  return out;
}

/** The reader of the pipe `inode` among the host's siblings, or `undefined`. */
function pipeReader(inode: bigint): number | undefined {
  const pipe = `pipe:[${inode}]`;
  for (const pid of siblings())
    for (const fd of quietly(() => readdirSync(`/proc/${pid}/fd`)) ?? []) {
      if (quietly(() => readlinkSync(`/proc/${pid}/fd/${fd}`)) !== pipe) continue;
      const info = fdInfo(`/proc/${pid}/fdinfo/${fd}`);
      if (info !== undefined && (info.flags & ACCESS) === READ_ONLY) return pid;
    }
  return undefined;
}

/**
 * The files inside `root` (the workspace's real, absolute path) that this process's stdout and
 * stderr end in (see the module comment); empty where none is found, and off Linux.
 */
export function findHostOutputs(root: string): HostOutputFile[] {
  if (process.platform !== 'linux') return [];
  const base = root.replace(/\/+$/, '');
  const found = new Map<string, HostOutputFile>();
  const add = (
    stream: 'stdout' | 'stderr',
    writer: string,
    f: { target: string; dev: bigint; ino: bigint },
    position: string,
  ) => {
    if (!f.target.startsWith(`${base}/`)) return;
    // The path still holds that file (not deleted, not moved since it was opened).
    const now = quietly(() => lstatSync(f.target, { bigint: true }));
    if (!now?.isFile() || now.dev !== f.dev || now.ino !== f.ino) return;
    const key = `${f.dev}:${f.ino}:${f.target}`;
    const was = found.get(key);
    const streams = was?.streams ?? [];
    const positions = was?.positions ?? [];
    found.set(key, {
      path: f.target.slice(base.length + 1),
      absolute: f.target,
      dev: f.dev,
      ino: f.ino,
      streams: streams.includes(stream) ? streams : [...streams, stream],
      writer: was?.writer ?? writer,
      positions: positions.includes(position) ? positions : [...positions, position],
    });
  };
  for (const [fd, stream] of [
    [1, 'stdout'],
    [2, 'stderr'],
  ] as const) {
    const st = quietly(() => fstatSync(fd, { bigint: true }));
    if (st === undefined) continue;
    if (st.isFile()) {
      const target = quietly(() => readlinkSync(`/proc/self/fd/${fd}`));
      if (target !== undefined)
        add(stream, 'this process', { target, dev: st.dev, ino: st.ino }, `/proc/${process.pid}/fdinfo/${fd}`);
    } else if (st.isFIFO()) {
      const reader = pipeReader(st.ino);
      if (reader === undefined) continue;
      const name = quietly(() => readFileSync(`/proc/${reader}/comm`, 'latin1').trim()) ?? 'a process';
      for (const f of writtenFiles(reader)) add(stream, `${name} (pid ${reader})`, f, `/proc/${reader}/fdinfo/${f.fd}`);
    }
  }
  return [...found.values()];
}

/**
 * True while `file` is still the host's output alone, as far as can be told (see the module
 * comment): its path holds that very file, no longer than its writers' furthest position.
 */
export function isHostOutputNow(file: HostOutputFile): boolean {
  const st = quietly(() => lstatSync(file.absolute, { bigint: true }));
  if (!st?.isFile() || st.dev !== file.dev || st.ino !== file.ino) return false;
  // Read after the size: a position only grows, so a write in between cannot make the file look longer.
  let reach: bigint | undefined;
  for (const position of file.positions) {
    const info = fdInfo(position);
    if (info !== undefined && (reach === undefined || info.pos > reach)) reach = info.pos;
  }
  return reach !== undefined && st.size <= reach;
}
