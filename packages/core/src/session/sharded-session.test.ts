import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from './agent.js';
import { FileSessionStore } from './file-session-store.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';
import { createTestToolPack, ScriptedLlmClient } from '../testing/index.js';

const { sessions } = closeAfterEach();
const toolTurn = { text: 'Adding.', tool_calls: [{ id: 'c1', name: 'add', args: { a: 2, b: 3 } }] };

/** A real saved snapshot of a session with one tool round and a verification report. */
async function savedSnapshot(id: string): Promise<SessionSnapshotV1> {
  const ws = workspace();
  const agent = await Agent.create({
    model: new ScriptedLlmClient([toolTurn, { text: 'The sum is 5.' }]),
    tools: [createTestToolPack().pack],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
    sessionStore: 'file',
  });
  const session = await agent.session(ws.dir, { sessionId: id });
  sessions.push(session);
  await session.send('Add 2 and 3');
  session.recordVerificationReport({
    schema: 'a3s.verification_report.v1',
    id: 'vr-1',
    subject: 'tests',
    status: 'passed',
    effect_digest: 'abc',
    checks: [],
    residual_risks: [],
    run_id: null,
    created_at_ms: 0,
    source: 'commands',
  });
  return session.save();
}

/** Writes `snap`'s parts in the sharded layout under a fresh workspace; returns its folder and the shard folder. */
function writeShards(snap: SessionSnapshotV1, opts: { bareBeside?: boolean } = {}): { dir: string; shards: string } {
  const ws = workspace();
  const folder = join(ws.dir, '.a3s', 'sessions');
  const shards = join(folder, snap.session_id);
  mkdirSync(shards, { recursive: true });
  const bare = {
    id: snap.session_id,
    created_at: 1_700_000_000_000,
    messages: [
      { role: 'user', content: 'Add 2 and 3' },
      { role: 'assistant', content: 'The sum is 5.' },
    ],
  };
  if (opts.bareBeside) writeFileSync(join(folder, `${snap.session_id}.json`), JSON.stringify(bare));
  else writeFileSync(join(shards, 'session.json'), JSON.stringify(bare));
  writeFileSync(join(shards, 'runs.json'), JSON.stringify(snap.runs));
  writeFileSync(join(shards, 'trace_events.json'), JSON.stringify(snap.trace_events));
  writeFileSync(join(shards, 'verification_reports.json'), JSON.stringify(snap.verification_reports));
  writeFileSync(join(shards, 'artifacts.json'), JSON.stringify({ artifacts: snap.artifacts }));
  return { dir: ws.dir, shards };
}

describe('sharded session folders (migration)', () => {
  it('PERS-07: a sharded folder loads as one snapshot, is listed, resumes, and the next save publishes one envelope', async () => {
    const snap = await savedSnapshot('sh1');
    expect(snap.runs.length).toBe(1);
    expect(snap.trace_events.length).toBeGreaterThan(0);
    const { dir, shards } = writeShards(snap);
    const store = new FileSessionStore(dir);
    const loaded = await store.loadSnapshot('sh1');
    expect(loaded).toMatchObject({ version: 1, session_id: 'sh1', created_at_ms: 1_700_000_000_000 });
    expect(loaded!.runs).toEqual(snap.runs);
    expect(loaded!.trace_events).toEqual(snap.trace_events);
    expect(loaded!.verification_reports).toEqual(snap.verification_reports);
    expect(loaded!.subagent_tasks).toEqual([]);
    expect(loaded!.conversation.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await store.listSessions()).toEqual([{ sessionId: 'sh1', updatedAtMs: 1_700_000_000_000 }]);

    const model = new ScriptedLlmClient([{ text: 'again' }]);
    const agent = await Agent.create({
      model,
      workspace: workspace().services,
      sessionStore: 'file',
      persistence: 'memory',
    });
    const session = await agent.resumeSession('sh1', { dir });
    sessions.push(session);
    await session.send('one more');
    expect(model.requests[0]!.messages.map((m) => m.content)).toEqual(['Add 2 and 3', 'The sum is 5.', 'one more']);
    const saved = await session.save();
    expect(saved.runs.map((r) => r.run_id)).toContain(snap.runs[0]!.run_id);
    const envelope = JSON.parse(readFileSync(join(dir, '.a3s', 'sessions', 'sh1.json'), 'utf8')) as SessionSnapshotV1;
    expect(envelope.version).toBe(1);
    expect(existsSync(join(shards, 'session.json'))).toBe(true);
    expect((await store.loadSnapshot('sh1'))!.conversation.length).toBe(saved.conversation.length);
    expect(await store.listSessions()).toHaveLength(1);
  });

  it('PERS-07: part files beside a bare legacy file are merged into it', async () => {
    const snap = await savedSnapshot('sh2');
    const { dir } = writeShards(snap, { bareBeside: true });
    const loaded = await new FileSessionStore(dir).loadSnapshot('sh2');
    expect(loaded!.runs).toEqual(snap.runs);
    expect(loaded!.conversation).toHaveLength(2);
  });

  it('PERS-07: a bad part is refused naming its file and field; nothing is guessed', async () => {
    const snap = await savedSnapshot('sh3');
    const { dir, shards } = writeShards(snap);
    const store = new FileSessionStore(dir);
    writeFileSync(join(shards, 'runs.json'), JSON.stringify([{ ...snap.runs[0], session_id: 'other' }]));
    await expect(store.loadSnapshot('sh3')).rejects.toMatchObject({
      code: 'SESSION_SNAPSHOT_INVALID',
      source: join(shards, 'runs.json'),
      field: 'runs[0].session_id',
    });
    writeFileSync(join(shards, 'runs.json'), '{"not":"runs"}');
    await expect(store.loadSnapshot('sh3')).rejects.toThrow(/runs\.json.*must be a JSON array of runs/);
    writeFileSync(join(shards, 'runs.json'), '[');
    await expect(store.loadSnapshot('sh3')).rejects.toThrow(/runs\.json.*is not valid JSON/);
    writeFileSync(join(shards, 'runs.json'), '[]');
    writeFileSync(join(shards, 'session.json'), JSON.stringify({ id: 'someone-else', messages: [] }));
    await expect(store.loadSnapshot('sh3')).rejects.toMatchObject({ field: 'session_id' });
    expect(await store.listSessions()).toEqual([]);
  });

  it('PERS-07: a folder without session.json, or a link in place of the folder or a part, is refused by name', async () => {
    const snap = await savedSnapshot('sh4');
    const { dir, shards } = writeShards(snap);
    const store = new FileSessionStore(dir);
    const outside = workspace().dir;
    writeFileSync(join(outside, 'runs.json'), JSON.stringify(snap.runs));
    const rm = (p: string) => rmSync(p, { recursive: true, force: true });
    rm(join(shards, 'runs.json'));
    symlinkSync(join(outside, 'runs.json'), join(shards, 'runs.json'));
    await expect(store.loadSnapshot('sh4')).rejects.toThrow(/runs\.json.*symbolic link/);

    rm(join(shards, 'session.json'));
    rm(join(shards, 'runs.json'));
    await expect(store.loadSnapshot('sh4')).rejects.toMatchObject({
      code: 'SESSION_SNAPSHOT_INVALID',
      field: 'session.json',
    });

    rm(shards);
    mkdirSync(join(outside, 'sh4'));
    writeFileSync(join(outside, 'sh4', 'session.json'), JSON.stringify({ id: 'sh4', messages: [] }));
    symlinkSync(join(outside, 'sh4'), shards);
    await expect(store.loadSnapshot('sh4')).rejects.toThrow(/symbolic link/);
    expect(await store.listSessions()).toEqual([]);
  });
});
