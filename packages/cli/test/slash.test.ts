// The `/` commands of `a3s code`: a mistyped one is answered with the closest command, as a
// mistyped `a3s` command or flag is.
import { describe, expect, it } from 'vitest';
import { slashProblem } from '../src/interactive/slash.js';

describe('a3s code: / commands', () => {
  it('a mistyped command suggests the closest one, and still lists them all', () => {
    expect(slashProblem('/exti')).toMatch(/^unknown command \/exti \(did you mean \/exit\?\); commands: \/help, /);
    expect(slashProblem('/hlep')).toContain('(did you mean /help?)');
    expect(slashProblem('/EXIT')).toContain('(did you mean /exit?)');
    expect(slashProblem('/ultracod fix it')).toContain('(did you mean /ultracode?)');
    expect(slashProblem('/zzzzzz')).toBe(
      'unknown command /zzzzzz; commands: /help, /tools, /mcp, /compact, /save, /resume, /exit, /image, /file, /vibe, /ultracode, /research (/help explains them)',
    );
    expect(slashProblem('/exit')).toBeUndefined();
  });
});
