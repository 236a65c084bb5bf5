// A model turn too large for the session's fact log: the run ends failed with FACT_LOG_FULL,
// its end recorded in the log, nothing half written; the session goes on and the log reopens
// with its whole history. The store's size limit is made small here (the real one is 512 MiB);
// everything else is the real session on real files.
import { readFileSync } from 'node:fs';
import { FactLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileFactStore } from '../src/index.js';
import { closeAfterEach, open, types, workspace } from './session-kit.js';

const { track } = closeAfterEach();
const openReal = FileFactStore.open.bind(FileFactStore);
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a fact log that would grow too large to open', () => {
  it('a model turn past the limit fails the run typed and recorded; the log reopens with every fact', async () => {
    vi.spyOn(FileFactStore, 'open').mockImplementation((root, id) =>
      openReal(root, id, { maxBytes: 40_000, reserveBytes: 4_000 }),
    );
    const ws = workspace();
    const first = await open(
      [{ tool_calls: [{ id: 'c1', name: 'echo', args: { text: 'x'.repeat(50_000) } }] }, { text: 'small answer' }],
      { sessionId: 's' },
      ws.dir,
    );
    const session = first.session;
    const failure = await session.send('go').catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: 'FACT_LOG_FULL',
      message: expect.stringMatching(/appending model\.turn .*would take it past 36000 bytes/),
    });
    const log = session.store.log.facts;
    expect(types(session)).not.toContain('model.turn');
    expect(log.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { status: 'failed', error: { code: 'FACT_LOG_FULL' } },
    });
    // The file holds exactly what the session holds.
    expect(FactLog.parse(readFileSync((session.store as FileFactStore).path, 'utf8')).log.facts).toEqual(log);
    // The store is not broken: a turn that fits is recorded.
    expect(await session.send('again')).toMatchObject({ status: 'completed', text: 'small answer' });
    const live = session.store.log.facts;
    await session.close();
    const again = await track(open([], { sessionId: 's' }, ws.dir));
    expect(again.session.store.log.facts).toEqual(live);
  });
});
