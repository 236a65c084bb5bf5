import { describe, expect, it } from 'vitest';
import { styleFor } from '../src/style.js';

const coloured = (isTTY: boolean, env: Record<string, string>) => styleFor({ isTTY }, env).red('x') !== 'x';

describe('when the CLI colours its output', () => {
  it('on a terminal, unless NO_COLOR is set or the terminal is dumb', () => {
    expect(coloured(true, {})).toBe(true);
    expect(coloured(true, { TERM: 'xterm-256color' })).toBe(true);
    expect(coloured(true, { NO_COLOR: '1' })).toBe(false);
    expect(coloured(true, { TERM: 'dumb' })).toBe(false);
    expect(coloured(false, {})).toBe(false);
  });
});
