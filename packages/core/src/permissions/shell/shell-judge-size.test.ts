// The judge at the largest command a bash call can carry (128 KiB): every shape a model can send,
// nested as deep as it fits, is judged in bounded time without blowing the stack; what the judge
// cannot read in full is opaque, and a deny or ask rule that holds it says why.
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

const SIZE = 120_000;
const rep = (unit: string): string => unit.repeat(Math.floor(SIZE / unit.length));
const nest = (open: string, inner: string, close: string): string => {
  const n = Math.floor((SIZE - inner.length) / (open.length + close.length));
  return open.repeat(n) + inner + close.repeat(n);
};

/** Commands the judge could not read in full, nested or unclosed as deep as 120 KB allows. */
const DEEP: Record<string, string> = {
  'nested $( )': nest('$(', 'rm -rf /', ')'),
  'nested "$( )"': nest('"$(', 'rm -rf /', ')"'),
  'nested ${ :- }': nest('${a:-', '$(rm -rf /)', '}'),
  'unclosed ${': `echo ${rep('${')}`,
  'nested $(( ))': nest('$((', '1', '))'),
  'nested <( )': nest('<(', 'rm -rf /', ')'),
  'nested find -exec': `${rep('find . -exec ')}rm -rf /`,
  'unclosed ((': rep('(('),
};

/** Long commands the judge reads in full. */
const LONG: Record<string, string> = {
  'one long word': `echo ${'a'.repeat(SIZE)}`,
  'thousands of ;-joined commands': rep('true;'),
  'a line each': rep('a\n'),
  'a heredoc with substitutions': `cat <<EOF\n${rep('l $(a) \n')}EOF\n`,
  'many quotes': `echo ${rep('"a" ')}`,
  'many globs': `echo ${rep('[a ')}`,
  'many case arms': `case x in ${rep('a) true;; ')}esac`,
  'many variables under a long rule': `printf ${rep('$A ')}--end-of-the-options-marker-here`,
};

const policy = new PermissionPolicy({
  allow: ['Bash(echo *)', 'Bash(true)', 'Bash(cat *)', 'Bash(a)', 'Bash(printf ** --end-of-the-options-marker-here)'],
  deny: ['Bash(rm -rf *)', 'Bash(curl *)'],
  ask: ['Bash(git push:*)'],
});

/** `f`'s value and the processor time it took (not wall time: other processes may share the machine). */
function timed<T>(f: () => T): { value: T; ms: number } {
  const t0 = process.cpuUsage();
  const value = f();
  const spent = process.cpuUsage(t0);
  return { value, ms: (spent.user + spent.system) / 1000 };
}

describe('judging a command as large as a bash call can carry', () => {
  it('PERM-02: deep nesting never blows the stack: the command is unreadable, so every deny rule holds it, saying why', () => {
    for (const [shape, command] of Object.entries(DEEP)) {
      const { value: judged, ms } = timed(() => judgeShellCommand(command));
      expect(judged.opaque, shape).toBe(true);
      expect(judged.unreadable, shape).toMatch(/nests? .*deeper than|too long or too intricate/);
      expect(ms, shape).toBeLessThan(2_000);
      const verdict = policy.evaluate('bash', { command }, '/ws');
      expect(verdict.decision, shape).toBe('deny');
      expect(verdict.rule, shape).toMatch(/^Bash\(rm -rf \*\) \(the command could not be read in full: /);
    }
  });

  it('a long command the judge reads in full is judged in well under a second, the rules matched in one pass', () => {
    const slowest: [string, number][] = [];
    for (const [shape, command] of Object.entries(LONG)) {
      // Judged twice afresh (the last judgement is kept: a trailing space makes a new command);
      // the faster of the two, so that one pause of a loaded machine does not decide.
      const first = timed(() => policy.evaluate('bash', { command }, '/ws'));
      const second = timed(() => policy.evaluate('bash', { command: `${command} ` }, '/ws'));
      expect(first.value.rule, shape).not.toMatch(/could not be read/);
      slowest.push([shape, Math.round(Math.min(first.ms, second.ms))]);
    }
    // Each took seconds, or more, before; a loaded machine still judges them well under a second.
    for (const [shape, ms] of slowest) expect(ms, shape).toBeLessThan(1_000);
    expect(policy.evaluate('bash', { command: LONG['one long word']! }, '/ws')).toEqual({
      decision: 'allow',
      rule: 'Bash(echo *)',
    });
  });

  it('a readable command that only names an unknown program keeps the plain rule text', () => {
    expect(policy.evaluate('bash', { command: 'eval "$X"' }, '/ws')).toEqual({
      decision: 'deny',
      rule: 'Bash(rm -rf *)',
    });
  });
});
