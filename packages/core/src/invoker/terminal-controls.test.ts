import { describe, expect, it } from 'vitest';
import { stripTerminalControls, terminalText, visibleText } from './terminal-controls.js';

describe('terminal controls', () => {
  it('terminalText removes whole sequences, visibleText removes nothing and marks every control', () => {
    const osc = 'git status \u001b]0; touch PWNED\u0007';
    expect(terminalText(osc)).toBe('git status ');
    expect(visibleText(osc)).toBe('git status ^[]0; touch PWNED^G');
    const dcs = 'echo ok \u001bP; touch X';
    expect(visibleText(dcs)).toBe('echo ok ^[P; touch X');
    expect(visibleText('a\u001b[31mred\u001b[0m')).toBe('a^[[31mred^[[0m');
    expect(stripTerminalControls('a\u001b[31mred\u001b[0m')).toBe('ared');
  });

  it('visibleText marks what reorders or hides text, a lone CR and line separators; keeps tabs and newlines', () => {
    expect(visibleText('ls \u202e; rm x')).toBe('ls <U+202E>; rm x');
    expect(visibleText('a\u200bb\u2028c\ufeff')).toBe('a<U+200B>b<U+2028>c<U+FEFF>');
    expect(visibleText('one\r\ntwo\rthree\tfour\n')).toBe('one\ntwo^Mthree\tfour\n');
    expect(visibleText('plain text')).toBe('plain text');
    expect(visibleText('\u009b31m')).toBe('<U+009B>31m');
  });
});
