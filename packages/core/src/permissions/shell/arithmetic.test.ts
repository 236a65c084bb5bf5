import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

const policy = new PermissionPolicy({ allow: ['Bash(*)'], deny: ['Bash(rm:*)'], defaultDecision: 'deny' });
const decide = (command: string) => policy.evaluate('bash', { command }, '/w').decision;

// Each evaluates the value of x (or of a variable naming it) as arithmetic, where `a[$(rm y)]` runs rm
// (or, for `${x@P}`, expands it as a prompt, which runs the `$(…)` in it).
const EVALUATING = [
  '(( x ))',
  '((x)) && echo y',
  'echo $((x))',
  'echo $(($x))',
  'echo $(( "x" ))',
  'echo $[x]',
  '[[ $x -eq 1 ]]',
  '[[ 1 -eq x ]]',
  'let x',
  "let 'n=x'",
  'X=1 let x',
  'builtin let x',
  'command let x',
  'declare -i n=$x',
  'declare -i n; n=$x',
  'arr=(1 2); echo ${arr[$x]}',
  's=abc; echo ${s:$x}',
  'set -- a b; echo ${@:$x}',
  'a=(1 2); echo ${a[@]:x}',
  'a=(); a[$x]=1',
  'a=(1); a[x]+=1',
  "read 'a[x]' <<< 1",
  "printf -v 'a[x]' 1",
  'printf -v "$x" 1',
  'declare "$x"=1',
  'read "$x" <<< 1',
  'a=(1 2); unset "$x"',
  '[ -v "$x" ]',
  'test -v "$x"',
  '[[ -v $x ]]',
  'echo "${x@P}"',
  "read -rp 'go on? ' 'a[x]' <<< 1",
  '[ -v "a[$x]" ]',
  'echo ${!x}',
  'b=x; echo $((b))',
  'declare -n r=x; echo $((r))',
  'for ((i=0; i<x; i++)); do :; done',
  '(( 0 ? (x=0) : 0 , x ))',
  'echo "$(( $(cat f) + 1 ))"',
  'cat <<EOF\n$((x))\nEOF',
];

describe('arithmetic evaluates variables, and a value like a[$(cmd)] runs cmd', () => {
  it.each(EVALUATING)('PERM-02: %j, after x is read from a file, is opaque and does not beat Bash(rm:*)', (tail) => {
    const command = `read -r x < f; ${tail}`;
    const judged = judgeShellCommand(command);
    expect(judged.opaque).toBe(true);
    expect(judged.unreadable).toMatch(/it evaluates .* as arithmetic/);
    expect(decide(command)).toBe('deny');
    expect(policy.evaluate('bash', { command }, '/w').rule).toMatch(
      /could not be read in full: it evaluates .* as arithmetic/,
    );
  });

  it('PERM-02: a compound array assignment with a subscript is opaque too', () => {
    expect(decide('read -r x < f; a=([$x]=1)')).toBe('deny');
  });

  it.each([
    'for ((i=0; i<10; i++)); do echo hi; done',
    '(( i = 0, i < 3 )) && echo y',
    'echo $((1+2)) $(( 16#ff + 0x1f + 2#101 ))',
    '[[ $# -gt 0 ]] && echo y',
    '[[ ${#arr[@]} -gt 0 ]]',
    'echo $((RANDOM % 6)) $(( $# + 1 )) $((SECONDS))',
    '[ "$n" -gt 0 ] && test $n -lt 9',
    '[[ $x == 1 && -n "$x" ]]',
    'echo ${#x} ${x:-d} ${x:0:1} ${x: -1} ${arr[0]} ${arr[-1]} ${arr[@]} ${!arr[@]} ${!pre*} ${f%.*} ${f/a/b}',
    'a[0]=1; declare -a arr; declare y=1; local z; read -r line < f',
    'printf "%d" "$x"',
    "printf '%s\\n' 'arr[i]'",
    "read -p 'go on [y/n]? ' answer",
  ])('PERM-03: %j evaluates no value from outside the line, so it stays readable', (command) => {
    expect(judgeShellCommand(command).opaque).toBe(false);
    expect(decide(command)).toBe('allow');
  });

  it.skipIf(process.platform === 'win32')(
    'the attack the rule closes is real: bash runs the command in the value (checked with a harmless touch)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'a3s-arith-'));
      writeFileSync(join(dir, 'f'), 'a[$(touch ran)]\n');
      execFileSync('bash', ['-c', 'read -r x < f; (( x )) || true'], { cwd: dir });
      expect(existsSync(join(dir, 'ran'))).toBe(true);
      expect(decide('read -r x < f; (( x )) || true')).toBe('deny');
    },
  );
});
