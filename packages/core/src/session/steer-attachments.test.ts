// Steers with attachments: checked and stored as a prompt's, recorded on the steer's user.message
// and sent in the same request; a bad attachment queues nothing and logs nothing.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = new Uint8Array(Buffer.from(PNG_B64, 'base64'));
const SHA = createHash('sha256').update(PNG).digest('hex');
const slowTool = { delay_ms: 150, tool_calls: [{ id: 'c1', name: 'echo', args: { text: 'x' } }] };

describe('steer with attachments', () => {
  it('STEER-02: the steer fact carries the reference, the artifact is stored, and the next request sends the image with the steer', async () => {
    const { session, model, dir } = await track(open([slowTool, { text: 'I see the dot.' }]));
    const run = session.send('Work on it.');
    await new Promise((r) => setTimeout(r, 30));
    const receipt = await session.steer('Look at this too.', {
      attachments: [{ type: 'image', data: PNG, name: 'dot.png' }],
    });
    expect(receipt).toMatchObject({ accepted: true, duplicate: false });
    expect((await run).text).toBe('I see the dot.');
    const steer = session.store.log.facts.find(
      (f) => f.type === 'user.message' && (f.payload as { source?: string }).source === 'steer',
    )!;
    expect(steer.payload).toMatchObject({
      text: 'Look at this too.',
      attachments: [{ sha256: SHA, media_type: 'image/png', size: PNG.length, name: 'dot.png' }],
    });
    expect(new Uint8Array(readFileSync(join(dir, '.a3s', 'artifacts', SHA)))).toEqual(PNG);
    const sent = {
      role: 'user',
      content: 'Look at this too.',
      images: [{ mediaType: 'image/png', data: PNG_B64, name: 'dot.png' }],
    };
    expect(model.requests[1]!.messages.at(-1)).toEqual(sent);
  });

  it('the replayed conversation sends the steer image again on later requests', async () => {
    const { session, model } = await track(open([slowTool, { text: 'one' }, { text: 'two' }]));
    const run = session.send('Work on it.');
    await new Promise((r) => setTimeout(r, 30));
    await session.steer('And this.', { attachments: [{ type: 'image', data: PNG_B64 }] });
    await run;
    await session.send('Next.');
    const steer = model.requests[2]!.messages.find((m) => m.role === 'user' && m.content === 'And this.');
    expect(steer).toEqual({ role: 'user', content: 'And this.', images: [{ mediaType: 'image/png', data: PNG_B64 }] });
  });

  it('a bad attachment rejects with ATTACHMENT_INVALID naming it; nothing is queued, stored or logged', async () => {
    const { session, model, dir } = await track(open([slowTool, { text: 'done' }]));
    const run = session.send('Work on it.');
    await new Promise((r) => setTimeout(r, 30));
    for (const [attachments, field] of [
      [[{ type: 'image', data: new TextEncoder().encode('GIF?? no') }], 'attachments[0]'],
      [[{ type: 'file', path: '../outside.txt' }], 'attachments[0].path'],
      [[{ type: 'image', data: PNG, mediaType: 'image/webp' }], 'attachments[0].mediaType'],
    ] as const) {
      await expect(session.steer('see', { attachments: attachments as never })).rejects.toMatchObject({
        code: 'ATTACHMENT_INVALID',
        field,
      });
    }
    await run;
    expect(
      session.store.log.facts.some(
        (f) => f.type === 'user.message' && (f.payload as { source?: string }).source === 'steer',
      ),
    ).toBe(false);
    expect(model.requests[1]!.messages.some((m) => m.role === 'user' && m.content === 'see')).toBe(false);
    expect(existsSync(join(dir, '.a3s', 'artifacts'))).toBe(false);
  });

  it('STEER-06: without an active run (or for another run) the receipt refuses before any attachment is read', async () => {
    const { session } = await track(open([{ text: 'done' }]));
    const attachments = [{ type: 'file' as const, path: 'never-read.txt' }];
    expect(await session.steer('hi', { attachments })).toMatchObject({ accepted: false, reason: 'no_active_run' });
    expect(await session.steer('  ', { attachments })).toMatchObject({ accepted: false, reason: 'empty' });
  });
});
