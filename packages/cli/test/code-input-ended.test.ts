// `a3s code` whose input ends (a pipe, Ctrl-D) while a confirmation waits: the call is refused,
// and the card and the log say that nobody answered, never "refused by you". Through the real
// executable with the prompt piped in.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

describe('a3s code when its input ends at a confirmation', () => {
  it('the call is refused for want of an answer, not by the person', () => {
    const dir = tempRepo();
    const script = scriptFile([
      { text: 'Writing.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo hi > made.txt' } }] },
      { text: 'Done.' },
    ]);
    const r = a3s(['code', '--cwd', dir, '--session', 'c1', '--model', `scripted:${script}`], {}, 'go\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('✗ refused: no answer: the input ended before one was typed');
    expect(r.stdout).not.toContain('refused by you');
    expect(r.stdout).toContain('· 1 refused ·');
    expect(readdirSync(dir)).not.toContain('made.txt');
    const log = readFileSync(join(dir, '.a3s', 'effect-log', 'c1.jsonl'), 'utf8');
    expect(log).toContain('no answer: the input ended before one was typed');
    // A typed "n" is still the person's own no.
    const no = a3s(['code', '--cwd', dir, '--session', 'c2', '--model', `scripted:${script}`], {}, 'go\nn\n');
    expect(no.stdout).toContain('✗ refused by you');
  });
});
