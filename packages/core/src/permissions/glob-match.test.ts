import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob.js';
import { compileGlobAutomaton, globMayMatch, globMustMatch } from './glob-match.js';
import { HOLE } from './shell/shell-word.js';

const globs = fc.stringMatching(/^[ab/*?]{0,8}(?::\*)?$/);
const texts = fc.stringMatching(/^[ab/ ]{0,10}$/);

describe('hole-aware glob matching', () => {
  it('PERM-02/PERM-03: without holes, both matchers agree with the compiled glob', () => {
    fc.assert(
      fc.property(globs, texts, (glob, text) => {
        const expected = compileGlob(glob).test(text);
        const automaton = compileGlobAutomaton(glob);
        expect(globMayMatch(automaton, text)).toBe(expected);
        expect(globMustMatch(automaton, text)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('PERM-02/PERM-03: a hole may match when some filling matches, must match when every filling does', () => {
    const fillings = ['', 'a', 'b', '/', 'ab', 'a/b', '//', 'ba/'];
    fc.assert(
      fc.property(globs, texts, texts, (glob, before, after) => {
        const regex = compileGlob(glob);
        const automaton = compileGlobAutomaton(glob);
        const subject = `${before}${HOLE}${after}`;
        const filled = fillings.map((f) => regex.test(`${before}${f}${after}`));
        // Some sampled filling matches → the hole may match; the hole must match → every sample matches.
        if (filled.some(Boolean)) expect(globMayMatch(automaton, subject)).toBe(true);
        if (globMustMatch(automaton, subject)) expect(filled.every(Boolean)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('PERM-03: prefix rules cover any arguments; a hole in the command name is covered only by **', () => {
    expect(globMustMatch(compileGlobAutomaton('npm test:*'), `npm test ${HOLE}`)).toBe(true);
    expect(globMustMatch(compileGlobAutomaton('npm test *'), `npm test ${HOLE}`)).toBe(false);
    expect(globMustMatch(compileGlobAutomaton('**'), HOLE)).toBe(true);
    expect(globMustMatch(compileGlobAutomaton('*'), HOLE)).toBe(false);
    expect(globMayMatch(compileGlobAutomaton('rm -rf /'), `rm -rf ${HOLE}`)).toBe(true);
    expect(globMayMatch(compileGlobAutomaton('rm -rf /'), `rm -r ${HOLE}`)).toBe(false);
  });

  it('a long subject with thousands of holes is matched in time linear in its length', () => {
    const glob = compileGlobAutomaton('echo ** --end-of-the-options-marker-here');
    const subject = `echo ${`${HOLE} `.repeat(30_000)}--end-of-the-options-marker-here`;
    const t0 = process.cpuUsage();
    expect(globMustMatch(glob, subject)).toBe(true);
    expect(globMayMatch(glob, subject)).toBe(true);
    expect(globMustMatch(glob, `${subject}x`)).toBe(false);
    const spent = process.cpuUsage(t0);
    expect((spent.user + spent.system) / 1000).toBeLessThan(1_000);
  });
});
