import { describe, expect, it } from 'vitest';
import { Facts, logWithPrompt, scriptedExecutor, toolDecision } from '../test/kit.js';
import { advance } from './advance.js';
import { drafts } from './drafts.js';
import type { FactDraft } from './fact.js';
import { fold } from './folder.js';
import { createHarness, type Transition } from './harness.js';
import type { FoldState } from './state.js';

const tools = [{ name: 'read', description: 'Read a file', input_schema: { type: 'object' } }];
const NOT_RUN = 'Not run: the tool-round cap was reached.';

/** Calls made on a request that offered no tools: recorded with the model turn, as failed results. */
const capped = (f: Facts, id: string): Facts => f.calls({ id }).result(id, false, 'read', NOT_RUN);

describe('fold: a model that asks for tools past the tool-round cap', () => {
  it('BUD-09: the model is asked once more after calls made without tools; calls made again end the turn', () => {
    const f = new Facts().add('run.started', { run_id: 'r', tools }).user('go');
    f.calls({ id: 'a' }).result('a');
    expect(fold(f.list, { max_tool_rounds: 1 }).phase).toBe('infer');
    capped(f, 'b');
    // One more request, still without tools: the refusal tells the model to answer in text.
    expect(fold(f.list, { max_tool_rounds: 1 })).toMatchObject({ phase: 'infer', view: { tools_enabled: false } });
    capped(f, 'c');
    const s = fold(f.list, { max_tool_rounds: 1 });
    expect(s.phase).toBe('done');
    expect(s.view.tools_enabled).toBe(false);
    expect(s.view.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c', ok: false, output: NOT_RUN });
    expect(s.view.assistant_text).toBe('');
    expect(s.counters.tool_rounds).toBe(1);
  });

  it('a model that answers in text on its second chance ends the turn with that answer', () => {
    const f = new Facts().add('run.started', { run_id: 'r', tools }).user('go');
    capped(f, 'a').text('Answered in text.');
    expect(fold(f.list, { max_tool_rounds: 0 })).toMatchObject({
      phase: 'done',
      view: { assistant_text: 'Answered in text.' },
    });
  });

  it('a cap of 0 ends the turn at the second calls; a new message starts the count again', () => {
    const f = new Facts().add('run.started', { run_id: 'r', tools }).user('go');
    capped(capped(f, 'a'), 'b');
    expect(fold(f.list, { max_tool_rounds: 0 }).phase).toBe('done');
    f.user('go on', 'steer');
    capped(f, 'c');
    expect(fold(f.list, { max_tool_rounds: 0 }).phase).toBe('infer');
    f.user('go on again', 'steer').calls({ id: 'd' });
    // Under a cap of 1 the steer reset the count: this round was offered tools, and it runs.
    expect(fold(f.list, { max_tool_rounds: 1 }).phase).toBe('tool');
  });

  it('a round made while tools were offered still goes on to the model when all its calls fail', () => {
    const f = new Facts().user('go').calls({ id: 'a' }).result('a', false);
    expect(fold(f.list, { max_tool_rounds: 1 }).phase).toBe('infer');
  });
});

describe('advance: the tool-round cap', () => {
  it('BUD-09: a model that keeps calling tools gets two requests without tools, then the run settles (no step limit)', async () => {
    const log = logWithPrompt();
    const script = scriptedExecutor(Array.from({ length: 40 }, (_, i) => toolDecision([`c${i}`])));
    const enabled: boolean[] = [];
    // As the kernel does: calls made on a request without tools are refused in the same transition.
    const execute = async (t: Transition, s: FoldState): Promise<FactDraft[]> => {
      const out = await script.execute(t, s);
      if (t.kind !== 'infer') return out;
      enabled.push(s.view.tools_enabled);
      if (s.view.tools_enabled) return out;
      const turn = out[0]!.payload as { decision: { calls: { id: string; name: string }[] } };
      const results = turn.decision.calls.map((call) =>
        drafts.toolResult(
          { call: { ...call, args: {}, needs_confirmation: false }, turn: t.turn, cycle: t.cycle },
          { ok: false, output: NOT_RUN, exit_code: 1 },
        ),
      );
      return [...out, ...results];
    };
    const harness = createHarness({ max_tool_rounds: 2, tool_budget: 100 });
    const r = await advance({ log, harness, execute });
    expect(r.stop).toBe('settled');
    expect(r.state.phase).toBe('done');
    expect(script.ran).toEqual(['infer:1:0', 'tool:1:0:c0', 'infer:1:1', 'tool:1:1:c1', 'infer:1:2', 'infer:1:3']);
    expect(r.steps).toBe(6);
    expect(enabled).toEqual([true, true, false, false]);
    expect(log.facts.at(-1)).toMatchObject({ type: 'tool.result', cause: 'infer:1:3', payload: { ok: false } });
  });
});
