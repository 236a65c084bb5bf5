import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileWorkflowStore } from './workflow-store.js';

describe('fileWorkflowStore', () => {
  it('opening a run this session still has open waits for that open to close instead of failing FACT_LOG_LOCKED', async () => {
    const store = fileWorkflowStore(mkdtempSync(join(tmpdir(), 'a3s-wf-store-')));
    const first = await store.open('run-1');
    await first.append([{ type: 'test.note', key: 'u1', payload: { text: 'hi' } }]);
    let closedAt = 0;
    setTimeout(() => {
      void first.close().then(() => {
        closedAt = Date.now();
      });
    }, 100);
    const second = await store.open('run-1');
    expect(closedAt).toBeGreaterThan(0);
    expect(second.facts.map((f) => f.key)).toEqual(['u1']);
    await second.close();
    // Closed: the next open does not wait.
    const third = await store.open('run-1');
    await third.close();
  });
});

describe('fileWorkflowStore: opens started together', () => {
  it('two opens of the same run started at once queue: the second gets the log once the first closes', async () => {
    const store = fileWorkflowStore(mkdtempSync(join(tmpdir(), 'a3s-wf-store-')));
    const [first, second] = [store.open('run-2'), store.open('run-2')];
    const a = await first;
    await a.append([{ type: 'test.note', key: 'u1', payload: { text: 'first' } }]);
    let secondOpened = false;
    const b = second.then((log) => {
      secondOpened = true;
      return log;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(secondOpened).toBe(false);
    await a.close();
    const log = await b;
    expect(log.facts.map((f) => f.key)).toEqual(['u1']);
    await log.close();
  });

  it('an open that fails does not hold up the next one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'a3s-wf-store-'));
    const other = fileWorkflowStore(root);
    const held = await other.open('run-3');
    const store = fileWorkflowStore(root);
    await expect(store.open('run-3')).rejects.toMatchObject({ code: 'FACT_LOG_LOCKED' });
    await held.close();
    const started = Date.now();
    const log = await store.open('run-3');
    expect(Date.now() - started).toBeLessThan(5_000);
    await log.close();
  });
});
