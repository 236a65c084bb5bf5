/**
 * Git with its configuration pinned. The settings that turn off config-driven programs
 * (`git-safety.ts`) name drivers from a listing of the configuration, and a process of the
 * session (a command's background job, an `eval` thread) can rewrite `.git/config` between that
 * listing and the command, naming a driver the listing never saw. So where it can, the command
 * runs with a copy of exactly the configuration that was listed: a small Perl process enters a
 * mount namespace of its own, mounts a private file system over a folder of its own, checks that
 * the mount it entered is its own, writes there the listed repository and user configuration,
 * links every other entry of the git folder back to the real one, and starts git with
 * `GIT_COMMON_DIR` and `GIT_CONFIG_GLOBAL` pointing at the private copy through
 * `/proc/self/fd` (an open folder, which no rename can redirect). Git then reads no file of the
 * session's reach as configuration. Objects, refs, the index and logs are the real ones.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitConfigEntry } from './git-safety.js';
import { namespaceHost } from './hide-process.js';

/** Exit code of the wrapper where this host cannot pin a configuration (no mount namespace). */
export const PIN_UNAVAILABLE = 125;
/** Exit code of the wrapper when a step failed on a host that can pin: nothing ran. */
export const PIN_FAILED = 126;
/** The descriptor of the real common git folder in the wrapper and in git. */
export const REAL_FD = 210;
/** The descriptor of the pinned folder in the wrapper and in git. */
export const PINNED_FD = 211;

/** Shared files of a git folder git may create: linked even while absent, so what git writes lands in the real folder. */
const MAY_CREATE = ['packed-refs', 'shallow'];

const SCRIPT = [
  'use strict; use Fcntl;',
  'my ($un, $mnt, $prctl, $common, $gitdir, $top, $cwd, $token, $local, $global, $mkwt) = splice(@ARGV, 0, 11);',
  '$0 = "a3s-git";',
  `sub unavailable { print STDERR "a3s: git's configuration cannot be pinned here: $_[0]\\n"; exit ${PIN_UNAVAILABLE}; }`,
  `sub fail { print STDERR "a3s: git's configuration could not be pinned: $_[0]\\n"; exit ${PIN_FAILED}; }`,
  '$SIG{__DIE__} = sub { my $m = "@_"; $m =~ s/\\s+$//; fail($m) };',
  'sub sc { my @a = @_; syscall($a[0], @a[1 .. $#a]) }',
  'sub put { my $f; open($f, ">", $_[0]) or return 0; print $f $_[1] or return 0; close($f) }',
  'my $uid = $<; my ($gid) = split / /, $(;',
  'sc($un, 0x20000 | ($uid ? 0x10000000 : 0)) == 0 or unavailable("no mount namespace: $!");',
  'if ($uid) { for (["setgroups", "deny"], ["uid_map", "$uid $uid 1"], ["gid_map", "$gid $gid 1"]) { put("/proc/self/$_->[0]", $_->[1]) or unavailable("no user namespace ($_->[0]): $!"); } }',
  'sc($mnt, "none", "/", 0, 16384 | 262144, 0) == 0 or unavailable("no private mounts: $!");',
  'sysopen(my $C, $common, O_RDONLY | O_DIRECTORY) or fail("cannot open $common: $!");',
  `(fcntl($C, F_DUPFD, ${REAL_FD}) // -1) == ${REAL_FD} or fail("cannot keep $common open: $!");`,
  `my $c = "/proc/self/fd/${REAL_FD}";`,
  'for my $d ("logs", $mkwt ? ("worktrees") : ()) { -d "$c/$d" or mkdir("$c/$d") or $!{EEXIST} or fail("cannot make $common/$d: $!"); }',
  'sc($mnt, $token, $gitdir, "tmpfs", 2 | 4 | 8, "mode=0700") == 0 or unavailable("cannot mount a private folder: $!");',
  'chdir($gitdir) or fail("cannot enter the private folder: $!");',
  'my $dev = (stat("."))[0]; my $ok = 0;',
  'open(my $mi, "<", "/proc/self/mountinfo") or fail("cannot read /proc/self/mountinfo: $!");',
  'while (my $l = <$mi>) { chomp $l; my ($h, $t) = split / - /, $l, 2; next unless defined $t; my @f = split / /, $h; my @g = split / /, $t;',
  '  next unless $g[0] eq "tmpfs" && $g[1] eq $token; my ($ma, $mn) = split /:/, $f[2];',
  '  $ok = 1 if $dev == ((($ma & 0xfff) << 8) | ($mn & 0xff) | (($mn & ~0xff) << 12) | (($ma & ~0xfff) << 32)); }',
  '$ok or fail("the private folder was moved while it was being made");',
  'sysopen(my $N, ".", O_RDONLY | O_DIRECTORY) or fail("cannot open the private folder: $!");',
  `(fcntl($N, F_DUPFD, ${PINNED_FD}) // -1) == ${PINNED_FD} or fail("cannot keep the private folder open: $!");`,
  'put("config", $local) and put("a3s-global-config", $global) or fail("cannot write the configuration: $!");',
  'opendir(my $d, $c) or fail("cannot list $common: $!");',
  'for my $e (readdir $d) { next if $e eq "." || $e eq ".." || $e eq "config"; symlink("$c/$e", $e) or fail("cannot link $e: $!"); }',
  `for my $e (qw(${MAY_CREATE.join(' ')})) { -l $e or symlink("$c/$e", $e) or fail("cannot link $e: $!"); }`,
  'chdir($cwd) or fail("cannot enter $cwd: $!");',
  `my $n = "/proc/self/fd/${PINNED_FD}";`,
  'my $g = shift @ARGV; $ENV{GIT_COMMON_DIR} = $n; $ENV{GIT_DIR} = $g eq "" ? $c : $g =~ m{^/} ? $g : "$n/$g";',
  '$ENV{GIT_WORK_TREE} = $top; $ENV{GIT_CONFIG_GLOBAL} = "$n/a3s-global-config"; $ENV{GIT_CONFIG_NOSYSTEM} = "1";',
  'my $pid = fork();',
  'defined $pid or fail("cannot fork: $!");',
  'if ($pid == 0) { $SIG{__DIE__} = "DEFAULT"; sc($prctl, 1, 9, 0, 0, 0); exec { $ARGV[0] } @ARGV; print STDERR "a3s: cannot run $ARGV[0]: $!\\n"; exit 127; }',
  '$SIG{$_} = "IGNORE" for qw(INT HUP QUIT PIPE);',
  'waitpid($pid, 0);',
  'exit(($? & 127) ? 128 + ($? & 127) : $? >> 8);',
].join('\n');

/** Where git's repository is, as `git rev-parse --absolute-git-dir --git-common-dir --show-toplevel` reports it. */
export interface GitPlaces {
  /** The repository's own git folder (a linked worktree's is under the common one). */
  readonly gitDir: string;
  /** The git folder shared by every worktree (config, objects, refs). */
  readonly commonDir: string;
  /** The work tree's top folder. */
  readonly top: string;
}

let pinDir: string | undefined;

/** A folder of this process the private file system is mounted over (its `.git`), made once and removed at exit. */
function pinFolder(): string {
  if (pinDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-git-'));
    mkdirSync(join(dir, '.git'));
    pinDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return pinDir;
}

/** A pinned git command as `spawn` takes it. */
export interface PinnedCommand {
  readonly command: string;
  readonly args: string[];
  /** The folder git reports as the main worktree's: to be read as {@link GitPlaces.commonDir}'s. */
  readonly stand: string;
}

/**
 * `git argv` with `local` (the repository configuration) and `global` (the user's) pinned, run
 * in `cwd` (`worktrees`: the command adds worktrees, whose folder is made first if missing); `undefined` where this host cannot (not Linux, no `/proc`, no Perl, an unknown
 * architecture), and then git runs unpinned.
 */
export function pinnedGit(
  places: GitPlaces,
  cwd: string,
  local: string,
  global: string,
  argv: readonly string[],
  worktrees: boolean,
): PinnedCommand | undefined {
  const host = namespaceHost();
  if (host === undefined) return undefined;
  const stand = pinFolder();
  const worktree = linkedWorktree(places);
  const token = `a3s-git-${process.pid}-${Math.random().toString(36).slice(2)}`;
  return {
    command: host.perl,
    args: [
      '-e',
      SCRIPT,
      '--',
      String(host.unshare),
      String(host.mount),
      String(host.prctl),
      places.commonDir,
      join(stand, '.git'),
      places.top,
      cwd,
      token,
      local,
      global,
      worktrees ? '1' : '',
      worktree,
      'git',
      ...argv,
    ],
    stand,
  };
}

/**
 * `GIT_DIR` as the wrapper takes it: `''` for the main worktree (the real folder, opened), a
 * linked worktree's `worktrees/<id>` (read through the pinned folder, as git names it), or any
 * other git folder's own path.
 */
function linkedWorktree(places: GitPlaces): string {
  if (places.gitDir === places.commonDir) return '';
  const prefix = `${places.commonDir}/worktrees/`;
  const id = places.gitDir.startsWith(prefix) ? places.gitDir.slice(prefix.length) : '';
  return id !== '' && !id.includes('/') ? `worktrees/${id}` : places.gitDir;
}

/** A quoted configuration value. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\x08/g, '\\b')}"`;
}

const DROPPED = /^(include\.path|includeif\..+\.path|extensions\.worktreeconfig)$/i;

/**
 * The entries of `scopes` as one configuration file, in the listed order, includes already
 * inlined (their directives dropped); `extensions.worktreeConfig` is dropped too, since the
 * worktree's entries are in the same file.
 */
export function configText(entries: readonly GitConfigEntry[], scopes: readonly string[]): string {
  const lines: string[] = [];
  for (const entry of entries) {
    if (entry.scope === undefined || !scopes.includes(entry.scope) || DROPPED.test(entry.key)) continue;
    const first = entry.key.indexOf('.');
    const last = entry.key.lastIndexOf('.');
    if (first <= 0 || last === entry.key.length - 1) continue;
    const section = entry.key.slice(0, first);
    const sub = first === last ? undefined : entry.key.slice(first + 1, last);
    const name = entry.key.slice(last + 1);
    lines.push(sub === undefined ? `[${section}]` : `[${section} ${quoted(sub)}]`);
    lines.push(entry.value === undefined ? `\t${name}` : `\t${name} = ${quoted(entry.value)}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
