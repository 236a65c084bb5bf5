// Restoring a saved session keeps its attachments: the restored conversation sends the same image
// and file parts as before the snapshot, in the same workspace or another one, and an artifact that
// cannot be found is a typed error naming it, with nothing written.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { ScriptedLlmClient } from '../testing/index.js';
import { Agent } from './agent.js';
import { parseSessionSnapshot } from './snapshot-parse.js';
import type { AgentSession } from './agent-session.js';

const { sessions } = closeAfterEach();
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** A PNG no other test holds (its trailing bytes are random), so no live store of this process can supply it. */
const uniquePng = () => new Uint8Array(Buffer.concat([Buffer.from(PNG_B64, 'base64'), randomBytes(8)]));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** An agent on its own scripted model (a new agent per step stands in for a new process). */
async function agentWith(texts: string[], options: { persistence?: 'file' | 'memory' } = {}) {
  const model = new ScriptedLlmClient(texts.map((text) => ({ text })));
  const agent = await Agent.create({ model, sessionStore: 'file', persistence: options.persistence ?? 'file' });
  return { agent, model };
}

/** Sends a prompt with an image and a data-less text file reference, saves, and returns what the model got. */
async function saved(id: string, png: Uint8Array, persistence: 'file' | 'memory' = 'file') {
  const ws = workspace();
  const { agent, model } = await agentWith(['A dot.'], { persistence });
  const session = await agent.session(ws.dir, { sessionId: id });
  sessions.push(session);
  await session.send('What is this?', { attachments: [{ type: 'image', data: png, name: 'dot.png' }] });
  const snapshot = await session.save();
  return { ws, session, snapshot, first: model.requests[0]!.messages[0]! };
}

/** Copies a saved session's snapshot file into another workspace. */
function moveSnapshot(from: string, to: string, id: string): void {
  mkdirSync(join(to, '.a3s', 'sessions'), { recursive: true });
  cpSync(join(from, '.a3s', 'sessions', `${id}.json`), join(to, '.a3s', 'sessions', `${id}.json`));
}

describe('restoring a snapshot with attachments', () => {
  it('PERS-01: the snapshot keeps the references (not the bytes); restored elsewhere, the next request sends the image exactly as before', async () => {
    const png = uniquePng();
    const { ws, snapshot, first } = await saved('moved', png);
    expect(snapshot.conversation[0]).toMatchObject({
      role: 'user',
      attachments: [{ sha256: sha(png), media_type: 'image/png', size: png.length, name: 'dot.png' }],
    });
    expect(JSON.stringify(snapshot)).not.toContain(Buffer.from(png).toString('base64'));
    const other = workspace();
    moveSnapshot(ws.dir, other.dir, 'moved');
    const { agent, model } = await agentWith(['Still a dot.']);
    const restored: AgentSession = await agent.resumeSession('moved', { dir: other.dir, persistence: 'memory' });
    sessions.push(restored);
    await restored.send('And now?');
    const sent = model.requests[0]!.messages;
    expect(sent[0]).toEqual(first);
    expect(sent[1]).toEqual({ role: 'assistant', content: 'A dot.' });
    expect(sent[2]).toEqual({ role: 'user', content: 'And now?' });
  });

  it('FOLD-08: restored into another workspace with a file log, the artifact is copied there by hash and the history fact carries the reference', async () => {
    const png = uniquePng();
    const { ws, first } = await saved('copied', png);
    const other = workspace();
    moveSnapshot(ws.dir, other.dir, 'copied');
    const { agent, model } = await agentWith(['Again a dot.']);
    const restored = await agent.resumeSession('copied', { dir: other.dir });
    sessions.push(restored);
    expect(new Uint8Array(readFileSync(join(other.dir, '.a3s', 'artifacts', sha(png))))).toEqual(png);
    const history = restored.store.log.facts.find((f) => f.type === 'user.message')!;
    expect(history.payload).toMatchObject({ source: 'history', attachments: [{ sha256: sha(png) }] });
    expect(restored.store.log.facts.map((f) => f.type)).toEqual(['user.message', 'model.turn']);
    // The source may go away now: the copy is what the restored session reads.
    rmSync(join(ws.dir, '.a3s', 'artifacts'), { recursive: true });
    await restored.send('Sure?');
    expect(model.requests[0]!.messages[0]).toEqual(first);
  });

  it('the same workspace with an empty log (memory persistence): the history refers to the artifacts still there', async () => {
    const png = uniquePng();
    const { ws, session, first } = await saved('same', png, 'memory');
    const { agent, model } = await agentWith(['Yes.'], { persistence: 'memory' });
    // The first session is still open, so this process still holds the bytes it stored.
    const restored = await agent.resumeSession('same', { dir: ws.dir });
    sessions.push(restored);
    await restored.send('Same dot?');
    expect(model.requests[0]!.messages[0]).toEqual(first);
    expect(session.store.log.length).toBeGreaterThan(0);
  });

  it('a missing artifact fails the restore with ATTACHMENT_MISSING naming it, and writes nothing', async () => {
    const png = uniquePng();
    const { ws } = await saved('lost', png);
    rmSync(join(ws.dir, '.a3s', 'artifacts', sha(png)));
    const other = workspace();
    moveSnapshot(ws.dir, other.dir, 'lost');
    const { agent, model } = await agentWith(['never']);
    const e = await agent.resumeSession('lost', { dir: other.dir }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'ATTACHMENT_MISSING', sha256: sha(png) });
    expect((e as Error).message).toContain(`'dot.png' (image/png) with sha256 ${sha(png)}`);
    expect((e as Error).message).toContain(join(other.dir, '.a3s', 'artifacts', sha(png)));
    expect(existsSync(join(other.dir, '.a3s', 'artifacts', sha(png)))).toBe(false);
    const log = join(other.dir, '.a3s', 'effect-log', 'lost.jsonl');
    expect(existsSync(log) ? readFileSync(log, 'utf8').trim() : '').toBe('');
    expect(model.requests).toHaveLength(0);
  });

  it('an artifact altered on disk is refused as corrupt, not sent', async () => {
    const png = uniquePng();
    const { ws } = await saved('altered', png);
    writeFileSync(join(ws.dir, '.a3s', 'artifacts', sha(png)), 'tampered');
    const other = workspace();
    moveSnapshot(ws.dir, other.dir, 'altered');
    const { agent } = await agentWith([]);
    await expect(agent.resumeSession('altered', { dir: other.dir })).rejects.toMatchObject({
      code: 'ATTACHMENT_MISSING',
    });
  });

  it('snapshots without attachments still load; a reference that is not a SHA-256 is refused naming the field', async () => {
    const base = {
      version: 1,
      session_id: 's',
      created_at_ms: 0,
      updated_at_ms: 0,
      artifacts: [],
      trace_events: [],
      runs: [],
      verification_reports: [],
      subagent_tasks: [],
    };
    const user = { role: 'user', text: 'hi', source: 'user', seq: 1 };
    expect(parseSessionSnapshot({ ...base, conversation: [user] }, 'old.json').conversation).toEqual([user]);
    const bad = { ...user, attachments: [{ sha256: '../../etc/passwd', media_type: 'image/png', size: 1 }] };
    expect(() => parseSessionSnapshot({ ...base, conversation: [bad] }, 'bad.json')).toThrow(
      expect.objectContaining({ code: 'SESSION_SNAPSHOT_INVALID', field: 'conversation[0].attachments[0].sha256' }),
    );
  });
});
