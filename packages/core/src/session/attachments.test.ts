// Prompt attachments through a session: admission, the step limit, the log and the requests.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProjectedEventV1 } from '../events/event-envelope.js';
import { closeAfterEach, open, types } from '../../test/session-kit.js';

const { track } = closeAfterEach();

/** Reads a stream to its end into `into`; rejects as the stream does. */
async function collect(stream: AsyncIterable<ProjectedEventV1>, into: ProjectedEventV1[]): Promise<void> {
  for await (const ev of stream) into.push(ev);
}

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = new Uint8Array(Buffer.from(PNG_B64, 'base64'));
const SHA = createHash('sha256').update(PNG).digest('hex');
const image = { type: 'image' as const, data: PNG, name: 'dot.png' };

describe('send and stream with attachments', () => {
  it('the prompt fact carries the reference, the artifact is on disk, and every request sends the image again', async () => {
    const { session, model, dir } = await track(open([{ text: 'A dot.' }, { text: 'Still a dot.' }]));
    await session.send('What is this?', { attachments: [image] });
    await session.send('And now?');
    const user = session.store.log.facts.find((f) => f.type === 'user.message')!;
    expect(user.payload).toMatchObject({
      text: 'What is this?',
      attachments: [{ sha256: SHA, media_type: 'image/png', size: PNG.length, name: 'dot.png' }],
    });
    expect(new Uint8Array(readFileSync(join(dir, '.a3s', 'artifacts', SHA)))).toEqual(PNG);
    const image0 = { mediaType: 'image/png', data: PNG_B64, name: 'dot.png' };
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'What is this?', images: [image0] }]);
    // The second request replays the conversation: the first prompt still has its image.
    expect(model.requests[1]!.messages[0]).toEqual({ role: 'user', content: 'What is this?', images: [image0] });
    expect(model.requests[1]!.messages[2]).toEqual({ role: 'user', content: 'And now?' });
  });

  it('stream takes attachments too', async () => {
    const { session, model } = await track(open([{ text: 'A dot.' }]));
    const stream = session.stream('What is this?', { attachments: [image] });
    const seen: string[] = [];
    for await (const ev of stream) seen.push(ev.type);
    expect((await stream.result).text).toBe('A dot.');
    expect(seen).toContain('agent_end');
    expect(model.requests[0]!.messages[0]).toMatchObject({ images: [{ mediaType: 'image/png', data: PNG_B64 }] });
  });

  it('a refused attachment is a typed error and writes nothing: no fact, no artifact', async () => {
    const { session, dir } = await track(open([{ text: 'never' }]));
    for (const attachments of [
      [{ type: 'image' as const, data: new TextEncoder().encode('GIF?? no') }],
      [{ type: 'file' as const, path: '../outside.txt' }],
      [image, { type: 'image' as const, data: PNG, mediaType: 'image/webp' }],
    ]) {
      const e = await session.send('look', { attachments }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'ATTACHMENT_INVALID' });
      expect(session.store.log.length).toBe(0);
    }
    expect(existsSync(join(dir, '.a3s', 'artifacts'))).toBe(false);
  });

  it("a refused or failed run reports its own text, never the previous run's: agent_end, the error and the result", async () => {
    const { session } = await track(
      open([{ text: 'done' }, { error: { kind: 'status', status: 400, message: 'bad request' } }, { text: 'fine' }]),
    );
    expect((await session.send('first')).text).toBe('done');
    // Refused before it opened: a bad attachment (wrong magic bytes), then a path escape.
    for (const attachments of [
      [{ type: 'image' as const, data: new TextEncoder().encode('GIF?? no') }],
      [{ type: 'file' as const, path: '../outside.txt' }],
    ]) {
      const stream = session.stream('look', { attachments });
      const events: ProjectedEventV1[] = [];
      // The iteration ends by rethrowing the run's typed error, after every event.
      await expect(collect(stream, events)).rejects.toMatchObject({ code: 'ATTACHMENT_INVALID' });
      await expect(stream.result).rejects.toMatchObject({ code: 'ATTACHMENT_INVALID' });
      expect(events.map((e) => e.type)).toEqual(['agent_start', 'error', 'agent_end']);
      expect(events.at(-1)).toMatchObject({ type: 'agent_end', text: '', payload: { status: 'failed', text: '' } });
    }
    // Opened, then failed at its first model call: still its own (empty) text.
    const failed = session.stream('second');
    const seen: ProjectedEventV1[] = [];
    await expect(collect(failed, seen)).rejects.toMatchObject({ code: expect.any(String) });
    expect(seen.filter((e) => e.type === 'agent_end')).toEqual([
      expect.objectContaining({ text: '', payload: expect.objectContaining({ status: 'failed' }) }),
    ]);
    expect((await session.send('third')).text).toBe('fine');
  });

  it('ADM-02/ADM-03: both attachment variants are transcript-affecting: while a run holds the session they fail at once with SESSION_BUSY, before any attachment is read', async () => {
    const { session } = await track(open([{ delay_ms: 300, text: 'slow' }]));
    const first = session.send('slow one');
    const before = session.store.log.length;
    // A path the workspace cannot even read: SESSION_BUSY comes first, so nothing is looked at.
    const attachments = [{ type: 'file' as const, path: 'does-not-matter.txt' }];
    const second = session.send('second', { attachments }).catch((e: unknown) => e);
    expect(() => session.stream('third', { attachments: [image] })).toThrow(
      expect.objectContaining({ code: 'SESSION_BUSY' }),
    );
    expect(session.store.log.length).toBe(before);
    expect(await second).toMatchObject({ code: 'SESSION_BUSY' });
    await first;
    expect(types(session).filter((t) => t === 'user.message')).toHaveLength(1);
  });

  it('FOLD-06/FOLD-07: a run opened with attachments stops at the 32-transition limit like any other', async () => {
    const loop = Array.from({ length: 40 }, (_, i) => ({
      tool_calls: [{ id: `c${i}`, name: 'echo', args: { text: 'x' } }],
    }));
    const { session, model } = await track(open(loop, { toolBudget: 1000 }));
    const e = await session.send('loop', { attachments: [image] }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'STEP_LIMIT' });
    const caused = new Set(session.store.log.facts.filter((f) => f.cause !== null).map((f) => f.cause));
    expect(caused.size).toBe(32);
    // Each of the 16 model calls sent the image with the first message.
    expect(model.requests).toHaveLength(16);
    expect(model.requests.every((r) => r.messages[0]?.role === 'user' && r.messages[0].images?.length === 1)).toBe(
      true,
    );
  });
});
