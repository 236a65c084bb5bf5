// Prompt bytes that are not valid UTF-8, given as an argument or typed into `a3s code`: the CLI
// receives them replaced by U+FFFD, so the prompt is not sent (the model would get lost
// characters); the message says why and how to convert. `a3s run -` checks the raw bytes (run.test.ts).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { A3S, a3s, loggedPrompts, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';

const model = () => `scripted:${scriptFile([{ text: 'Hello.' }, { text: 'Hello again.' }])}`;

describe('a prompt that is not valid UTF-8', () => {
  it('a3s run "<bytes>": exit 2, one line naming U+FFFD and the way out, nothing logged', () => {
    const dir = tempRepo();
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
    delete env.A3S_MODEL;
    const r = spawnSync(
      'bash',
      ['-c', 'node "$1" run --model "$2" --cwd "$3" "$(printf "fix the \\xff\\xfe bug")"', 'sh', A3S, model(), dir],
      { encoding: 'utf8', env },
    );
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^a3s run: the prompt holds U\+FFFD at character 8, the mark of bytes that were not valid UTF-8 .*iconv -f latin1 -t utf-8/,
    );
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(loggedPrompts(dir)).toBe(0);
  });

  it('a3s code: the line is not sent, the next one is', () => {
    const dir = tempRepo();
    const input = Buffer.concat([Buffer.from('fix \xff bug\n', 'latin1'), Buffer.from('say hello\n')]);
    const r = a3s(['code', '--model', model(), '--cwd', dir], { NO_COLOR: '1' }, input);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('not sent: this prompt holds U+FFFD at character 4');
    expect(r.stdout).toMatch(/^Hello\.\ncompleted/);
    expect(loggedPrompts(dir)).toBe(1);
  });
});
