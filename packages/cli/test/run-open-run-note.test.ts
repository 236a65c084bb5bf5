// `a3s run --session <id> "<prompt>"` on a session whose last run is still open (parked at a
// confirmation): the new prompt ends that run, and a note on stderr says so and how the open run
// would have been continued; a session whose runs all ended gets no note. Real executable.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

describe('a new prompt on a session with an open run', () => {
  it('says the open run is recorded as cancelled, and how to continue it instead', () => {
    const dir = tempRepo();
    const script = scriptFile([
      { text: 'Writing.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo hi > made.txt' } }] },
      { text: 'Done.' },
    ]);
    const model = `scripted:${script}`;
    const parked = a3s(['run', '--cwd', dir, '--session', 'p', '--model', model, 'go']);
    expect(parked.status).toBe(3);
    const log = join(dir, '.a3s', 'effect-log', 'p.jsonl');
    const openRun = (parseLog(readFileSync(log, 'utf8')).facts[0]!.payload as { run_id: string }).run_id;
    const again = a3s(['run', '--cwd', dir, '--session', 'p', '--model', model, 'something else']);
    expect(again.stderr).toBe(
      `note: session p had an open run (${openRun}, parked or cut off); this prompt starts a new run and that one is recorded as cancelled (a3s sessions --resume p continues an open run instead)\n`,
    );
    const ended = parseLog(readFileSync(log, 'utf8')).facts.find(
      (f) => f.type === 'run.ended' && (f.payload as { run_id?: string }).run_id === openRun,
    );
    expect(ended?.payload).toMatchObject({ status: 'cancelled' });
    const done = scriptFile([{ text: 'ok' }]);
    expect(a3s(['run', '--cwd', dir, '--session', 'c', '--model', `scripted:${done}`, 'one']).status).toBe(0);
    const next = a3s(['run', '--cwd', dir, '--session', 'c', '--model', `scripted:${done}`, 'two']);
    expect([next.status, next.stderr]).toEqual([0, '']);
  });
});
