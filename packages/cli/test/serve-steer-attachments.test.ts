// `a3s serve` session/steer with attachments: validated like session/send, stored before the steer
// is queued, recorded on the steer's user.message; a bad one is a typed error and nothing is logged.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptFile, tempRepo, TINY_PNG } from './kit.js';
import { Served } from './serve-kit.js';

const running: Served[] = [];
afterEach(() => {
  for (const s of running.splice(0)) s.child.kill('SIGTERM');
});

type Opened = { sessionId: string; logPath: string };
type Fact = { type: string; payload: { source?: string; text?: string; attachments?: { media_type: string }[] } };

describe('a3s serve session/steer attachments', () => {
  it('STEER-02: a steer with an image and a text file is recorded with their references; bad attachments are refused naming the field', async () => {
    const dir = tempRepo();
    const png = TINY_PNG;
    writeFileSync(join(dir, 'shot.png'), png);
    writeFileSync(join(dir, 'app.log'), 'GET / 500\n');
    const s = new Served(dir);
    running.push(s);
    await s.call('initialize', { protocolVersion: 1 });
    const turns = [{ delay_ms: 700, tool_calls: [{ id: 'c1', name: 'ls', args: {} }] }, { text: 'Seen.' }];
    const opened = await s.call<Opened>('session/open', {
      workspace: '.',
      model: `scripted:${scriptFile(turns)}`,
      yolo: true,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId: opened.sessionId, prompt: 'go' });
    const outside = await s.request('session/steer', {
      sessionId: opened.sessionId,
      text: 'see',
      attachments: [{ type: 'file', path: '../outside.log' }],
    });
    expect(outside.error).toMatchObject({ data: { code: 'ATTACHMENT_INVALID' } });
    expect(outside.error?.message).toContain('attachments[0].path');
    const shape = await s.request('session/steer', {
      sessionId: opened.sessionId,
      text: 'see',
      attachments: [{ type: 'video', path: 'a.mp4' }],
    });
    expect(shape.error).toMatchObject({
      code: -32602,
      data: { field: 'params.attachments.0.type' },
    });
    const receipt = await s.call('session/steer', {
      sessionId: opened.sessionId,
      text: 'Also these.',
      runId,
      attachments: [
        { type: 'image', path: 'shot.png' },
        { type: 'file', path: 'app.log' },
      ],
    });
    expect(receipt).toMatchObject({ accepted: true, runId });
    expect(await s.runResult(runId)).toMatchObject({ status: 'completed', text: 'Seen.' });
    const steers = readFileSync(opened.logPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Fact)
      .filter((f) => f.type === 'user.message' && f.payload.source === 'steer');
    expect(steers).toHaveLength(1);
    expect(steers[0]!.payload.text).toBe('Also these.');
    expect(steers[0]!.payload.attachments?.map((a) => a.media_type)).toEqual(['image/png', 'text/plain']);
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });
});
