/**
 * The namespaces a workspace's commands share while they run apart from the host (see
 * `credential-isolation.ts`): one user, mount and process namespace, made once and joined by every
 * command, kernel and program under debug. They see one another's processes (a server one command
 * left running is in `ps` and `kill` of the next, by the pid they were told), and none of the
 * host's.
 *
 * A small Perl process makes the namespaces and forks their init, which mounts a `/proc` of its
 * own, answers `ready` and reaps orphans; the Perl process then waits for its standard input to
 * close. Closing it (or the host dying) ends the Perl process; the init dies with it
 * (`PR_SET_PDEATHSIG`), and the kernel then ends every process left in the namespace.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { WorkspaceBackgroundProcess } from '@a3s-code/core';
import { namespaceHost } from './hide-process.js';
import { NAMESPACE_LINES } from './namespace-script.js';

const SCRIPT = [
  'my ($un, $mnt, $sns, $prctl) = splice(@ARGV, 0, 4);',
  'my @hide = ("n", "/");',
  'my $ns = 1;',
  '$0 = "a3s-namespace";',
  'sub fail { print STDERR "a3s: cannot make the commands\' namespace: $_[0]\\n"; exit 125; }',
  '$SIG{__DIE__} = sub { my $m = "@_"; $m =~ s/\\s+$//; fail($m) };',
  ...NAMESPACE_LINES,
  '$SIG{$_} = "IGNORE" for qw(INT HUP QUIT PIPE USR1 USR2);',
  'my $pid = fork();',
  'defined $pid or fail("cannot fork: $!");',
  'if ($pid == 0) {',
  '  syscall($prctl, 1, 9, 0, 0, 0);',
  '  sc($mnt, "proc", "/proc", "proc", 14, 0) == 0 or fail("cannot mount /proc: $!");',
  '  $SIG{$_} = "IGNORE" for qw(TERM INT HUP QUIT PIPE USR1 USR2);',
  '  $0 = "a3s-namespace-init";',
  '  syswrite STDOUT, "ready\\n"; close STDOUT; close STDERR; open STDIN, "<", "/dev/null";',
  '  while (1) { sleep 1 if wait() == -1; }',
  '}',
  'close STDOUT;',
  'while (1) {',
  '  my $r = ""; vec($r, fileno(STDIN), 1) = 1;',
  '  if (select($r, undef, undef, 1) > 0) { last if !sysread(STDIN, my $b, 64); }',
  '  last if waitpid($pid, 1) == $pid;',
  '}',
  'kill 9, $pid; waitpid($pid, 0); exit 0;',
].join('\n');

/** Holders in a row that may fail to get ready before commands stop asking for them (each then gets namespaces of its own). */
const MAX_FAILURES = 3;

/** How long the namespace may take to be ready before commands run without it. */
const READY_TIMEOUT_MS = 10_000;

/** One shared namespace, made on first use; see the module comment. */
export class SharedNamespace {
  #holder: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  #ready: Promise<string | undefined> | undefined;
  #folder: string | undefined;
  /** Holders in a row that never got ready; past {@link MAX_FAILURES} no more are started. */
  #failures = 0;

  /** The namespace folder when the namespaces are ready now, else `undefined` (and they are made). */
  folderNow(): string | undefined {
    void this.folder();
    const holder = this.#holder;
    return holder !== undefined && holder.exitCode === null && holder.signalCode === null ? this.#folder : undefined;
  }

  /**
   * The namespace folder (`/proc/<pid>/ns`) to join, making the namespaces on first use (and
   * again once they have gone); `undefined` when they cannot be made here.
   */
  folder(): Promise<string | undefined> {
    const holder = this.#holder;
    if (holder !== undefined && (holder.exitCode !== null || holder.signalCode !== null)) this.#reset();
    if (this.#failures >= MAX_FAILURES) return Promise.resolve(undefined);
    this.#ready ??= this.#start();
    return this.#ready;
  }

  /**
   * The host's pid of the process the namespace's commands know as `pid` (found by its process
   * namespace and `NSpid` in `proc`), `undefined` when none of theirs has it; `pid` itself while
   * no namespaces are up (commands then see the host's pids).
   */
  hostPid(pid: number, proc = '/proc'): number | undefined {
    const holder = this.#holder;
    if (
      this.#folder === undefined ||
      holder?.pid === undefined ||
      holder.exitCode !== null ||
      holder.signalCode !== null
    )
      return pid;
    let ns: string;
    try {
      ns = readlinkSync(`${proc}/${holder.pid}/ns/pid_for_children`);
    } catch {
      return pid;
    }
    for (const name of readdirSync(proc)) {
      if (!/^[1-9]\d*$/.test(name)) continue;
      try {
        if (readlinkSync(`${proc}/${name}/ns/pid`) !== ns) continue;
        if (nsPids(readFileSync(`${proc}/${name}/status`, 'latin1'))?.[1] === pid) return Number(name);
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }
    return undefined;
  }

  /** Ends the namespaces and every process still in them. */
  close(): void {
    this.#reset();
  }

  #reset(): void {
    const holder = this.#holder;
    this.#holder = undefined;
    this.#ready = undefined;
    this.#folder = undefined;
    if (holder === undefined) return;
    holder.stdin.destroy();
    if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
  }

  #start(): Promise<string | undefined> {
    const host = namespaceHost();
    if (host === undefined) return Promise.resolve(undefined);
    const holder = spawn(
      host.perl,
      ['-e', SCRIPT, '--', String(host.unshare), String(host.mount), String(host.setns), String(host.prctl)],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' }, cwd: '/' },
    );
    this.#holder = holder;
    // The host may exit while the namespaces live: once they are ready, nothing here keeps it running.
    const letGo = (): void => {
      holder.unref();
      for (const s of [holder.stdin, holder.stdout, holder.stderr] as const)
        (s as unknown as { unref?: () => void }).unref?.();
    };
    holder.stdin.on('error', () => undefined);
    holder.stderr.resume();
    return new Promise((resolve) => {
      let said = '';
      const timer = setTimeout(() => done(undefined), READY_TIMEOUT_MS);
      timer.unref();
      const done = (folder: string | undefined): void => {
        clearTimeout(timer);
        letGo();
        holder.stdout.removeAllListeners('data');
        if (folder === undefined && this.#holder === holder) {
          if (this.#folder === undefined) this.#failures++;
          this.#reset();
        } else if (this.#holder === holder) {
          this.#folder = folder;
          this.#failures = 0;
        }
        resolve(folder);
      };
      holder.stdout.on('data', (chunk: Buffer) => {
        said += chunk.toString('utf8');
        if (said.startsWith('ready\n')) done(`/proc/${holder.pid}/ns`);
      });
      holder.once('exit', () => done(undefined));
      holder.once('error', () => done(undefined));
    });
  }
}

/** A process's pids from its `/proc/<pid>/status`, the host's first, one for each process namespace it is in. */
function nsPids(status: string | undefined): number[] | undefined {
  const line = status?.split('\n').find((l) => l.startsWith('NSpid:'));
  return line?.slice('NSpid:'.length).trim().split(/\s+/).map(Number);
}

/** The pid of `pid` (a host pid) in the innermost process namespace it is in, from `/proc/<pid>/status`. */
export function innerPid(pid: number, readStatus: (pid: number) => string | undefined): number | undefined {
  const ids = nsPids(readStatus(pid));
  const last = ids?.at(-1);
  return ids !== undefined && ids.length > 1 && Number.isSafeInteger(last) ? last : undefined;
}

/** `p` with its pid in the namespace it runs in, when that differs from the host's. */
export function withShellPid(p: WorkspaceBackgroundProcess): WorkspaceBackgroundProcess {
  const inner = innerPid(p.pid, (pid) => {
    try {
      return readFileSync(`/proc/${pid}/status`, 'latin1');
    } catch {
      return undefined;
    }
  });
  return inner === undefined ? p : { ...p, shellPid: inner };
}
