// A rule naming a command (`Bash(sed:*)`, `Bash(gzip:*)`) does not cover the command writing
// outside the workspace where its own script or arguments say: sed's `w`, awk's `print > "f"`, a
// compressor's output beside its file, `chmod`, `split`'s prefix, `patch`'s file, `mktemp`'s
// template, `ssh-keygen -f`, `gpg -o`. Where the judge cannot tell what such a program writes, the
// command is opaque or writes a hole, and asks.
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';
import { HOLE } from './shell-word.js';

const COMMANDS =
  'sed awk gawk mawk gzip gunzip bzip2 xz zstd lz4 chmod chown chgrp chattr touch truncate ln install cp mv split csplit patch mktemp ssh-keygen gpg xargs find sudo';
const policy = new PermissionPolicy({
  allow: COMMANDS.split(' ').map((c) => `Bash(${c}:*)`),
  defaultDecision: 'ask',
});
const decide = (command: string) => policy.evaluate('bash', { command }, '/w').decision;

describe('files a program writes where its script or arguments say', () => {
  it.each([
    ["sed -n 'w /root/probe-bin/tool' x", '/root/probe-bin/tool'],
    ["sed 's/a/b/w /root/x' f", '/root/x'],
    ["sed 's/a/b/gw /root/x' f", '/root/x'],
    ["sed -e 'W /root/x' f", '/root/x'],
    ["sed --expression='w ../x' f", '../x'],
    ["sed -n '/re/{w /root/x\n}' f", '/root/x'],
    ["sed 's/a/b/;w /root/x' f", '/root/x'],
    ["sed -i 'w /root/x' f", '/root/x'],
    ['awk \'BEGIN{print "#!/bin/sh" > "/root/p/evil"}\'', '/root/p/evil'],
    ['awk \'{print $1 >> "../log"}\' f', '../log'],
    ['gawk \'{printf "%s\\n", $1 > "/root/x"}\' f', '/root/x'],
    ['awk \'{printf("%s\\n", $1) > "/root/x"}\' f', '/root/x'],
    ['gawk --source=\'BEGIN{print > "/root/x"}\' f', '/root/x'],
    ['gawk -e \'BEGIN{print > "/root/x"}\' f', '/root/x'],
    ["gawk --dump-variables=/root/x 'BEGIN{}'", '/root/x'],
    ['awk \'BEGIN { a = 4 / 2; print > "/root/x"; b = 1 / 2 }\'', '/root/x'],
    ['awk \'$0 ~ /#/ { print > "/root/x" }\' f', '/root/x'],
    ['awk \'/"/ { print > "/root/x" } /"/\' f', '/root/x'],
    ['awk \'{ print a,\n b > "/root/x" }\' f', '/root/x'],
    ['awk \'{ print a \\\n > "/root/x" }\' f', '/root/x'],
    ['awk \'{ print x ? "a" : "b" > "/root/x" }\' f', '/root/x'],
    ['awk \'{ if (x > 1) print > "/root/x" }\' f', '/root/x'],
    ['chmod +x /root/p/evil', '/root/p/evil'],
    ['chmod -R u+w ~/bin', '~/bin'],
    ['chown x /root/y', '/root/y'],
    ['chgrp x /root/y', '/root/y'],
    ['chattr +i /root/y', '/root/y'],
    ['touch /root/y', '/root/y'],
    ['truncate -s 0 /root/y', '/root/y'],
    ['ln -s x /root/y', '/root/y'],
    ['install a /root/y', '/root/y'],
    ['install -d /root/y', '/root/y'],
    ['cp a /root/y', '/root/y'],
    ['mv a /root/y', '/root/y'],
    ['gzip /root/p/victim', '/root/p/victim.gz'],
    ['gzip -k /root/p/victim', '/root/p/victim.gz'],
    ['gunzip /root/y.gz', '/root/y'],
    ['bzip2 /root/y', '/root/y.bz2'],
    ['xz /root/y', '/root/y.xz'],
    ['zstd --rm /root/y', '/root/y'],
    ['zstd a -o /root/y', '/root/y'],
    ['zstd --output-dir-flat /root f', '/root'],
    ['lz4 a /root/y', '/root/y'],
    ['gzip -S c /root/y', '/root/yc'],
    ['split x /root/pre', '/root/pre'],
    ['split -b 1M x /root/pre', '/root/pre'],
    ['csplit -f /root/pre x 1', '/root/pre'],
    ['patch /root/x p.diff', '/root/x'],
    ['patch -o /root/x a p.diff', '/root/x'],
    ['patch -d /root -p1 -i p.diff', '/root'],
    ['mktemp /root/XXXX', '/root/XXXX'],
    ['mktemp -p /root', '/root/tmp.XXXXXXXXXX'],
    ['mktemp --tmpdir ../../root/x.XXXX', '/tmp/../../root/x.XXXX'],
    ['ssh-keygen -f /root/k', '/root/k'],
    ["ssh-keygen -t ed25519 -N ''", '~/.ssh'],
    ['gpg -o /root/y x', '/root/y'],
    ['gpg --output=/root/y -e x', '/root/y'],
    ['gpg --homedir /root/g --gen-key', '/root/g'],
    ["echo x | xargs sed 's/a/b/w /root/x'", '/root/x'],
    ["find . -exec sed -n 'w /root/x' {} \\;", '/root/x'],
  ])(
    'PERM-03: %j writes %j outside the workspace: a rule naming the program does not cover it (asks)',
    (command, target) => {
      expect(judgeShellCommand(command).writes).toContain(target);
      expect(decide(command)).toBe('ask');
    },
  );

  it.each([
    ["awk '{print > f}' f=x file"],
    ['awk \'{print $1 > $2 ".txt"}\' f'],
    ['awk \'{ print > "a" "b" }\' f'],
    ['awk \'{ print >> ("a") }\' f'],
    ['awk \'function f(a) { print > a } { f("/root/x") }\''],
    ['awk \'BEGIN { f = "sys" "tem"; @f("touch x") }\''],
    ['awk \'@include "inplace"; { print }\' f'],
    ['awk \'/[/]/ && NF > 2 { print > "x" }\' f'],
    ['mawk -W exec prog.awk f'],
    ['awk -f prog.awk f'],
    ['sed -f script.sed f'],
  ])('PERM-03: %s may write a file whose name the judge cannot read: it is opaque and asks', (command) => {
    expect(judgeShellCommand(command).opaque).toBe(true);
    expect(decide(command)).toBe('ask');
  });

  it.each([
    ['gzip --bogus y'],
    ['gzip -S "$S" y'],
    ['xz --files=list'],
    ['zstd --filelist list'],
    ['split --bogus x pre'],
    ['patch --bogus p.diff'],
    ['mktemp "$T"'],
    ['ssh-keygen -W x -f k'],
    ['xargs chmod +x < list'],
    ['gpg --use-embedded-filename -d x.gpg'],
  ])(
    'PERM-03: %s writes a file the judge cannot name (an option it does not know, a computed word): it asks',
    (command) => {
      expect(judgeShellCommand(command).writes.some((w) => w.includes(HOLE))).toBe(true);
      expect(decide(command)).toBe('ask');
    },
  );

  it('PERM-03: the same programs reading, or writing in the workspace, the temporary folder or a stream, stay allowed', () => {
    for (const command of [
      "sed -n '1,5p' file",
      "sed 's/a/b/w out.txt' f",
      "sed -n 'w /dev/stdout' f",
      "sed -n 'r /etc/hosts' f",
      "sed --sandbox 'w /root/x' f",
      'sed -i s/a/b/ f',
      "awk '{print $1}' file",
      "awk 'NR > 1 {print $1}' file",
      "awk '$3 > 100' f",
      'awk \'{print $1 > "out.txt"}\' f',
      'awk \'{print "e" > "/dev/stderr"}\' f',
      'awk \'{ if ($1 > 2) print $0 > "big.txt"; else print $0 >> "small.txt" }\' f',
      "awk '{ print (a > b) }' f",
      'awk -v d="$D" \'{print d}\' f',
      "awk -F/ '{print $NF}' f",
      'awk \'BEGIN { FS = ">" } { print $2 }\' f',
      'awk --version',
      'gzip -c file > out.gz',
      'gzip file',
      'gzip -d a.gz',
      'gunzip a.gz',
      'gzip -dc /var/log/x.gz',
      'bzip2 -dk a.bz2',
      'xz -T0 -k f',
      'zstd -19 f',
      'zstd -d a.zst -o a',
      'lz4 -d a.lz4',
      'chmod +x ./script.sh',
      'chmod -R u+w src',
      'chown me:me build',
      'split -b 1M big.bin parts/p',
      'split x',
      'csplit x 1',
      "csplit -f out/part x '/^$/' '{*}'",
      'patch -p1 -i p.diff',
      'patch src/a.c p.diff',
      'patch -p1 < ../fix.diff',
      'mktemp',
      'mktemp -d',
      'mktemp tmp.XXXX',
      'mktemp -t x.XXXX',
      'mktemp -p . x.XXXX',
      "ssh-keygen -t ed25519 -N '' -f ./k",
      'ssh-keygen -lf k.pub',
      'gpg --verify x.sig x',
      'gpg -e -r bob x',
      'gpg -o out.gpg -e x',
      'gpg --list-keys',
    ])
      expect(decide(command), command).toBe('allow');
  });

  it('PERM-03: a rule allowing every command still covers them', () => {
    const all = new PermissionPolicy({ allow: ['Bash(*)'], defaultDecision: 'ask' });
    for (const command of ["sed -n 'w /root/x' f", 'gzip /root/y', "awk '{print > f}' f=x"])
      expect(all.evaluate('bash', { command }, '/w').decision, command).toBe('allow');
  });
});
