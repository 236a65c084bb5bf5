// A fact log never grows past the size it can be opened with: an append that would take it there
// is refused (FACT_LOG_FULL) before the log in memory or the file changes, a run's end still fits
// in the reserve, and the log reopens with every fact it held. Real files.
import { readFileSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drafts } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { FileFactStore } from './file-fact-store.js';
import { FactLogBudget, FactLogFullError, FACT_LOG_RESERVE_BYTES } from './log-budget.js';
import { MAX_FACT_LOG_BYTES } from './log-file.js';

const user = (key: string, text = 'hi') => ({ type: 'user.message', key, payload: { text, source: 'user' } });
const ended = (runId: string) => drafts.runEnded(runId, { status: 'failed', completion: null, at_ms: 1 });
const open: FileFactStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const openSmall = async (ws: string, id = 's') => {
  const store = await FileFactStore.open(ws, id, { maxBytes: 4_000, reserveBytes: 1_000 });
  open.push(store);
  return store;
};

describe('the fact log size limit', () => {
  it('an append past the limit is refused before anything changes; the store goes on and the log reopens whole', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'a3s-budget-'));
    const store = await openSmall(ws);
    await store.append([user('u1', 'a'.repeat(1_000))], null);
    const size = statSync(store.path).size;
    const refused = await store.append([user('u2', 'b'.repeat(2_500))], null).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FactLogFullError);
    expect(refused).toMatchObject({
      code: 'FACT_LOG_FULL',
      message: expect.stringMatching(
        new RegExp(
          `is ${size} bytes .*; appending user\\.message \\(\\d+ bytes\\) would take it past 3000 bytes .*nothing was appended, and the history so far is kept`,
        ),
      ),
    });
    expect(store.log.length).toBe(1);
    expect(statSync(store.path).size).toBe(size);
    // The store is not broken: what fits is still appended.
    await store.append([user('u3', 'c'.repeat(500))], null);
    expect(store.log.facts.map((f) => f.key)).toEqual(['u1', 'u3']);
    await store.close();
    const again = await openSmall(ws);
    expect(again.log.facts.map((f) => f.key)).toEqual(['u1', 'u3']);
  });

  it('a fact too large to encode as one line is refused with FACT_TOO_LARGE naming its kind, before anything is kept', () => {
    const budget = new FactLogBudget('/w/.a3s/effect-log/s.jsonl');
    // What JSON.stringify throws past V8's longest string (a model reply of ~300M quotes, doubled by escaping).
    const huge = {
      toJSON: () => {
        throw new RangeError('Invalid string length');
      },
    };
    const fact = { seq: 1, type: 'model.turn', key: 'big', cause: null, payload: { text: huge } };
    expect(() => budget.admit([fact], 0)).toThrow(expect.objectContaining({ code: 'FACT_TOO_LARGE' }));
    expect(() => budget.admit([fact], 0)).toThrow(
      "a 'model.turn' fact for fact log '/w/.a3s/effect-log/s.jsonl' is too large",
    );
    expect(budget.pending()).toEqual({ text: '', facts: 0 });
  });

  it("a transition's facts appended to the log directly are refused the same way, before flush", async () => {
    const ws = mkdtempSync(join(tmpdir(), 'a3s-budget-'));
    const store = await openSmall(ws);
    expect(() => store.log.append([user('big', 'x'.repeat(5_000))], 't:1')).toThrow(FactLogFullError);
    expect(store.log.length).toBe(0);
    store.log.append([user('small')], 't:2');
    await store.flush();
    expect(readFileSync(store.path, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it("the reserve takes a run's end when ordinary facts no longer fit, up to the hard limit", async () => {
    const ws = mkdtempSync(join(tmpdir(), 'a3s-budget-'));
    const store = await openSmall(ws);
    await store.append([user('u1', 'a'.repeat(2_850))], null);
    await expect(store.append([user('u2', 'b'.repeat(10))], null)).rejects.toBeInstanceOf(FactLogFullError);
    await store.append([ended('r1')], null);
    expect(statSync(store.path).size).toBeGreaterThan(3_000);
    // Not even the reserve goes past the hard limit.
    const huge = drafts.runEnded('r2', {
      status: 'failed',
      completion: null,
      at_ms: 1,
      error: { code: 'X', message: 'm'.repeat(2_000) },
    });
    await expect(store.append([huge], null)).rejects.toThrow(/would take it past 4000 bytes/);
    expect(statSync(store.path).size).toBeLessThanOrEqual(4_000);
  });

  it('the limits default to the size a log can be opened with, and cannot be raised past it', () => {
    expect(new FactLogBudget('p')).toMatchObject({
      maxBytes: MAX_FACT_LOG_BYTES,
      reserveBytes: FACT_LOG_RESERVE_BYTES,
    });
    expect(new FactLogBudget('p', { maxBytes: MAX_FACT_LOG_BYTES * 2 }).maxBytes).toBe(MAX_FACT_LOG_BYTES);
  });
});
