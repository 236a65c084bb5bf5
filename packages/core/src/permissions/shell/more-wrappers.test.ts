import { describe, expect, it } from 'vitest';
import { judgeShellCommand } from './shell-judge.js';
import { renderSubject } from './shell-word.js';

const subjects = (command: string): string[] => judgeShellCommand(command).subjects.map(renderSubject);

describe('commands that run another command, beyond the common wrappers', () => {
  it('PERM-02: tracers, lock and scheduling tools and package runners yield the command they run', () => {
    for (const command of [
      'strace rm x',
      'strace -f -o log.txt rm x',
      'ltrace -e malloc rm x',
      'valgrind --tool=memcheck --leak-check=full rm x',
      'catchsegv rm x',
      'flock /tmp/lock rm x',
      'flock -w 5 /tmp/lock rm x',
      'flock /tmp/lock -c "rm x"',
      'taskset 0x1 rm x',
      'taskset -c 0,1 rm x',
      'chrt -f 10 rm x',
      'unshare --user --map-root-user rm x',
      'nsenter -t 1 -m rm x',
      'fakeroot -- rm x',
      'firejail --quiet rm x',
      'xvfb-run -a rm x',
      'dbus-launch --exit-with-session rm x',
      'ssh-agent rm x',
      "script -q -c 'rm x' /dev/null",
      'npx rm x',
      'npx --yes -p rimraf rm x',
      "npx -c 'rm x'",
      'bunx rm x',
      'npm exec -- rm x',
      'npm x rm x',
      'pnpm exec rm x',
      'pnpm exec -c rm x',
      'yarn exec rm x',
      'uv run --with requests rm x',
      'uvx --from pkg rm x',
      'poetry run rm x',
      'bundle exec rm x',
      "nix-shell -p hello --run 'rm x'",
      'gdb --args rm x',
    ])
      expect(subjects(command), command).toContain('rm x');
  });

  it('PERM-02: programs that run commands given elsewhere, or options the judge does not know, are opaque', () => {
    for (const command of [
      'strace --bogus rm x',
      'unshare',
      'script out.txt',
      "gdb -batch -ex 'shell rm x'",
      "vim -c '!rm x' f",
      "vim +'!rm x' f",
      'emacs --batch --eval "(shell-command \\"rm x\\")"',
      "ed f <<< '!rm x'",
      'at now',
      'parallel rm ::: x',
      'tmux new-session -d "rm x"',
      'screen -dm rm x',
      "csh -c 'rm x'",
      "tcsh -c 'rm x'",
      "pwsh -c 'Remove-Item x'",
      'nix-shell -p hello',
      'npx --unknown-flag rm x',
      // bun stays a JavaScript interpreter: inline code that starts processes is opaque.
      `bun -e 'require("child_process").execSync("rm x")'`,
      'perf stat rm x',
      'perf record -g -- rm x',
      'perf trace rm x',
      "socat - EXEC:'rm x'",
      "socat TCP-LISTEN:80 SYSTEM:'rm x'",
      'socat - "$ADDR"',
      "fzf --preview 'rm {}'",
      "fzf --bind 'enter:execute(rm {})'",
      'openssl req -engine ./evil.so',
      // Given their input instead of a terminal, these read commands from it.
      "gdb ./a.out <<< 'shell rm x'",
      'gdb -batch ./a.out < cmds',
      'cat cmds | gdb ./a.out',
      "vim f <<< ':!rm x'",
      'lldb ./a.out < cmds',
      // Input given to a group, a subshell, a loop, a shell's -c code, the shell itself or a coprocess.
      "{ vi; } <<< ':!rm x'",
      "(gdb -batch) <<< 'shell rm x'",
      "for i in 1; do gdb; done <<< 'shell rm x'",
      "sh -c 'gdb' <<< 'shell rm x'",
      "bash -c 'vi' <<< ':!rm x'",
      'exec < cmds; gdb',
      "coproc gdb; echo 'shell rm x' >&${COPROC[1]}",
      'ssh-keygen -D ./evil.so',
    ])
      expect(judgeShellCommand(command).opaque, command).toBe(true);
  });

  it('PERM-02: ordinary uses stay judged by what they name', () => {
    expect(subjects('npm test')).toEqual(['npm test']);
    expect(subjects('pnpm install')).toEqual(['pnpm install']);
    expect(subjects('npx vitest run')).toEqual(['vitest run', 'npx vitest run']);
    expect(subjects('uv run pytest -q')).toEqual(['pytest -q', 'uv run pytest -q']);
    expect(subjects('vim --version')).toEqual(['vim --version']);
    expect(subjects('tmux ls')).toEqual(['tmux ls']);
    expect(subjects('taskset -p 1234')).toEqual(['taskset -p 1234']);
    for (const command of [
      'npm test',
      'npx vitest run',
      'gdb -batch ./a.out',
      'vim f',
      'screen -ls',
      'csh --version',
      'perf report -i perf.data',
      'perf --version',
      'socat - TCP:localhost:80',
      'fzf --height 40%',
      'openssl sha256 f',
      'gdb -batch ./a.out > out.txt 2>&1',
      'ssh-keygen -t ed25519 -f k',
    ])
      expect(judgeShellCommand(command).opaque, command).toBe(false);
  });
});
