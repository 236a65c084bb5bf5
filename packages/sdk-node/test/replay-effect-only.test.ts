// The log a live session wrote, replayed by another process that loads only @a3s-code/effect,
// folds to the very state the live session holds: after tool calls, a refused confirmation, a
// compaction, a run cancelled through its AbortSignal, and a run the close stopped.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

const effectDist = join(import.meta.dirname, '..', '..', 'effect', 'dist', 'index.js');

/** The state folded from the log file by a separate Node process with nothing but the effect package. */
function replayElsewhere(logPath: string): unknown {
  const script = `import { readFileSync } from 'node:fs';
    import { fold, parseLog } from ${JSON.stringify(effectDist)};
    process.stdout.write(JSON.stringify(fold(parseLog(readFileSync(process.argv[1], 'utf8')).facts)));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, logPath], { encoding: 'utf8' }),
  );
}

const live = (s: Session): unknown => JSON.parse(JSON.stringify(s.state));

describe('replay with the effect package alone', () => {
  it('FOLD-04: the log folds in another process to the live state after each kind of run', async () => {
    const dir = tempRepo();
    const model = new ScriptedLlmClient([
      {
        text: 'Looking.',
        tool_calls: [
          { id: 'r1', name: 'read', args: { file_path: 'README.md' } },
          { id: 'g1', name: 'grep', args: { pattern: 'range' } },
        ],
      },
      { text: 'Found it.' },
      { tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'x.txt', content: 'x' } }] },
      { text: 'summary of the work so far' },
      { delay_ms: 10_000, text: 'never' },
      { delay_ms: 10_000, text: 'never either' },
    ]);
    const agent = await Agent.create({ model });
    const s = await agent.session(dir, {
      sessionId: 'replay',
      permissions: { allow: ['read', 'grep'] },
      onConfirm: () => ({ approved: false, reason: 'not now' }),
    });
    const checks: string[] = [];
    const check = (label: string) => {
      expect(replayElsewhere(s.logPath!), label).toEqual(live(s));
      checks.push(label);
    };
    expect((await s.send('find range')).status).toBe('completed');
    check('tool calls');
    await s.send('write x');
    check('refused confirmation');
    await s.compact();
    check('compaction');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect((await s.send('slow', { signal: ac.signal })).status).toBe('cancelled');
    check('cancelled run');
    const run = s.send('slow again');
    await new Promise((r) => setTimeout(r, 100));
    await s.close();
    await run;
    expect(replayElsewhere(s.logPath!)).toEqual(live(s));
    const reopened = await agent.session(dir, { sessionId: 'replay' });
    expect(replayElsewhere(reopened.logPath!)).toEqual(live(reopened));
    expect(reopened.state.phase).toBe('idle');
    await reopened.close();
    expect(checks).toHaveLength(4);
  });
});
