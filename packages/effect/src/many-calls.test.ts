import { describe, expect, it } from 'vitest';
import { FactParseError } from './errors.js';
import { encodeFact, parseLog } from './fact.js';
import { wellFormedDraft } from './well-formed.js';

// A model turn with very many calls (a hostile provider's answer) is checked in time linear in
// the number of calls, on append and on every read of the log; a repeated id is still refused.
const turn = (ids: readonly string[]) => ({
  decision: { kind: 'tool', calls: ids.map((id) => ({ id, name: 'ls', args: {}, needs_confirmation: false })) },
  usage: { input_tokens: 1, output_tokens: 1 },
});

describe('a model turn with many calls', () => {
  it('is read in linear time, and a repeated id among 50,000 is still refused', () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => `c${i}`);
    const started = performance.now();
    expect(wellFormedDraft('model.turn', 'infer:1:0', turn(ids))).toBe(true);
    const line = encodeFact({ seq: 1, type: 'model.turn', key: 'infer:1:0', cause: null, payload: turn(ids) });
    expect(parseLog(`${line}\n`).facts).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
    const twice = [...ids, 'c123'];
    expect(wellFormedDraft('model.turn', 'infer:1:0', turn(twice))).toBe(false);
    const bad = encodeFact({ seq: 1, type: 'model.turn', key: 'infer:1:0', cause: null, payload: turn(twice) });
    expect(() => parseLog(`${bad}\n`)).toThrow(FactParseError);
    expect(() => parseLog(`${bad}\n`)).toThrow(/duplicates call id 'c123'/);
  });
});
