// The files the model attaches to a sub-agent's task are read as that call reads: a path under a
// read ask rule is not read unasked, and another name (a hard link) of a denied file is refused,
// for `task` and `parallel_task` alike, and nothing of the file reaches the sub-agent's model.
import { existsSync, linkSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmRequest, LlmStreamEvent } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
import { call, NESTED, results, SECRET, workspace } from './read-deny-kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** Runs the turns with a model that keeps the JSON of every request it was sent. */
async function run(dir: string, turns: ScriptedTurn[], options: SessionOptions) {
  const seen: string[] = [];
  class Recording extends ScriptedLlmClient {
    override stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
      seen.push(JSON.stringify(request));
      return super.stream(request);
    }
  }
  const model = new Recording([...turns, { text: 'Done.' }, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    ...options,
  });
  opened.push(session);
  await session.send('go').catch(() => undefined);
  return { session, seen };
}

const marker = (line: string) => line.split('=')[1] as string;
const artifacts = (dir: string) => {
  const at = join(dir, '.a3s', 'artifacts');
  return existsSync(at) ? readdirSync(at) : [];
};

describe('attachments of a delegated task', () => {
  it('PERM-05: a task attaching a file under a read ask rule, allowed unasked, is refused and reads nothing', async () => {
    const dir = workspace();
    const { session, seen } = await run(
      dir,
      [
        call('t1', 'task', {
          agent: 'general',
          description: 'look at the file',
          prompt: 'summarise it',
          attachments: [{ type: 'file', path: 'secret/k.ts' }],
        }),
      ],
      { permissions: { ask: ['Read(.env)', 'Read(secret/**)'], allow: ['task', 'read'] } },
    );
    const t1 = results(session).get('t1');
    expect(t1?.output).toContain('Read(secret/**) needs a confirmation');
    expect(seen.some((r) => r.includes(marker(NESTED)))).toBe(false);
    expect(artifacts(dir)).toEqual([]);
  });

  it('PERM-02: task and parallel_task attaching another name (a hard link) of a denied file are refused', async () => {
    const dir = workspace();
    linkSync(join(dir, '.env'), join(dir, 'src', 'notes.txt'));
    const attachments = [{ type: 'file', path: 'src/notes.txt' }];
    const { session, seen } = await run(
      dir,
      [
        call('t1', 'task', { agent: 'general', description: 'look', prompt: 'summarise it', attachments }),
        call('p1', 'parallel_task', {
          tasks: [
            { agent: 'general', description: 'look', prompt: 'summarise it', attachments },
            { agent: 'general', description: 'look again', prompt: 'summarise it', attachments },
          ],
        }),
      ],
      { governance: { yolo: true }, permissions: { deny: ['Read(.env)'] } },
    );
    const got = results(session);
    expect(got.get('t1')?.output).toContain('another name, a hard link, of .env');
    expect(got.get('p1')?.output).toContain('another name, a hard link, of .env');
    expect(seen.some((r) => r.includes(marker(SECRET)))).toBe(false);
    expect(artifacts(dir)).toEqual([]);
  });

  it('a task attaching a file the rules allow still sends it to the sub-agent', async () => {
    const dir = workspace();
    const { session, seen } = await run(
      dir,
      [
        call('t1', 'task', {
          agent: 'general',
          description: 'look',
          prompt: 'summarise it',
          attachments: [{ type: 'file', path: 'src/public.ts' }],
        }),
      ],
      { governance: { yolo: true }, permissions: { deny: ['Read(.env)'] } },
    );
    expect(results(session).get('t1')?.output).toContain('"status":"completed"');
    expect(seen.some((r) => r.includes('SECRET_TOKEN_NAME'))).toBe(true);
  });
});
