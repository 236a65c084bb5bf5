// `/compact` in a3s code with no conversation yet calls no model and records nothing; once the
// session has a conversation it summarises it as before.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

/** Every line of the session logs of `dir`. */
function logged(dir: string): string {
  const logs = join(dir, '.a3s', 'effect-log');
  if (!existsSync(logs)) return '';
  return readdirSync(logs)
    .map((f) => readFileSync(join(logs, f), 'utf8'))
    .join('');
}

describe('a3s code: /compact', () => {
  it('with no conversation yet, says so and neither calls the model nor records a summary', () => {
    const dir = tempRepo();
    const script = scriptFile([{ text: 'THIS IS A MODEL CALL' }]);
    const r = a3s(['code', '--cwd', dir, '--model', `scripted:${script}`], {}, '/compact\n');
    expect(r.status, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('nothing to compact: this session has no conversation yet');
    expect(r.stdout).not.toContain('compacted:');
    expect(logged(dir)).not.toContain('compaction.done');
    expect(logged(dir)).not.toContain('THIS IS A MODEL CALL');
  });

  it('after a prompt, summarises the conversation', () => {
    const dir = tempRepo();
    const script = scriptFile([{ text: 'Hi.' }, { text: 'The user said hello.' }]);
    const r = a3s(['code', '--cwd', dir, '--model', `scripted:${script}`], {}, 'hello\n/compact\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('compacted:');
    expect(logged(dir)).toContain('The user said hello.');
  });
});
