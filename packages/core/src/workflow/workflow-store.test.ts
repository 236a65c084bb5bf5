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
