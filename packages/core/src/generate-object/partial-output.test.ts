import { describe, expect, it } from 'vitest';
import type { LlmStreamEvent } from '../llm/llm-client.js';
import { completeStreamedValue, extractJson, isCompleteStreamedValue } from './extract-json.js';
import { createGenerateObjectTool, partialEventText } from './generate-object-tool.js';
import { parsePartialJson } from './partial-json.js';
import { handDriven, SENTIMENT_SCHEMA, toolContext } from './test-support/clients.js';

describe('partial JSON', () => {
  it('closes open strings, arrays and objects and drops keys without values and unfinished literals', () => {
    expect(parsePartialJson('{"a": [1, 2, {"b": "hel')).toEqual({
      value: { a: [1, 2, { b: 'hel' }] },
      complete: false,
    });
    expect(parsePartialJson('{"a": tr')).toEqual({ value: {}, complete: false });
    expect(parsePartialJson('{"a": 1, "b')).toEqual({ value: { a: 1 }, complete: false });
    expect(parsePartialJson('{"a": 1, "b":')).toEqual({ value: { a: 1 }, complete: false });
    expect(parsePartialJson('{"x": 0.9')).toEqual({ value: { x: 0.9 }, complete: false });
    expect(parsePartialJson('{"x": -')).toEqual({ value: {}, complete: false });
    expect(parsePartialJson('{"s": "a\\')).toEqual({ value: { s: 'a' }, complete: false });
    expect(parsePartialJson('{"s": "\\u00')).toEqual({ value: { s: '' }, complete: false });
    expect(parsePartialJson('{"s": "x\\"y"}')).toEqual({ value: { s: 'x"y' }, complete: true });
    expect(parsePartialJson('[true, null, false] ')).toEqual({ value: [true, null, false], complete: true });
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('hello')).toBeUndefined();
    expect(parsePartialJson('{"a" 1}')).toBeUndefined();
  });

  it('every prefix of a value parses to something consistent with the final value', () => {
    const value = { name: 'Ana "A"', tags: ['x', 'y'], n: -12.5e1, nested: { ok: true, none: null } };
    const text = JSON.stringify(value, null, 1);
    for (let i = 1; i <= text.length; i++) {
      const p = parsePartialJson(text.slice(0, i));
      if (p === undefined) continue;
      expect(typeof p.value).toBe('object');
      if (i === text.length) expect(p).toEqual({ value, complete: true });
    }
  });
});

describe('GENOBJ-21: complete streamed values', () => {
  const full = '{"sentiment":"neutral","confidence":0.5}';
  it('accepts only a complete value that validates', () => {
    expect(isCompleteStreamedValue(full, SENTIMENT_SCHEMA)).toBe(true);
    for (let i = 1; i < full.length; i++)
      expect(isCompleteStreamedValue(full.slice(0, i), SENTIMENT_SCHEMA)).toBe(false);
    expect(completeStreamedValue('{"sentiment":"neutral"}', SENTIMENT_SCHEMA)).toMatchObject({
      complete: false,
      violations: [{ path: '', message: "must have required property 'confidence'" }],
    });
  });

  it('extracts JSON from fences and after a lead-in sentence', () => {
    expect(extractJson('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Here it is: [1,2] hope that helps')).toEqual({ ok: true, value: [1, 2] });
    expect(extractJson('nothing here')).toEqual({ ok: false, reason: 'the response contained no JSON value' });
  });

  it('extracts the value from prose with brackets of its own, never a value nested in an unfinished or invalid one', () => {
    expect(extractJson('Here is [the] answer: {"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('{"a":"}"} hope this helps :}')).toEqual({ ok: true, value: { a: '}' } });
    expect(extractJson('Result: {"a": [1, 2]} and [done].')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(extractJson('Run:\n```\nnpm i\n```\nthen\n```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('{"a": {"b": 1}, "c": ').ok).toBe(false);
    expect(extractJson('{"a": {"b": 1}, oops}').ok).toBe(false);
    expect(isCompleteStreamedValue('{"x": {"sentiment":"neutral","confidence":0.5}, "y":', SENTIMENT_SCHEMA)).toBe(
      false,
    );
  });
});

describe('GENOBJ-23..25: partial objects as tool_output_delta', () => {
  const value = { sentiment: 'positive', confidence: 0.95, notes: 'short' };
  const text = JSON.stringify(value);

  function charStream(): AsyncGenerator<LlmStreamEvent> {
    return (async function* () {
      yield { type: 'tool_call_start', index: 0, id: 'c1', name: 'result' } as const;
      for (const ch of text) yield { type: 'tool_call_delta', index: 0, id: 'c1', argsDelta: ch } as const;
      yield { type: 'tool_call_end', index: 0, call: { id: 'c1', name: 'result', args: value } } as const;
      yield { type: 'finish', reason: 'tool_calls' } as const;
    })();
  }

  it('GENOBJ-23/24: every event parses as JSON with object_partial, at most one per 100 ms of the clock', async () => {
    let t = 0;
    const clock: number[] = [];
    const now = () => {
      t += 30; // each delta "takes" 30 ms
      return t;
    };
    const { client } = handDriven(() => charStream(), { forcedToolChoice: true });
    const tool = createGenerateObjectTool(client, {
      now: () => {
        const v = now();
        clock.push(v);
        return v;
      },
    });
    const { ctx, emitted } = toolContext();
    const res = await tool.execute({ schema: SENTIMENT_SCHEMA, prompt: 'x', mode: 'tool' } as never, ctx);
    expect(res.exitCode).toBe(0);
    expect(emitted.length).toBeGreaterThan(3);
    expect(emitted.length).toBeLessThanOrEqual(Math.ceil((text.length * 30) / 100) + 1);
    const partials = emitted.map((e) => JSON.parse(e) as { object_partial: Record<string, unknown> });
    for (const p of partials) expect(p).toHaveProperty('object_partial');
    // snapshots grow toward the final value and never repeat
    expect(new Set(emitted).size).toBe(emitted.length);
    expect(Object.keys(partials.at(-1)!.object_partial).length).toBeGreaterThanOrEqual(2);
  });

  it('GENOBJ-24: with a real clock, a fast stream produces a single early partial, not one per delta', async () => {
    const { client } = handDriven(() => charStream(), { forcedToolChoice: true });
    const { ctx, emitted } = toolContext();
    await createGenerateObjectTool(client).execute(
      { schema: SENTIMENT_SCHEMA, prompt: 'x', mode: 'tool' } as never,
      ctx,
    );
    expect(emitted.length).toBeGreaterThanOrEqual(1);
    expect(emitted.length).toBeLessThan(text.length / 4);
  });

  it('GENOBJ-25: a partial over the event budget carries only its byte count', async () => {
    let t = 0;
    const { client } = handDriven(() => charStream(), { forcedToolChoice: true });
    const { ctx, emitted } = toolContext();
    await createGenerateObjectTool(client, { partialEventBudgetBytes: 24, now: () => (t += 200) }).execute(
      { schema: SENTIMENT_SCHEMA, prompt: 'x', mode: 'tool' } as never,
      ctx,
    );
    const big = emitted.map((e) => JSON.parse(e)).filter((e) => e.object_partial === null);
    expect(big.length).toBeGreaterThan(0);
    for (const e of big) {
      expect(Object.keys(e).sort()).toEqual(['object_partial', 'object_partial_bytes']);
      expect(e.object_partial_bytes).toBeGreaterThan(24);
    }
    expect(emitted.some((e) => e.includes('"positive"') && e.length > 60)).toBe(false);
    expect(partialEventText({ a: 'é' }, 10)).toBe('{"object_partial":{"a":"é"}}');
    expect(JSON.parse(partialEventText({ a: 'ééééé' }, 10))).toEqual({
      object_partial: null,
      object_partial_bytes: 18,
    });
  });
});
