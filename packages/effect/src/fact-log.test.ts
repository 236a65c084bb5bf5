import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { A3sError, DuplicateFactError, FactSequenceError, FactValidationError } from './errors.js';
import { encodeFact, parseLog } from './fact.js';
import { FactLog } from './fact-log.js';

const user = (key: string, text = 'hi') => ({ type: 'user.message', key, payload: { text, source: 'user' } });

describe('FactLog', () => {
  it('LOG-02: only appends; seq counts up by one and facts are frozen', () => {
    const log = new FactLog();
    const a = log.append([user('u1'), user('u2')], null);
    const b = log.append([user('u3')], 'infer:1:0');
    expect([...a, ...b].map((x) => x.seq)).toEqual([1, 2, 3]);
    expect(log.facts.map((x) => x.key)).toEqual(['u1', 'u2', 'u3']);
    expect(Object.isFrozen(log.facts[0])).toBe(true);
    expect(log.hasCause('infer:1:0')).toBe(true);
    expect(log.hasCause('infer:1:1')).toBe(false);
  });

  it('re-appending identical facts is a no-op (idempotent), even with keys in another order', () => {
    const log = new FactLog();
    log.append([{ type: 'x.y', key: 'k', payload: { a: 1, b: [1, { c: 2 }] } }], 'c1');
    expect(log.append([{ type: 'x.y', key: 'k', payload: { b: [1, { c: 2 }], a: 1 } }], 'c1')).toEqual([]);
    expect(log.length).toBe(1);
  });

  it('a reused key with another payload, type or cause is a typed DuplicateFact error and appends nothing', () => {
    const log = new FactLog();
    log.append([user('u1', 'first')], null);
    const before = log.digest();
    for (const [drafts, cause, diff] of [
      [[user('u2'), user('u1', 'second')], null, 'payload'],
      [[{ type: 'other.kind', key: 'u1', payload: {} }], null, 'type'],
      [[user('u1', 'first')], 'infer:1:0', 'cause'],
    ] as const) {
      let err: unknown;
      try {
        log.append(drafts as never, cause);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DuplicateFactError);
      expect(A3sError.hasCode(err, 'DUPLICATE_FACT')).toBe(true);
      expect((err as DuplicateFactError).key).toBe('u1');
      expect((err as Error).message).toContain(diff);
    }
    expect(log.length).toBe(1);
    expect(log.digest()).toEqual(before);
  });

  it('rejects malformed drafts with the field named, and nothing of the batch is appended', () => {
    const log = new FactLog();
    const cases: [unknown, string][] = [
      [{ type: 'user.message', key: 'a', payload: { text: 1, source: 'user' } }, 'payload.text'],
      [{ type: 'user.message', key: 'a', payload: { text: 'x', source: 'robot' } }, 'payload.source'],
      [{ type: 'user.message', key: '', payload: {} }, 'drafts[1].key'],
      [{ type: 'x.y', key: 'a', payload: { n: Number.NaN } }, 'drafts[1].payload.n'],
      [{ type: 'x.y', key: 'a', payload: { d: new Date(0) } }, 'drafts[1].payload.d'],
      [{ type: 'x.y', key: 'a', payload: { u: undefined } }, 'drafts[1].payload.u'],
    ];
    for (const [bad, field] of cases) {
      let err: unknown;
      try {
        log.append([user('ok'), bad as never], null);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FactValidationError);
      expect((err as FactValidationError).field).toBe(field);
    }
    expect(log.length).toBe(0);
    expect(() => log.append([user('d'), user('d')], null)).toThrow(/appears twice/);
    expect(log.length).toBe(0);
  });

  it('FOLD-04: a payload holding -0 is kept as it reads back (0), so the log in memory equals the log on disk', () => {
    const log = new FactLog();
    const payload = {
      tool_call_id: 'c',
      name: 'x',
      ok: true,
      output: '',
      exit_code: 0,
      metadata: { n: -0, l: [-0, 1] },
    };
    const [fact] = log.append([{ type: 'tool.result', key: 'r', payload }], null);
    const read = parseLog(`${encodeFact(fact!)}\n`).facts;
    expect(log.facts).toEqual(read);
    expect(Object.is((fact!.payload as typeof payload).metadata.n, 0)).toBe(true);
    // Appending the same draft again is still a no-op.
    expect(log.append([{ type: 'tool.result', key: 'r', payload }], null)).toEqual([]);
  });

  it('checks seq continuity and unique keys when loading facts', () => {
    const facts = parseLog(`${encodeFact({ seq: 1, type: 'x.y', key: 'a', cause: null, payload: {} })}\n`).facts;
    expect(new FactLog(facts).length).toBe(1);
    expect(() => new FactLog([{ ...facts[0]!, seq: 2 }])).toThrow(FactSequenceError);
    expect(() => new FactLog([facts[0]!, { ...facts[0]!, seq: 2 }])).toThrow(DuplicateFactError);
  });

  it('the digest is the SHA-256 of the file bytes of the prefix, maintained incrementally', () => {
    const log = new FactLog();
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    expect(log.digest()).toEqual({ seq: 0, digest: sha('') });
    let file = '';
    for (let i = 0; i < 20; i++) {
      const [fact] = log.append([user(`u${i}`, `héllo ${'✓'.repeat(i)}`)], null);
      file += `${encodeFact(fact!)}\n`;
      if (i % 3 === 0) expect(log.digest()).toEqual({ seq: i + 1, digest: sha(file) });
    }
    expect(log.digest()).toEqual({ seq: 20, digest: sha(file) });
    expect(new FactLog(parseLog(file).facts).digest()).toEqual(log.digest());
  });
});

describe('FactLog.guardAppends', () => {
  it('the guard sees the facts with their seq before the log changes; when it throws, nothing is appended', () => {
    const log = new FactLog();
    log.append([user('a')], null);
    const seen: number[][] = [];
    log.guardAppends((facts) => {
      seen.push(facts.map((f) => f.seq));
      if (facts.some((f) => (f.payload as { text: string }).text === 'no')) throw new Error('refused');
    });
    expect(() => log.append([user('b'), user('c', 'no')], 't')).toThrow('refused');
    expect(log.length).toBe(1);
    expect(log.hasCause('t')).toBe(false);
    expect(log.append([user('b'), user('c')], 't').map((f) => f.seq)).toEqual([2, 3]);
    // An identical re-append appends nothing and asks the guard nothing.
    log.append([user('b')], 't');
    expect(seen).toEqual([
      [2, 3],
      [2, 3],
    ]);
    log.guardAppends(null);
    expect(log.append([user('d', 'no')], null)).toHaveLength(1);
  });
});

describe('FactLog.addAppendGuard', () => {
  it('added guards run before the one set by guardAppends, each may refuse, and each is removed by its remover', () => {
    const log = new FactLog();
    const order: string[] = [];
    log.guardAppends(() => order.push('store'));
    const removeA = log.addAppendGuard(() => order.push('a'));
    const removeB = log.addAppendGuard((facts) => {
      order.push('b');
      if (facts.some((f) => (f.payload as { text: string }).text === 'no')) throw new Error('ended');
    });
    expect(() => log.append([user('x', 'no')], null)).toThrow('ended');
    expect(log.length).toBe(0);
    // The store's guard is not asked about facts another guard refused.
    expect(order).toEqual(['a', 'b']);
    removeB();
    removeB();
    expect(log.append([user('x', 'no')], null)).toHaveLength(1);
    removeA();
    order.length = 0;
    log.append([user('y')], null);
    expect(order).toEqual(['store']);
  });
});
