/**
 * A saved session is one generation: one aggregate `SessionSnapshotV1`, handed to the store in
 * one call and published whole, never in pieces.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';
import { FileSessionStore } from './file-session-store.js';
import type { SessionStore } from './session-store.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

const { track } = closeAfterEach();

describe('snapshot generations', () => {
  it('ARCH-06: save() hands the store one complete SessionSnapshotV1 per call, a value later work never changes', async () => {
    const saves: SessionSnapshotV1[] = [];
    const calls: string[] = [];
    const inner = new FileSessionStore(process.cwd());
    const store: SessionStore = {
      atomicSnapshots: true,
      saveSnapshot: async (s) => {
        calls.push('saveSnapshot');
        saves.push(s);
      },
      loadSnapshot: async () => undefined,
      listSessions: async () => [],
      loadRunCheckpoint: (s, r) => inner.loadRunCheckpoint(s, r),
    };
    const { session } = await track(
      open([{ tool_calls: [{ id: 'e', name: 'echo', args: { text: 'x' } }] }, { text: 'first' }, { text: 'second' }], {
        sessionStore: store,
        sessionId: 'arch-06',
        persistence: 'memory',
      }),
    );
    await session.send('one');
    const first = await session.save();
    const frozen = JSON.stringify(first);
    await session.send('two');
    const second = await session.save();
    // One store call per save, each with the whole aggregate.
    expect(calls).toEqual(['saveSnapshot', 'saveSnapshot']);
    expect(saves).toEqual([first, second]);
    for (const s of saves) {
      expect(s).toMatchObject({ version: 1, session_id: 'arch-06' });
      for (const part of [
        'conversation',
        'artifacts',
        'trace_events',
        'runs',
        'verification_reports',
        'subagent_tasks',
      ])
        expect(Array.isArray((s as unknown as Record<string, unknown>)[part])).toBe(true);
    }
    // The first generation is a value: the second run did not reach into it.
    expect(JSON.stringify(first)).toBe(frozen);
    expect(first.runs).toHaveLength(1);
    expect(second.runs).toHaveLength(2);
    expect(second.conversation.length).toBeGreaterThan(first.conversation.length);
    expect(second.updated_at_ms).toBeGreaterThanOrEqual(first.updated_at_ms);
  });

  it('PERS-08: a save never publishes a partial or sharded generation: readers see the old or the new file whole', async () => {
    const big = 'x'.repeat(512 * 1024);
    const { session, dir } = await track(
      open([{ text: 'small' }, { text: 'large' }], {
        sessionStore: 'file',
        sessionId: 'pers-08',
        persistence: 'memory',
      }),
    );
    const store = session.config.sessionStore as FileSessionStore;
    const path = store.pathOf('pers-08');
    await session.send('a');
    const old = await session.save();
    await session.send(big);
    // Read the published file again and again while the large generation is written.
    const seen = new Set<number>();
    let writing = true;
    const reader = (async () => {
      while (writing) {
        try {
          seen.add((JSON.parse(readFileSync(path, 'utf8')) as SessionSnapshotV1).runs.length);
        } catch {
          seen.add(-1); // a torn read
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    const saved = await session.save().finally(() => {
      writing = false;
    });
    await reader;
    expect([...seen].filter((n) => n !== old.runs.length && n !== saved.runs.length)).toEqual([]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(JSON.parse(JSON.stringify(saved)));
    // One file per session: no shard folders, no leftover temporary files.
    expect(readdirSync(join(dir, '.a3s', 'sessions'))).toEqual(['pers-08.json']);

    // A save that cannot publish leaves no fragment behind and reports the failure.
    const blocked = await track(
      open([{ text: 'x' }], { sessionStore: 'file', sessionId: 'blocked', persistence: 'memory' }, dir),
    );
    mkdirSync(join(dir, '.a3s', 'sessions', 'blocked.json'));
    await blocked.session.send('x');
    await expect(blocked.session.save()).rejects.toMatchObject({ code: expect.stringMatching(/SESSION_STORE/) });
    expect(readdirSync(join(dir, '.a3s', 'sessions')).sort()).toEqual(['blocked.json', 'pers-08.json']);
    expect(readdirSync(join(dir, '.a3s', 'sessions', 'blocked.json'))).toEqual([]);
  });
});
