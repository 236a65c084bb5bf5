// A schema the model writes (generate_object's `schema`, a dynamic workflow's generation step)
// that would be exponential to check is refused with a reason before any generation runs, and
// the host's timers keep firing; a recursive schema still generates.
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';
import { chainSchema, doublingSchema } from '../tools/test-support/costly-schemas.js';
import { WorkflowDefinitionError } from '../workflow/workflow-errors.js';
import { validateWorkflow } from '../workflow/workflow-graph.js';

const { sessions } = closeAfterEach();

/** Runs `fn` while a 20 ms timer ticks; its result and the longest pause of the timer, in ms. */
async function longestPause<T>(fn: () => Promise<T>): Promise<{ value: T; pause: number }> {
  let last = performance.now();
  let pause = 0;
  const tick = setInterval(() => {
    pause = Math.max(pause, performance.now() - last);
    last = performance.now();
  }, 20);
  try {
    const value = await fn();
    return { value, pause: Math.max(pause, performance.now() - last) };
  } finally {
    clearInterval(tick);
  }
}

describe('costly schemas written by the model', () => {
  it('GENOBJ-01: generate_object refuses a chain of anyOf branches in its arguments before asking for a value; the host keeps running', async () => {
    const { session, model } = await open([
      { tool_calls: [{ id: 'g', name: 'generate_object', args: { schema: chainSchema(), prompt: 'Look up an id' } }] },
      { text: 'gave up' },
    ]);
    sessions.push(session);
    const { value, pause } = await longestPause(() => session.send('find it'));
    expect(value.text).toBe('gave up');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
    };
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(
      /^generate_object: args\.schema: is not a valid JSON Schema: the schema is too costly to check: the value at \/x \(1 level deep\) would be checked against \d+ subschemas, and at most 1000 are allowed per value/,
    );
    // No generation was asked for: the two requests are the run's own.
    expect(model.requests).toHaveLength(2);
    expect(pause).toBeLessThan(500);
  });

  it('a recursive schema still generates and is checked', async () => {
    const tree = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
    };
    const { session } = await open([
      { tool_calls: [{ name: 'result', args: { root: { children: [{ children: [] }] } } }] },
    ]);
    sessions.push(session);
    const r = await session.tool('generate_object', { schema: tree, prompt: 'a tree' });
    expect(r.ok).toBe(true);
    expect(JSON.parse(r.output)).toEqual({ object: { root: { children: [{ children: [] }] } } });
  });

  it("a dynamic workflow's generation step with a doubling recursion is refused before any step runs", () => {
    let error: unknown;
    try {
      validateWorkflow({
        name: 'w',
        steps: [{ id: 'a', kind: 'generate_object', inputs: [], prompt: 'go', schema: doublingSchema }],
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WorkflowDefinitionError);
    expect(error).toMatchObject({ code: 'WORKFLOW_INVALID', step: 'a', field: 'steps[0].schema' });
    expect((error as Error).message).toMatch(
      /the schema is too costly to check: the value at \/x\/c\/c\/c\/c\/c\/c\/c\/c \(9 levels deep\)/,
    );
  });
});
