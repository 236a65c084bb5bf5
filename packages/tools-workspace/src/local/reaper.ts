/**
 * The reaper a command's shell runs under on Linux. A process that clears its environment, calls
 * `setsid` and loses its parent (`( (env -i setsid server &) & )`) carries neither the command's
 * tag nor its process group, and once the shell has exited it is reparented to init, out of
 * reach. So the shell is not started directly: a small Perl process marks itself a "child
 * subreaper" (`prctl(PR_SET_CHILD_SUBREAPER)`, which Node cannot call), forks the shell, and
 * stays. Every orphan among the shell's descendants is then reparented to it instead of to init,
 * so the tree under it holds them all, after the shell exits too. It reports the shell's wait
 * status on file descriptor 3 as soon as the shell exits (the command's result does not wait for
 * its background processes), ignores the signals a timeout sends the group, reaps its adopted
 * children and exits when none is left. It names itself `a3s-reaper` before it forks, so `ps` and
 * a search by command line show that, not the command's text. It also asks the kernel for a
 * signal when the host process dies (`PR_SET_PDEATHSIG`), so a host killed outright (`kill -9`,
 * no exit hook run) still takes the command with it: the reaper then kills its whole tree (or its
 * namespace's init, which ends the namespace) and exits. Perl is part of every Debian-based
 * system (`perl-base`); without it, or on an unknown architecture, the shell starts directly.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { constants as osConstants } from 'node:os';
import type { ExecHiding } from '@a3s-code/core';
import { hidingArgs, NAMESPACE_CALLS, NAMESPACE_LINES } from './namespace-script.js';

/** `prctl`'s system call number, per architecture Node runs on. */
export const PRCTL: Readonly<Record<string, number>> = {
  x64: 157,
  arm64: 167,
  riscv64: 167,
  loong64: 167,
  ia32: 172,
  arm: 172,
  s390x: 172,
  ppc64: 171,
};

/**
 * `argv`: the `prctl` number, the `cgroup.procs` file of the command's process ceiling (or an
 * empty string: see `pids-cgroup.ts`; joined first, so everything forked after counts), the host's
 * pid (a reaper whose parent is already another has lost its host, and ends at once), the number of variables set aside, each one's name and value, the
 * `unshare` and `mount` numbers, the number of files to hide, each one's kind (`r`: unreadable,
 * `w`: unwritable) and path, then the shell and its arguments. A failed `prctl` (an old kernel)
 * leaves the reaper a plain parent, which still reports the status.
 *
 * With files to hide, the reaper first moves into a mount namespace of its own (within a user
 * namespace mapping only its own ids, unless it runs as root): an unreadable folder is covered by
 * an empty read-only `tmpfs`, an unreadable file by `/dev/null` mounted read-only and `nodev`
 * (opening it fails), an unwritable path by a read-only bind of itself; as root, every block
 * device too (root could read the disk itself). It then moves into a further user, mount and
 * process namespace, so those mounts are locked: no process of the command can unmount or remount
 * them, not even a root one (which is root only in that namespace). Its first child is then the
 * namespace's init: it mounts a `/proc` of the namespace's own processes (so no
 * `/proc/<pid>/root` of a process outside leads back to a hidden file), starts the shell, reports
 * its status and reaps every orphan until none is left. Any step that fails is reported as `E` and
 * a reason on the status pipe, and nothing runs.
 */
const SCRIPT = [
  'my $nr = shift @ARGV;',
  'my $cg = shift @ARGV;',
  'my $boss = shift @ARGV;',
  'if ($cg ne "" && open(my $c, ">", $cg)) { print $c "$$\\n"; close $c; }',
  'my %keep = splice(@ARGV, 0, 2 * shift @ARGV);',
  'my ($un, $mnt, $sns) = splice(@ARGV, 0, 3);',
  'my @hide = splice(@ARGV, 0, 2 * shift @ARGV);',
  'my $ns = @hide > 0;',
  'syscall($nr, 36, 1, 0, 0, 0);',
  'open(my $st, ">&=", 3) or die "a3s reaper: no status pipe: $!\\n";',
  '$0 = "a3s-reaper";',
  'sub fail { syswrite $st, "E $_[0]\\n"; exit 125; }',
  '$SIG{__DIE__} = sub { my $m = "@_"; $m =~ s/\\s+$//; fail($m) } if $ns;',
  ...NAMESPACE_LINES,
  'our $kid = 0;',
  'sub ups { my %up; opendir(my $d, "/proc") or return %up; for my $p (grep { /^\\d+$/ } readdir $d) { open(my $h, "<", "/proc/$p/stat") or next; my $s = <$h>; close $h; $up{$p} = $1 if defined $s && $s =~ /.*\\) \\S+ (\\d+)/s; } %up }',
  'sub below { my %up = ups(); my %in = ($$ => 1); my $more = 1; while ($more) { $more = 0; for my $p (keys %up) { next if $in{$p} || !$in{$up{$p}}; $in{$p} = 1; $more = 1; } } delete $in{$$}; keys %in }',
  'sub doom { kill "KILL", $kid if $kid > 0; for (1 .. 100) { my @k = below(); last unless @k; kill "STOP", @k; kill "KILL", @k; 1 while waitpid(-1, 1) > 0; select(undef, undef, undef, 0.01); } exit 0; }',
  '$SIG{ALRM} = \\&doom;',
  'syscall($nr, 1, 14, 0, 0, 0);',
  'doom() if getppid() != $boss;',
  'my $pid = fork();',
  'defined $pid or die "a3s reaper: cannot fork: $!\\n";',
  '$kid = $pid; $SIG{ALRM} = "DEFAULT" if $pid == 0;',
  'sub quiet { $SIG{$_} = "IGNORE" for qw(TERM INT HUP QUIT PIPE USR1 USR2); open STDIN, "<", "/dev/null"; open STDOUT, ">", "/dev/null"; open STDERR, ">", "/dev/null"; }',
  'sub shell { dropcaps($nr) if $drop; close $st; @ENV{keys %keep} = values %keep; exec { $ARGV[0] } @ARGV; print STDERR "a3s reaper: cannot run $ARGV[0]: $!\\n"; exit 127; }',
  'if ($pid == 0 && ($ns || $joined)) {',
  '  if ($ns) { sc($mnt, "proc", "/proc", "proc", 14, 0) == 0 or fail("cannot mount /proc: $!"); }',
  '  else { syscall($nr, 36, 1, 0, 0, 0); }',
  '  my $sh = fork();',
  '  defined $sh or fail("cannot fork: $!");',
  '  shell() if $sh == 0;',
  '  quiet(); waitpid($sh, 0); syswrite $st, "$?\\n"; close $st; 1 while wait() != -1; exit 0;',
  '}',
  'shell() if $pid == 0;',
  'quiet();',
  'if ($ns || $joined) { close $st; waitpid($pid, 0); 1 while wait() != -1; exit 0; }',
  'waitpid($pid, 0);',
  'syswrite $st, "$?\\n"; close $st;',
  '1 while wait() != -1;',
].join('\n');

let perl: string | null | undefined;

function executable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets the flag, reads it back and prints `ok`: a Perl that cannot start, or a kernel (or a
 * seccomp filter) that refuses the flag, fails it, and the shell then starts directly.
 */
const SELF_TEST =
  'my $nr = shift @ARGV; syscall($nr, 36, 1, 0, 0, 0) == 0 or exit 3; my $b = pack("i", 0); ' +
  'syscall($nr, 37, $b, 0, 0, 0) == 0 or exit 4; print unpack("i", $b) == 1 ? "ok" : "no";';

/** The Perl that passed the self-test, checked once per process (about 10 ms, synchronously). */
export function perlPath(nr: number): string | undefined {
  if (perl === undefined) {
    const path = ['/usr/bin/perl', '/bin/perl'].find((p) => executable(p));
    perl = null;
    if (path !== undefined) {
      const r = spawnSync(path, ['-e', SELF_TEST, '--', String(nr)], {
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin' },
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5000,
      });
      if (r.status === 0 && r.stdout === 'ok') perl = path;
    }
  }
  return perl ?? undefined;
}

/** A command as `spawn` takes it. */
export interface ReaperCommand {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/**
 * `shell args` with environment `env` started under the reaper, or `undefined` where there is
 * none (not Linux, no `/proc`, no Perl, an architecture whose `prctl` number is not known, or,
 * with files to `hide`, whose `unshare` and `mount` numbers are not). The
 * variables that change how Perl itself starts (`PERL5OPT`, `PERL5LIB`, …: every `PERL*`) are
 * kept from the reaper and handed to the shell as they were.
 * @param proc whether `/proc` lists processes (the reaper's children are found through it).
 * @param procsFile the `cgroup.procs` file the reaper joins before it forks (see `pids-cgroup.ts`), or `''`.
 * @param isolate namespaces of its own even with nothing to hide (see `credential-isolation.ts`),
 *   or the namespace folder of the commands' shared namespace to join (see `shared-namespace.ts`).
 */
export function reaperCommand(
  shell: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  proc: boolean,
  hide: ExecHiding = { unreadable: [], unwritable: [] },
  procsFile = '',
  isolate: boolean | string = false,
): ReaperCommand | undefined {
  const nr = PRCTL[process.arch];
  const calls = NAMESPACE_CALLS[process.arch];
  const hiding = hidingArgs(hide, isolate);
  if (process.platform !== 'linux' || !proc || nr === undefined) return undefined;
  if (hiding.length > 1 && calls === undefined) return undefined;
  const path = perlPath(nr);
  if (path === undefined) return undefined;
  const own: Record<string, string> = {};
  const kept: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('PERL')) kept.push(name, value);
    else own[name] = value;
  }
  // No `-w`, no `-M`: nothing but the script. `--` ends Perl's own options.
  return {
    command: path,
    args: [
      '-e',
      SCRIPT,
      '--',
      String(nr),
      procsFile,
      String(process.pid),
      String(kept.length / 2),
      ...kept,
      String(calls?.[0] ?? 0),
      String(calls?.[1] ?? 0),
      String(calls?.[2] ?? 0),
      ...hiding,
      shell,
      ...args,
    ],
    env: own,
  };
}

/** How the shell ended, as Node reports a child's exit. */
export interface ShellExit {
  readonly code: number | null;
  readonly sig: string | null;
  /** Why the shell was never started: the files to hide could not be hidden. */
  readonly unheld?: string;
}

const SIGNAL_NAMES = new Map<number, string>(
  Object.entries(osConstants.signals).map(([name, n]) => [n, name] as [number, string]),
);

/** The shell's exit from the reaper's report (a wait status in decimal), or `undefined` when malformed. */
export function parseReport(text: string): ShellExit | undefined {
  const failed = /^E ([^\n]*)\n/.exec(text);
  if (failed) return { code: null, sig: null, unheld: failed[1]! };
  const m = /^(\d+)\n/.exec(text);
  if (!m) return undefined;
  const status = Number(m[1]);
  const sig = status & 0x7f;
  if (sig === 0) return { code: (status >> 8) & 0xff, sig: null };
  return { code: null, sig: SIGNAL_NAMES.get(sig) ?? `SIG${sig}` };
}
