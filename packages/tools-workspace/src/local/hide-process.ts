/**
 * A long-lived process (an `eval` kernel) started with files hidden from it, as a command with
 * `hide` is (see `reaper.ts`): a small Perl process enters the namespaces, hides the files, and
 * forks the namespace's init, which mounts its own `/proc` and starts the process. Both stay in
 * the foreground and pass on its exit: its code, or its signal (the outer process then ends by
 * that signal itself). When the process exits, the init exits and the kernel ends whatever the
 * process left running in the namespace. A step that fails is reported on standard error and the
 * wrapper exits with 125 before anything runs.
 */
import { PROC_AVAILABLE } from './proc-scan.js';
import type { ExecHiding, ProcessCommand } from '@a3s-code/core';
import { hidingArgs, NAMESPACE_CALLS, NAMESPACE_LINES } from './namespace-script.js';
import { perlPath, PRCTL } from './reaper.js';

const SCRIPT = [
  'my ($un, $mnt, $sns, $pr) = splice(@ARGV, 0, 4);',
  'my @hide = splice(@ARGV, 0, 2 * shift @ARGV);',
  'my $ns = 1;',
  '$0 = "a3s-hide";',
  'sub fail { print STDERR "a3s: the files the permission rules keep from this process could not be hidden: $_[0]\\n"; exit 125; }',
  '$SIG{__DIE__} = sub { my $m = "@_"; $m =~ s/\\s+$//; fail($m) };',
  ...NAMESPACE_LINES,
  'sub quiet { $SIG{$_} = "IGNORE" for qw(TERM INT HUP QUIT PIPE USR1 USR2); open STDIN, "<", "/dev/null"; open STDOUT, ">", "/dev/null"; open STDERR, ">", "/dev/null"; }',
  'my $pid = fork();',
  'defined $pid or fail("cannot fork: $!");',
  'if ($pid == 0) {',
  '  if ($ns) { sc($mnt, "proc", "/proc", "proc", 14, 0) == 0 or fail("cannot mount /proc: $!"); }',
  '  my $k = fork();',
  '  defined $k or fail("cannot fork: $!");',
  '  if ($k == 0) { dropcaps($pr) if $drop; $SIG{__DIE__} = "DEFAULT"; exec { $ARGV[0] } @ARGV; print STDERR "a3s: cannot run $ARGV[0]: $!\\n"; exit 127; }',
  '  quiet(); waitpid($k, 0); exit(($? & 127) ? 128 + ($? & 127) : $? >> 8);',
  '}',
  'quiet(); waitpid($pid, 0); my $c = $? >> 8;',
  'if ($c > 128 && $c < 160) { $SIG{$_} = "DEFAULT" for qw(TERM INT HUP QUIT PIPE USR1 USR2); kill($c - 128, $$); sleep 1; }',
  'exit $c;',
].join('\n');

/**
 * `process` started with the files of `hide` out of its reach (`isolate`: in namespaces of its own
 * even with nothing to hide; a namespace folder: in those shared namespaces), or `undefined` where this cannot be done (not Linux, no `/proc`, no
 * Perl, an architecture whose system call numbers are not known).
 */
export function hiddenProcess(
  process_: ProcessCommand,
  hide: ExecHiding,
  isolate: boolean | string = false,
): ProcessCommand | undefined {
  const host = namespaceHost();
  if (host === undefined) return undefined;
  return {
    command: host.perl,
    args: [
      '-e',
      SCRIPT,
      '--',
      String(host.unshare),
      String(host.mount),
      String(host.setns),
      String(host.prctl),
      ...hidingArgs(hide, isolate),
      process_.command,
      ...process_.args,
    ],
  };
}

/** What a Perl wrapper entering namespaces needs: the Perl, and the system call numbers of this architecture. */
export interface NamespaceHost {
  readonly perl: string;
  readonly unshare: number;
  readonly mount: number;
  readonly setns: number;
  readonly prctl: number;
}

/** The {@link NamespaceHost} of this process, or `undefined` (not Linux, no `/proc`, no Perl, an unknown architecture). */
export function namespaceHost(): NamespaceHost | undefined {
  const calls = NAMESPACE_CALLS[process.arch];
  const prctl = PRCTL[process.arch];
  if (process.platform !== 'linux' || !PROC_AVAILABLE || calls === undefined || prctl === undefined) return undefined;
  const perl = perlPath(prctl);
  return perl === undefined ? undefined : { perl, unshare: calls[0], mount: calls[1], setns: calls[2], prctl };
}
