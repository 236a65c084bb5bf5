/**
 * The Perl that hides files from a process tree (see `reaper.ts` for how the reaper uses it, and
 * `hide-process.ts` for a long-lived process): it expects `$un` and `$mnt` (the `unshare` and
 * `mount` system call numbers), `$sns` (`setns`'s), `@hide` (pairs of kind, `p`, `w`, `r` or `n`,
 * and absolute path; `n` hides nothing: the process is only kept from seeing the host's processes;
 * a single pair `j` and a namespace folder `/proc/<pid>/ns` joins that process's user, mount and
 * process namespaces instead, see `shared-namespace.ts`, and sets `$joined`), `$ns` (true when
 * there is any pair) and a `fail` sub that reports a reason and exits. It sets `$drop` where root
 * keeps apart with nothing to hide: no user namespace then (so `apt`, `su` and low ports work as
 * usual), and `dropcaps` (given the `prctl` number) must take from the process it starts the
 * capabilities that would lead out (mounts, namespaces, raw memory and disks, modules, tracing).
 */
import type { ExecHiding } from '@a3s-code/core';

/** `unshare`, `mount` and `setns` system call numbers, per architecture (the generic table's where shared). */
export const NAMESPACE_CALLS: Readonly<Record<string, readonly [number, number, number]>> = {
  x64: [272, 165, 308],
  arm64: [97, 40, 268],
  riscv64: [97, 40, 268],
  loong64: [97, 40, 268],
};

/** The helpers and the namespace block, one Perl statement a line. */
export const NAMESPACE_LINES: readonly string[] = [
  'sub sc { my @a = @_; syscall($a[0], @a[1 .. $#a]) }',
  'my $joined = 0;',
  'my $drop = 0;',
  'sub dropcaps { my $n = shift; for my $c (16, 17, 19, 21, 27) { syscall($n, 24, $c, 0, 0, 0) == 0 or fail("cannot drop capability $c: $!"); } }',
  'if (@hide == 2 && $hide[0] eq "j") {',
  '  my $d = $hide[1]; @hide = (); $ns = 0;',
  '  opendir(my $here, ".") or fail("cannot open the working folder: $!");',
  '  my @t = (["mnt", 131072], ["pid_for_children", 536870912]);',
  '  if ((stat("/proc/self/ns/user"))[1] == (stat("$d/user"))[1]) { $drop = 1; } else { unshift @t, ["user", 268435456]; }',
  '  my @f = map { open(my $f, "<", "$d/$_->[0]") or fail("cannot open the shared namespace of the commands ($_->[0]): $!"); [$f, @$_] } @t;',
  '  for my $t (@f) { sc($sns, fileno($t->[0]), $t->[2]) == 0 or fail("cannot join the shared namespace of the commands ($t->[1]): $!"); close $t->[0]; }',
  '  chdir($here) or fail("cannot return to the working folder: $!");',
  '  $joined = 1;',
  '}',
  'sub put { my $f; open($f, ">", $_[0]) or return 0; print $f $_[1] or return 0; close($f) }',
  'sub ro { my ($p, $base) = @_; for my $x (0, 2, 8, 10, 4, 6, 12, 14) { for my $t (0, 2097152, 1024, 3072, 16777216) { return 1 if sc($mnt, "none", $p, 0, 4129 | $base | $x | $t, 0) == 0 } } 0 }',
  'if ($ns) {',
  '  my $uid = $<; my ($gid) = split / /, $(;',
  '  my $map = sub { for (["setgroups", "deny"], ["uid_map", "$uid $uid 1"], ["gid_map", "$gid $gid 1"]) { put("/proc/self/$_->[0]", $_->[1]) or fail("no user namespace ($_->[0]): $!"); } };',
  '  sc($un, 0x20000 | ($uid ? 0x10000000 : 0)) == 0 or fail("no mount namespace: $!");',
  '  $map->() if $uid;',
  '  sc($mnt, "none", "/", 0, 16384 | 262144, 0) == 0 or fail("no private mounts: $!");',
  '  my $dev = 0;',
  '  while (my ($k, $p) = splice(@hide, 0, 2)) {',
  '    next if $k eq "n";',
  '    $dev = 1;',
  '    if ($k eq "p") { sc($mnt, $p, $p, 0, 4096 | 16384, 0) == 0 or fail("cannot keep $p in place: $!"); }',
  '    elsif ($k eq "w") { (sc($mnt, $p, $p, 0, 4096 | 16384, 0) == 0 and ro($p, 0)) or fail("cannot make $p read-only: $!"); }',
  '    elsif (-d $p) { sc($mnt, "none", $p, "tmpfs", 7, "size=4k,mode=0555") == 0 or fail("cannot hide $p: $!"); }',
  '    else { (sc($mnt, "/dev/null", $p, 0, 4096, 0) == 0 and ro($p, 4)) or fail("cannot hide $p: $!"); }',
  '  }',
  '  if (!$uid && $dev && opendir(my $d, "/dev")) { for my $e (readdir $d) { my $p = "/dev/$e"; next if -l $p || !-b $p; (sc($mnt, "/dev/null", $p, 0, 4096, 0) == 0 and ro($p, 4)) or fail("cannot hide $p: $!"); } }',
  '  if (!$uid && !$dev) { sc($un, 0x20000000) == 0 or fail("no process namespace: $!"); $drop = 1; }',
  '  else { sc($un, 0x30020000) == 0 or fail("no user namespace: $!"); $map->(); }',
  '}',
];

/**
 * `@hide` as the script reads it: the count of pairs, then kind and path of each. The folders on
 * the way come first (`p`: each bound onto itself, so a rename or removal of it fails as busy),
 * then the unwritable (`w`), then the unreadable (`r`). `isolate` adds the pair `n /`, so the
 * process gets namespaces of its own (and sees only its own processes) with nothing to hide; a
 * namespace folder (`/proc/<pid>/ns`) in its place joins those namespaces instead, and `hide` is
 * not used.
 */
export function hidingArgs(hide: ExecHiding, isolate: boolean | string = false): string[] {
  if (typeof isolate === 'string') return ['1', 'j', isolate];
  const pairs = [
    ...(isolate ? ['n', '/'] : []),
    ...(hide.folders ?? []).flatMap((p) => ['p', p]),
    ...hide.unwritable.flatMap((p) => ['w', p]),
    ...hide.unreadable.flatMap((p) => ['r', p]),
  ];
  return [String(pairs.length / 2), ...pairs];
}
