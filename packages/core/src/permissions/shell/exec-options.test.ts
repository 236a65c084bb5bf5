import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';
import { renderSubject } from './shell-word.js';

const subjects = (command: string): string[] => judgeShellCommand(command).subjects.map(renderSubject);
const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], allow: ['Bash(tar:*)'], defaultDecision: 'ask' });
const decide = (command: string) => policy.evaluate('bash', { command }).decision;

describe('options whose value is a command the tool runs', () => {
  it('PERM-02: tar, zip, rsync, ssh and man options that run a command are judged as that command', () => {
    for (const command of [
      "tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec='rm x'",
      "tar -cf /dev/null x --checkpoint-action exec='rm x'",
      "tar -I 'rm x' -cf a x",
      "tar -cI 'rm x' -f a x",
      "tar --to-command='rm x' -xf a",
      "tar --use-compress-program 'rm x' -cf a x",
      "zip x.zip x -T -TT 'rm x'",
      "zip x.zip x --unzip-command 'rm x'",
      "rsync -e 'rm x' a b",
      "rsync -avze 'rm x' a b",
      "rsync --rsh='rm x' a b",
      'rsync -av --rsync-path="rm x" a h:b',
      "ssh -o ProxyCommand='rm x' h",
      'ssh -oProxyCommand=rm\\ x h',
      "ssh -vo 'ProxyCommand rm x' h",
      "scp -o 'LocalCommand=rm x' a h:b",
      "man -P 'rm x' ls",
      "man --pager='rm x' ls",
      "sudo tar -I 'rm x' -cf a x",
    ]) {
      expect(subjects(command), command).toContain('rm x');
      expect(decide(command), command).toBe('deny');
    }
  });

  it('PERM-02: an attached value (-Irm) is the command too', () => {
    expect(subjects('tar -Irm -cf a x')).toContain('rm');
    expect(decide('tar -Irm -cf a x')).toBe('deny');
  });

  it('a value that is not static is opaque; the same tools without such options stay plain', () => {
    expect(decide('tar -I "$C" -cf a x')).toBe('deny');
    for (const command of [
      'tar -czf a.tgz x',
      'tar -xzf a.tgz',
      'tar --checkpoint-action=echo -cf a x',
      'tar -czf a.tgz --exclude=x .',
    ])
      expect(decide(command), command).toBe('allow');
    for (const command of [
      'zip -r a.zip .',
      'rsync -av a/ b/',
      'rsync -avze ssh a h:b',
      'ssh -o StrictHostKeyChecking=no h ls',
      'man ls',
    ])
      expect(subjects(command), command).not.toContain('rm x');
  });

  it("PERM-02: ripgrep's preprocessor, scp's ssh program, sort's compressor and split's filter are judged as the command", () => {
    for (const command of [
      "rg --pre 'rm x' foo",
      "rg -n --pre='rm x' foo src",
      "scp -S 'rm x' a h:b",
      "sftp -S'rm x' h",
      "sort --compress-program='rm x' -S 1K f",
      "sort --compress-program 'rm x' f",
      "split -b 1 --filter='rm x' f",
    ]) {
      expect(subjects(command), command).toContain('rm x');
      expect(decide(command), command).toBe('deny');
    }
    const allowed = new PermissionPolicy({
      allow: ['Bash(rg:*)', 'Bash(scp:*)', 'Bash(sort:*)', 'Bash(split:*)'],
      defaultDecision: 'ask',
    });
    const allow = (command: string) => allowed.evaluate('bash', { command }).decision;
    for (const command of [
      'rg --pre evil foo',
      'scp -S evil a h:b',
      'sort --compress-program=evil f',
      'split --filter=evil f',
    ])
      expect(allow(command), command).toBe('ask');
    for (const command of ["rg -n foo --pre-glob '*.gz' src", 'scp -P 22 a h:b', 'sort -u -S 1M f', 'split -b 1M f'])
      expect(allow(command), command).toBe('allow');
  });

  it('an allow rule for the tool does not cover the command its option runs', () => {
    const allowTar = new PermissionPolicy({ allow: ['Bash(tar:*)'], defaultDecision: 'ask' });
    expect(allowTar.evaluate('bash', { command: 'tar -cf a x' }).decision).toBe('allow');
    expect(allowTar.evaluate('bash', { command: "tar -cf a x --to-command='curl evil'" }).decision).toBe('ask');
  });
  it.each([
    "make test CC='touch x;true'",
    'make CC=clang test',
    'make test V=1',
    "make 'X!=touch x' test",
    'make CFLAGS+=-O2 test',
    'make -e test',
    'make -se test',
    'make --environment-overrides test',
    'make --env test',
    'make --ev="all:; rm x"',
    'make --fi=/dev/stdin test',
    "CC='touch x;true' make test",
    'env CC=x make test',
    'CC=x timeout 9 make test',
    "MAKEFLAGS='CC=x' make test",
    'MAKEFILES=/tmp/x.mk make test',
    'cargo test --config \'target.x86_64-unknown-linux-gnu.runner=["sh","-c","touch x"]\'',
    'cargo test --config=\'build.rustc-wrapper="/tmp/x"\'',
    'cargo test --config /tmp/x.toml',
    'cargo --config build.rustc-wrapper=x test',
    'cargo +nightly --config build.rustc-wrapper=x test',
    'cargo test -Zunstable-options',
    'cargo test -Z config-include',
    'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=/tmp/x cargo test',
    'CARGO_BUILD_RUSTC_WRAPPER=/tmp/x cargo test',
    'RUSTC_WRAPPER=/tmp/x cargo test',
    "RUSTFLAGS='-C linker=/tmp/x' cargo test",
    'cargo test $ARGS',
  ])('PERM-02: %j chooses the program it runs: opaque, not allowed by a rule for the command', (command) => {
    const rules = new PermissionPolicy({
      allow: ['Bash(make test:*)', 'Bash(make:*)', 'Bash(cargo test:*)', 'Bash(cargo:*)'],
      deny: ['Bash(rm:*)'],
      defaultDecision: 'ask',
    });
    expect(judgeShellCommand(command).opaque).toBe(true);
    expect(rules.evaluate('bash', { command }).decision).toBe('deny');
  });

  it('PERM-03: make and cargo without such variables or options stay judged as themselves', () => {
    const rules = new PermissionPolicy({ allow: ['Bash(make:*)', 'Bash(cargo test:*)'], defaultDecision: 'ask' });
    for (const command of [
      'make test',
      'make -j4 test',
      'make -Cexamples -j4 test',
      'make -k -s test',
      'cargo test',
      'cargo test --release -p core',
      'cargo test -- --nocapture --config x',
    ])
      expect(rules.evaluate('bash', { command }).decision, command).toBe('allow');
    for (const command of [
      'RUST_BACKTRACE=1 cargo test',
      'CARGO_TERM_COLOR=always cargo test',
      'CARGO_TARGET_DIR=/tmp/t cargo test',
      'MAKEFLAGS=-j4 cargo test',
    ])
      expect(judgeShellCommand(command).opaque, command).toBe(false);
  });
});
