import { describe, expect, it } from 'vitest';
import { logWithPrompt, scriptedExecutor, toolDecision } from '../test/kit.js';
import { advance } from './advance.js';
import { FactLog } from './fact-log.js';
import { createHarness } from './harness.js';

describe('fact-log control', () => {
  it('LOG-01: the next step comes only from folding the log: equal logs pick the same transition', async () => {
    const a = logWithPrompt();
    const exA = scriptedExecutor([toolDecision(['c1', 'c2'])]);
    await advance({ log: a, harness: createHarness(), execute: exA.execute, limit: 2 }).catch(() => undefined);
    // A fresh process (new log object, new harness, nothing in memory) over the same facts:
    const b = new FactLog(a.facts.map((f) => ({ ...f })));
    const seen: string[] = [];
    await advance({
      log: b,
      harness: createHarness(),
      execute: async (t) => {
        seen.push(t.key);
        throw new Error('stop');
      },
    }).catch(() => undefined);
    const seenAgain: string[] = [];
    await advance({
      log: a,
      harness: createHarness(),
      execute: async (t) => {
        seenAgain.push(t.key);
        throw new Error('stop');
      },
    }).catch(() => undefined);
    expect(seen).toEqual(['tool:1:0:c2']);
    expect(seenAgain).toEqual(seen);
  });

  it('LOG-03: a run moves only by appending: every earlier fact and the prefix digest stay the same', async () => {
    const log = logWithPrompt();
    const before = log.facts.map((f) => f);
    const digestBefore = log.digest();
    await advance({
      log,
      harness: createHarness(),
      execute: scriptedExecutor([toolDecision(['c1']), { kind: 'text', text: 'ok' }]).execute,
    });
    expect(log.facts.slice(0, before.length)).toEqual(before);
    expect(log.facts.slice(0, before.length).every((f, i) => f === before[i])).toBe(true);
    expect(new FactLog(log.facts.slice(0, digestBefore.seq)).digest()).toEqual(digestBefore);
    expect(log.length).toBe(4);
  });

  it('LOG-04: a new prompt enters by appending user.message (ingest); an existing log continues by advancing it (resume)', async () => {
    const log = new FactLog();
    log.append([{ type: 'user.message', key: 'user:1', payload: { text: 'one', source: 'user' } }], null);
    const ex = scriptedExecutor([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ]);
    expect((await advance({ log, harness: createHarness(), execute: ex.execute })).state.view.assistant_text).toBe(
      'first',
    );
    log.append([{ type: 'user.message', key: 'user:2', payload: { text: 'two', source: 'user' } }], null);
    const r = await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(r.state.view.assistant_text).toBe('second');
    expect(ex.ran).toEqual(['infer:1:0', 'infer:2:0']);
  });
});
