// "Always" on a3s code's confirmation card covers what the card says and no more: a bash command
// is remembered by its program (later commands are covered only when they run that program alone,
// without a > redirect), a command with no plain program name exactly, any other tool as a whole.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminal } from './confirm-kit.js';
import { a3s, scriptFile, tempRepo } from './kit.js';

const bash = (command: string) => ({ name: 'bash', args: { command } });
describe('a3s code: what "always" covers', () => {
  it('an "always" for a harmless echo never approves rm -rf later in the session', () => {
    const dir = tempRepo();
    const model = scriptFile([
      { tool_calls: [{ id: 'b1', ...bash('echo one') }] },
      { tool_calls: [{ id: 'b2', ...bash('echo two') }] },
      { tool_calls: [{ id: 'b3', ...bash('echo three > out.txt') }] },
      { tool_calls: [{ id: 'b4', ...bash('rm -rf src test; echo gone') }] },
      { text: 'done' },
    ]);
    const r = a3s(['code', '--cwd', dir, '--model', `scripted:${model}`], {}, 'go\na\nn\nn\n');
    const all = `${r.stdout}${r.stderr}`;
    expect(all).toContain(
      "rule: default · [y] yes  [n] no  [a] always for bash commands that run only 'echo', without a > redirect",
    );
    expect(all).toContain(
      "✓ bash allowed (always for bash commands that run only 'echo', without a > redirect; rule 'default')",
    );
    expect(all).toContain('? allow bash echo three > out.txt');
    expect(all).toContain('? allow bash rm -rf src test; echo gone');
    expect(existsSync(join(dir, 'src', 'range.js'))).toBe(true);
    expect(existsSync(join(dir, 'out.txt'))).toBe(false);
  });

  it('judges each later command as Bash(<program>:*) would; a command without a plain program is remembered exactly; other tools as a whole', async () => {
    const root = tempRepo();
    const t = terminal(['a'], root);
    expect(await t.ask('bash', { command: 'echo hi' })).toBe(true);
    for (const command of ['echo again', 'echo a; echo b', '  echo  spaced'])
      expect(await t.ask('bash', { command }), command).toBe(true);
    expect(t.state.asked).toBe(1);
    // Each of these is asked (and refused: no more answers).
    for (const command of [
      'echoo x',
      'echo hi && rm -rf src',
      'echo $(rm -rf src)',
      'echo `rm -rf src`',
      'echo hi | sh',
      'echo x >> src/range.js',
      'env rm -rf src',
      'FOO=1 echo hi',
    ])
      expect(await t.ask('bash', { command }), command).toBe(false);
    expect(t.state.asked).toBe(9);

    const exact = terminal(['a'], root);
    expect(await exact.ask('bash', { command: 'FOO=1 make' })).toBe(true);
    expect(exact.state.printed).toContain('[a] always for this exact command');
    expect(await exact.ask('bash', { command: 'FOO=1 make' })).toBe(true);
    expect(await exact.ask('bash', { command: 'FOO=1 make install' })).toBe(false);
    expect(exact.state.asked).toBe(2);

    const tool = terminal(['a'], root);
    expect(await tool.ask('write', { file_path: 'a.txt', content: 'x' })).toBe(true);
    expect(tool.state.printed).toContain('[a] always for every write call, whatever its arguments');
    expect(await tool.ask('write', { file_path: 'b.txt', content: 'y' })).toBe(true);
    expect(tool.state.asked).toBe(1);
  });
});
