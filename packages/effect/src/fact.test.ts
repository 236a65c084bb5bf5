import { describe, expect, it } from 'vitest';
import { FactParseError } from './errors.js';
import { encodeFact, parseLog, type Fact } from './fact.js';

const f = (seq: number, extra: Partial<Fact> = {}): Fact => ({
  seq,
  type: 'user.message',
  key: `user:${seq}`,
  cause: null,
  payload: { text: `hello ${seq}`, source: 'user' },
  ...extra,
});
const text = (facts: Fact[]) => facts.map((x) => `${encodeFact(x)}\n`).join('');

function parseError(t: string): FactParseError {
  try {
    parseLog(t);
  } catch (e) {
    expect(e).toBeInstanceOf(FactParseError);
    return e as FactParseError;
  }
  throw new Error('expected a FactParseError');
}

describe('fact codec', () => {
  it('encodes one line with the fields in order and round-trips', () => {
    const line = encodeFact(f(1));
    expect(line).toBe(
      '{"seq":1,"type":"user.message","key":"user:1","cause":null,"payload":{"text":"hello 1","source":"user"}}',
    );
    expect(line).not.toContain('\n');
    expect(parseLog(`${line}\n`).facts).toEqual([f(1)]);
  });

  it('escapes newlines inside payloads so one fact stays one line', () => {
    const fact = f(1, { payload: { text: 'a\nb\r\nc', source: 'user' } });
    expect(encodeFact(fact).split('\n')).toHaveLength(1);
    expect(parseLog(text([fact])).facts[0]).toEqual(fact);
  });

  it('reports a torn last line instead of throwing, keeping every complete fact', () => {
    const whole = text([f(1), f(2)]);
    const torn = whole + encodeFact(f(3)).slice(0, 25);
    const r = parseLog(torn);
    expect(r.facts).toEqual([f(1), f(2)]);
    expect(r.torn?.line).toBe(3);
    expect(r.torn?.validLength).toBe(whole.length);
    expect(r.torn?.reason).toMatch(/line 3/);
  });

  it('accepts a complete last fact without its newline and says so', () => {
    const r = parseLog(text([f(1)]) + encodeFact(f(2)));
    expect(r.facts).toHaveLength(2);
    expect(r.torn).toBeUndefined();
    expect(r.missingFinalNewline).toBe(true);
  });

  it('names the line and field of a bad complete line', () => {
    const good = text([f(1)]);
    expect(parseError(`${good}not json\n`)).toMatchObject({ code: 'FACT_PARSE', line: 2, field: 'json' });
    expect(parseError(`${good}[1,2]\n`)).toMatchObject({ line: 2, field: 'json' });
    expect(parseError(`${good}${encodeFact(f(3))}\n`)).toMatchObject({ line: 2, field: 'seq' });
    expect(parseError(`${good}${encodeFact(f(2, { key: 'user:1' }))}\n`)).toMatchObject({ line: 2, field: 'key' });
    expect(parseError(`${good}${JSON.stringify({ ...f(2), extra: 1 })}\n`)).toMatchObject({ line: 2, field: 'extra' });
    expect(parseError(`${good}${encodeFact(f(2, { cause: 5 as unknown as string }))}\n`)).toMatchObject({
      line: 2,
      field: 'cause',
    });
    expect(parseError(`${good}${encodeFact(f(2, { type: 'Bad Type' }))}\n`)).toMatchObject({ line: 2, field: 'type' });
    expect(parseError(`${good}\n${encodeFact(f(2))}\n`)).toMatchObject({ line: 2, field: 'json' });
  });

  it('names the payload field of a known kind with the wrong shape', () => {
    const bad = f(1, {
      type: 'tool.result',
      key: 'r',
      payload: { tool_call_id: 'c1', name: 'read', ok: 'yes', output: '', exit_code: 0 },
    });
    const e = parseError(text([bad]));
    expect(e).toMatchObject({ line: 1, field: 'payload.ok' });
    expect(e.message).toMatch(/true or false/);
    const call = f(1, {
      type: 'model.turn',
      key: 'm',
      payload: {
        decision: { kind: 'tool', calls: [{ id: '', name: 'read', args: {}, needs_confirmation: false }] },
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    });
    expect(parseError(text([call]))).toMatchObject({ field: 'payload.decision.calls[0].id' });
    const kind = f(1, {
      type: 'model.turn',
      key: 'm',
      payload: { decision: { kind: 'dance' }, usage: { input_tokens: 1, output_tokens: 1 } },
    });
    expect(parseError(text([kind])).message).toMatch(/'text', 'tool', 'question'/);
  });

  it("reads a model.turn's cut_off (an answer stopped at the output limit) only as true or false", () => {
    const turn = (cut_off: unknown) =>
      f(1, {
        type: 'model.turn',
        key: 'm',
        payload: {
          decision: { kind: 'text', text: 'The causes are' },
          usage: { input_tokens: 1, output_tokens: 1 },
          cut_off,
        },
      });
    expect(parseLog(text([turn(true)])).facts[0]!.payload).toMatchObject({ cut_off: true });
    expect(parseError(text([turn('yes')]))).toMatchObject({ field: 'payload.cut_off' });
    const compaction = f(1, {
      type: 'compaction.done',
      key: 'c',
      payload: { summary: 'S', kept: 1, keep_request: 'yes' },
    });
    expect(parseError(text([compaction]))).toMatchObject({ field: 'payload.keep_request' });
  });

  it('accepts unknown kinds with any payload (the fold skips them)', () => {
    const r = parseLog(text([f(1, { type: 'future.kind', key: 'x', payload: [1, 2] })]));
    expect(r.facts[0]?.type).toBe('future.kind');
  });

  it('parses an empty log', () => {
    expect(parseLog('')).toEqual({ facts: [] });
  });
});
