// The `/` commands of `a3s code`: a mistyped one is answered with the closest command, as a
// mistyped `a3s` command or flag is; /file and /image take a quoted path.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { slashProblem } from '../src/interactive/slash.js';
import { a3s, scriptFile, tempRepo } from './kit.js';

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

  it('/file and /image take a path in quotes, as a terminal pastes a dragged file with a space in its name', () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'my file.txt'), 'the contents\n');
    const model = `scripted:${scriptFile([{ text: 'ok' }, { text: 'ok' }])}`;
    const r = a3s(
      ['code', '--model', model, '--cwd', dir],
      { NO_COLOR: '1' },
      '/file "my file.txt"\nwhat is in it\n/file \'my file.txt\'\nand now\n/file ""\n',
    );
    expect(r.stderr).not.toContain('no such file');
    expect(r.stderr).toContain('usage: /file <path>');
    const log = readdirSync(join(dir, '.a3s', 'effect-log')).find((f) => f.endsWith('.jsonl'))!;
    const text = readFileSync(join(dir, '.a3s', 'effect-log', log), 'utf8');
    expect(text.split('"name":"my file.txt"').length - 1).toBe(2);
  });
});
