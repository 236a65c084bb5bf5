import { describe, expect, it } from 'vitest';
import { FactParseError } from './errors.js';
import { encodeFact, type Fact, parseLog } from './fact.js';
import { FactLog } from './fact-log.js';
import { fold } from './folder.js';

// Reading a log checks lines and seq first and indexes keys afterwards, keeps a line that is
// already in `encodeFact` order as the fact itself, and builds the cause index on first use.
// These pin that the errors, facts, digest and fold are those of checking line by line.

const fact = (seq: number, key: string, cause: string | null = null): Fact => ({
  seq,
  type: 'user.message',
  key,
  cause,
  payload: { text: `t${seq}`, source: 'user' },
});
const lines = (...xs: string[]): string => xs.map((x) => `${x}\n`).join('');

/** The error both readers throw for `text` (they must agree), or undefined. */
function errorOf(text: string): FactParseError | undefined {
  let a: unknown;
  let b: unknown;
  try {
    parseLog(text);
  } catch (e) {
    a = e;
  }
  try {
    FactLog.parse(text);
  } catch (e) {
    b = e;
  }
  expect(String(b)).toBe(String(a));
  if (a !== undefined) expect(a).toBeInstanceOf(FactParseError);
  return a as FactParseError | undefined;
}

describe('reading a log: errors come in line order', () => {
  it('a reused key before a bad line is reported, not the bad line', () => {
    const text = lines(encodeFact(fact(1, 'a')), encodeFact(fact(2, 'a')), encodeFact(fact(3, 'b')), 'not json');
    const e = errorOf(text)!;
    expect([e.line, e.field]).toEqual([2, 'key']);
    expect(e.message).toContain("'a' is already used by an earlier fact");
  });

  it('a bad line before a reused key is reported, not the key', () => {
    for (const bad of ['not json', '', encodeFact(fact(9, 'x')), encodeFact({ ...fact(2, 'x'), cause: 5 as never })]) {
      const text = lines(encodeFact(fact(1, 'a')), bad, encodeFact(fact(3, 'a')));
      const e = errorOf(text)!;
      expect(e.line).toBe(2);
      expect(e.field).not.toBe('key');
    }
  });

  it('a bad seq on the line that also reuses a key is a seq error (seq is checked first)', () => {
    const e = errorOf(lines(encodeFact(fact(1, 'a')), encodeFact(fact(3, 'a'))))!;
    expect([e.line, e.field]).toEqual([2, 'seq']);
  });

  it('a torn tail is reported after good lines, but a reused key before it still throws', () => {
    const good = lines(encodeFact(fact(1, 'a')), encodeFact(fact(2, 'b')));
    const torn = `${good}{"seq":3,"ty`;
    expect(errorOf(torn)).toBeUndefined();
    const { log, torn: t } = FactLog.parse(torn);
    expect(log.facts.map((f) => f.key)).toEqual(['a', 'b']);
    expect(t).toMatchObject({ line: 3, validLength: good.length });
    expect(parseLog(torn).torn).toEqual(t);
    const e = errorOf(`${lines(encodeFact(fact(1, 'a')), encodeFact(fact(2, 'a')))}{"seq":3,"ty`)!;
    expect([e.line, e.field]).toEqual([2, 'key']);
  });

  it('an unterminated last line that reuses a key or breaks seq is an error, not a torn write', () => {
    const first = lines(encodeFact(fact(1, 'a')));
    expect(errorOf(first + encodeFact(fact(2, 'a')))?.field).toBe('key');
    expect(errorOf(first + encodeFact(fact(5, 'b')))?.field).toBe('seq');
    expect(parseLog(first + encodeFact(fact(2, 'b'))).missingFinalNewline).toBe(true);
  });

  it('a megabyte-long type or field name is named clipped: the error stays short', () => {
    const long = `a.${'x'.repeat(2 ** 20)}`;
    for (const bad of [
      `{"seq":1,"type":"${long.toUpperCase()}","key":"k","cause":null,"payload":{}}`,
      `{"seq":1,"type":"user.message","key":"k","cause":null,"payload":{},"${long}":1}`,
    ]) {
      const e = errorOf(lines(bad))!;
      expect(e.line).toBe(1);
      expect(e.message.length).toBeLessThan(1000);
      expect(e.message).toContain(`…(${long.length} chars)`);
    }
  });

  it('a log an editor saved with a byte-order mark is refused on line 1, saying so', () => {
    const e = errorOf(`\uFEFF${lines(encodeFact(fact(1, 'a')))}`)!;
    expect([e.line, e.field]).toEqual([1, 'json']);
    expect(e.message).toContain('starts with a byte-order mark (U+FEFF); a fact log is UTF-8 without one');
  });
});

describe('reading a log: nesting', () => {
  // As text: JSON.stringify itself overflows on the deepest.
  const nested = (depth: number): string => `${'[{"a":'.repeat(depth / 2)}"leaf"${'}]'.repeat(depth / 2)}`;
  const callLine = (seq: number, args: string): string =>
    JSON.stringify({
      seq,
      type: 'model.turn',
      key: `m${seq}`,
      cause: null,
      payload: {
        decision: {
          kind: 'tool',
          calls: [{ id: 'c1', name: 'read', args: { deep: 'DEEP' }, needs_confirmation: false }],
        },
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    }).replace('"DEEP"', args);

  it('a line nested deeper than the store writes is refused by line and field, not a stack overflow later', () => {
    const text = lines(encodeFact(fact(1, 'u1')), callLine(2, nested(20_000)));
    const e = errorOf(text);
    expect(e?.line).toBe(2);
    expect(e?.field).toBe('payload');
    expect(e?.message).toMatch(/nested deeper than 256 levels/);
  });

  it('nesting as deep as an append allows still reads, and keeps its digest and fold', () => {
    const log = FactLog.parse(lines(encodeFact(fact(1, 'u1')), callLine(2, nested(250)))).log;
    expect(log.length).toBe(2);
    expect(log.digest().seq).toBe(2);
    expect(fold(log.facts).phase).toBe('tool');
  });
});

describe('reading a log: the facts, digest and fold are unchanged', () => {
  const facts = [fact(1, 'a'), fact(2, 'b', 'infer:1:0'), fact(3, 'c', 'infer:1:0')];

  it('lines in encodeFact order and in another order read as equal facts with the fields in order', () => {
    const ordered = lines(...facts.map(encodeFact));
    const shuffled = lines(
      ...facts.map((f) => JSON.stringify({ payload: f.payload, key: f.key, cause: f.cause, type: f.type, seq: f.seq })),
    );
    for (const text of [ordered, shuffled]) {
      const { log } = FactLog.parse(text);
      expect(log.facts).toEqual(facts);
      expect(parseLog(text).facts).toEqual(facts);
      for (const f of log.facts) expect(Object.keys(f)).toEqual(['seq', 'type', 'key', 'cause', 'payload']);
      expect(log.digest()).toEqual(new FactLog(facts).digest());
      expect(fold(log.facts)).toEqual(fold(facts));
      expect(log.get('b')).toBe(log.facts[1]);
    }
  });

  it('the cause index answers on a read log, before and after appends', () => {
    const text = lines(...facts.map(encodeFact));
    const early = FactLog.parse(text).log;
    expect(early.hasCause('infer:1:0')).toBe(true);
    expect(early.hasCause('infer:2:0')).toBe(false);
    early.append([{ type: 'user.message', key: 'd', payload: { text: 'x', source: 'user' } }], 'infer:2:0');
    expect(early.hasCause('infer:2:0')).toBe(true);
    const late = FactLog.parse(text).log;
    late.append([{ type: 'user.message', key: 'd', payload: { text: 'x', source: 'user' } }], 'infer:2:0');
    expect(late.hasCause('infer:2:0')).toBe(true);
    expect(late.hasCause('infer:1:0')).toBe(true);
    expect(late.hasCause('infer:3:0')).toBe(false);
  });
});

describe('reading a log: the bulk key index', () => {
  /** The first line (1-based) whose key an earlier line has, checked the plain way. */
  function firstReuse(keys: readonly string[]): number {
    const seen = new Set<string>();
    for (let i = 0; i < keys.length; i++) {
      if (seen.has(keys[i]!)) return i + 1;
      seen.add(keys[i]!);
    }
    return -1;
  }

  it('reports the same first reused key as a line-by-line check, over logs large enough to partition', () => {
    let s = 12345;
    const rnd = (n: number): number => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s % n;
    };
    for (let round = 0; round < 6; round++) {
      const n = 3000 + rnd(9000);
      const keys = Array.from({ length: n }, (_, i) => `k:${i}:${rnd(1000)}`);
      // Rounds 1.. reuse 1 to 3 earlier keys at random places; round 0 reuses none.
      for (let r = 0; r < round % 4; r++) {
        const at = 1 + rnd(n - 1);
        keys[at] = keys[rnd(at)]!;
      }
      const text = keys.map((k, i) => `${encodeFact(fact(i + 1, k))}\n`).join('');
      const expected = firstReuse(keys);
      const e = errorOf(text);
      if (expected < 0) {
        expect(e).toBeUndefined();
        const log = FactLog.parse(text).log;
        for (let i = 0; i < n; i += 97) expect(log.get(keys[i]!)?.seq).toBe(i + 1);
        expect(log.get('k:missing')).toBeUndefined();
        // Appending after a bulk read still finds reused keys.
        expect(
          log.append([{ type: 'user.message', key: 'new', payload: { text: 'x', source: 'user' } }], null),
        ).toHaveLength(1);
        expect(log.get('new')?.seq).toBe(n + 1);
        expect(() =>
          log.append([{ type: 'user.message', key: keys[7]!, payload: { text: 'y', source: 'user' } }], null),
        ).toThrow(/payload/);
      } else {
        expect([e?.line, e?.field]).toEqual([expected, 'key']);
      }
    }
  });
});
