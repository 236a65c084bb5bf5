import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

const denyRm = new PermissionPolicy({ allow: ['Bash(*)'], deny: ['Bash(rm:*)'], defaultDecision: 'deny' });
const decide = (command: string) => denyRm.evaluate('bash', { command }, '/w').decision;

describe('launchers and make', () => {
  it.each([
    'chronic rm x',
    'chronic -e rm x',
    'eatmydata rm x',
    'faketime "2020-01-01 00:00:00" rm x',
    'faketime -f "+1d" rm x',
    'numactl -N 0 rm x',
    'numactl --membind=0 -- rm x',
    'prlimit --nofile=10 rm x',
    'prlimit -n10 -p 1 rm x',
    'schedtool -B -e rm x',
    'torsocks rm x',
    'proxychains -q rm x',
    'proxychains4 -f p.conf rm x',
    'tsocks rm x',
    'conda run -n env rm x',
    'pipenv run rm x',
    'pdm run rm x',
    'hatch run rm x',
    'rye run rm x',
    'direnv exec . rm x',
    'bun x rm x',
    'sem rm x',
    'mpirun -np 2 rm x',
    'srun rm x',
    'capsh -- -c "rm x"',
    'runcon -t t rm x',
    'torsocks --shell',
    '/lib64/ld-linux-x86-64.so.2 /usr/bin/rm x',
    'ld-linux-aarch64.so.1 --library-path /lib rm x',
    '/lib/ld-musl-x86_64.so.1 --preload p.so /bin/rm x',
    'ld.so --argv0 sh rm x',
  ])('PERM-02: %j does not beat Bash(rm:*)', (command) => {
    expect(decide(command)).toBe('deny');
  });

  it.each([
    'make --eval="all:; rm x"',
    'make -E "all:; rm x"',
    'make -f - <<< "all:; rm x"',
    'make -sf /dev/stdin <<< "all:; rm x"',
    'make --file=/dev/fd/0',
  ])('PERM-02: rules make reads from its command line or its input are opaque: %j', (command) => {
    expect(judgeShellCommand(command).opaque).toBe(true);
    expect(decide(command)).toBe('deny');
  });

  it('PERM-03: everyday launches stay judged as the command they run', () => {
    for (const command of ['make -f Makefile test', 'make -C sub -j4 test', 'chronic make', 'pipenv run pytest']) {
      expect(judgeShellCommand(command).opaque, command).toBe(false);
      expect(decide(command), command).toBe('allow');
    }
    expect(judgeShellCommand('pipenv run pytest -q').subjects).toContain('pytest -q');
    expect(judgeShellCommand('conda run -n env python3 -m pytest').subjects).toContain('python3 -m pytest');
    expect(judgeShellCommand('/lib64/ld-linux-x86-64.so.2 --list /usr/bin/ls').subjects).toContain('ls');
  });
});
