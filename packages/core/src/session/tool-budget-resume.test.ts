import type { Fact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { createToolCallBudget } from '../invoker/governance.js';
import { recordToolCallsUsed, TOOL_CALLS_USED_KEY, toolCallsMade } from '../run/run-tool-budget.js';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { closeAfterEach, open } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const echo = (id: string) => ({ id, name: 'echo', args: { text: id } });

describe('budgets.toolCalls across a park', () => {
  it('a resumed run goes on from the calls it made before it parked, nested ones included', async () => {
    const { session, state } = await track(
      open(
        [
          // Two calls: `nest` and the `echo` it makes.
          { tool_calls: [{ id: 'n1', name: 'nest', args: { tool: 'echo', args: { text: 'inner' } } }] },
          // An asked call: the run parks here.
          { tool_calls: [{ id: 'w1', name: 'add', args: { a: 1, b: 2 } }] },
          { tool_calls: [echo('e1'), echo('e2')] },
          { text: 'done' },
        ],
        {
          permissions: { ask: ['add'], defaultDecision: 'allow' },
          confirmation: new ScriptedConfirmationManager(),
          parkMode: 'return',
          budgets: { toolCalls: { limit: 3 } },
        },
      ),
    );
    const parked = await session.send('go');
    expect(parked).toMatchObject({ status: 'parked', parked: { toolId: 'w1' } });
    await session.confirmToolUse('w1', true);
    const done = await session.resumeRun();
    expect(done).toMatchObject({ status: 'completed', runId: parked.runId });
    // The limit is 3 for the whole run: nest, its echo, the approved add; the echoes after it are refused.
    expect(state.executions.map((e) => e.tool)).toEqual(['nest', 'echo', 'add']);
    const refused = session.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => f.payload as { tool_call_id: string; ok: boolean; output: string })
      .filter((p) => p.tool_call_id === 'e1' || p.tool_call_id === 'e2');
    expect(refused).toHaveLength(2);
    for (const p of refused) {
      expect(p.ok).toBe(false);
      expect(p.output).toMatch(/budget 'tool_calls' exhausted: 3 of 3 used/);
    }
  });
});

describe('toolCallsMade (the count a resume starts from)', () => {
  let seq = 0;
  const fact = (type: string, payload: Record<string, unknown>, cause: string | null = null): Fact =>
    ({ seq: ++seq, type, key: `k${seq}`, cause, payload }) as unknown as Fact;
  const result = (id: string, metadata?: Record<string, unknown>, cause = `tool:1:0:${id}`) =>
    fact('tool.result', { tool_call_id: id, name: 'echo', ok: true, output: '', exit_code: 0, metadata }, cause);

  it("reads each call's recorded count, counts a result without one as one call, and only the run's own", () => {
    const facts = [
      fact('run.started', { run_id: 'old' }),
      result('o1', { [TOOL_CALLS_USED_KEY]: 9 }),
      fact('run.started', { run_id: 'r' }),
      result('a', { [TOOL_CALLS_USED_KEY]: 4 }),
      result('b'),
      // A call the model asked for that was denied before it ran (the `infer` transition) is not counted.
      result('c', {}, 'infer:1:0'),
      result('d', { [TOOL_CALLS_USED_KEY]: 'many' }),
    ];
    expect(toolCallsMade(facts, 'r')).toBe(6);
    expect(toolCallsMade(facts, 'old')).toBe(9);
    expect(toolCallsMade(facts, 'unknown')).toBe(0);
  });

  it("the budget's own count replaces any value a tool put in its metadata", () => {
    const budget = createToolCallBudget({ limit: 10 }, 5);
    const metadata: Record<string, unknown> = { [TOOL_CALLS_USED_KEY]: 0 };
    recordToolCallsUsed(metadata, { budget });
    expect(metadata[TOOL_CALLS_USED_KEY]).toBe(5);
    const unbudgeted: Record<string, unknown> = { [TOOL_CALLS_USED_KEY]: 0 };
    recordToolCallsUsed(unbudgeted, {});
    expect(unbudgeted).toEqual({});
  });

  it('a budget created with calls already used refuses past the limit', () => {
    const budget = createToolCallBudget({ limit: 3 }, 2);
    expect(budget.reserve({ toolName: 'echo', source: 'agent' })).toEqual({ ok: true });
    expect(budget.reserve({ toolName: 'echo', source: 'agent' })).toMatchObject({ ok: false, used: 3, limit: 3 });
    expect(() => createToolCallBudget({ limit: 3 }, -1)).toThrow(/calls already used/);
  });
});
