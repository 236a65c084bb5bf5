import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { emptyWorkspace } from '../workspace/workspace-services.js';
import { attachmentContent, loadAttachmentBytes } from './attachment-content.js';
import { AttachmentError, AttachmentMissingError } from './attachment-errors.js';
import { ATTACHMENT_LIMITS } from './attachment-input.js';
import { FileAttachmentStore, MemoryAttachmentStore } from './attachment-store.js';
import { prepareAttachments } from './prepare-attachments.js';
import { decodeText, sniffImage } from './sniff.js';

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = new Uint8Array(Buffer.from(PNG_B64, 'base64'));
const bytes = (...b: number[]) => new Uint8Array(b);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const ws = emptyWorkspace('/nowhere');

async function refusal(inputs: unknown, limits = ATTACHMENT_LIMITS): Promise<AttachmentError> {
  const e = await prepareAttachments(inputs, { workspace: ws, limits }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(AttachmentError);
  expect((e as AttachmentError).code).toBe('ATTACHMENT_INVALID');
  return e as AttachmentError;
}

describe('sniffing', () => {
  it('recognises PNG, JPEG, GIF and WebP by their magic numbers only', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe('image/jpeg');
    expect(sniffImage(new TextEncoder().encode('GIF87a....'))).toBe('image/gif');
    expect(sniffImage(new TextEncoder().encode('GIF89a....'))).toBe('image/gif');
    expect(sniffImage(new TextEncoder().encode('RIFF\u0010\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImage(new TextEncoder().encode('RIFF\u0010\0\0\0WAVEfmt '))).toBeUndefined();
    expect(sniffImage(PNG.subarray(0, 7))).toBeUndefined();
    expect(sniffImage(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });

  it('text is valid UTF-8 without NUL bytes', () => {
    expect(decodeText(new TextEncoder().encode('héllo\n'))).toBe('héllo\n');
    expect(decodeText(bytes(0x68, 0, 0x69))).toBeUndefined();
    expect(decodeText(bytes(0xc3, 0x28))).toBeUndefined();
  });
});

describe('prepareAttachments with data', () => {
  it('takes bytes, base64 or a data URL; the reference names the sniffed type, size and sha256', async () => {
    const [a, b, c] = await prepareAttachments(
      [
        { type: 'image', data: PNG, name: 'dot.png' },
        { type: 'image', data: PNG_B64, mediaType: 'image/png' },
        { type: 'image', data: `data:image/png;base64,${PNG_B64}` },
      ],
      { workspace: ws },
    );
    expect(a!.ref).toEqual({ sha256: sha(PNG), media_type: 'image/png', size: PNG.length, name: 'dot.png' });
    expect(b!.ref).toEqual({ sha256: sha(PNG), media_type: 'image/png', size: PNG.length });
    expect(c!.bytes).toEqual(PNG);
  });

  it('refuses bytes that are not an image, whatever the declared type says', async () => {
    const e = await refusal([
      { type: 'image', data: new TextEncoder().encode('not really a png'), mediaType: 'image/png' },
    ]);
    expect(e).toMatchObject({ problem: 'not_an_image', field: 'attachments[0]' });
    expect(e.message).toContain('PNG, JPEG, GIF or WebP');
  });

  it('refuses a declared type the bytes contradict, naming both', async () => {
    const e = await refusal([{ type: 'image', data: PNG, mediaType: 'image/jpeg' }]);
    expect(e).toMatchObject({ problem: 'media_type_mismatch', field: 'attachments[0].mediaType' });
    expect(e.message).toContain('"image/jpeg" but the bytes are image/png');
  });

  it('caps an image, a prompt and the count, saying what is allowed', async () => {
    const small = { ...ATTACHMENT_LIMITS, maxImageBytes: 60, maxPromptBytes: 100, maxAttachments: 2 };
    const big = new Uint8Array(80);
    big.set(PNG.subarray(0, 8));
    expect(await refusal([{ type: 'image', data: big }], small)).toMatchObject({ problem: 'too_large' });
    expect(await refusal([{ type: 'image', data: Buffer.from(big).toString('base64') }], small)).toMatchObject({
      problem: 'too_large',
    });
    const ok = { type: 'image', data: PNG.subarray(0, 55) };
    const e = await refusal([ok, ok], small);
    expect(e).toMatchObject({ problem: 'prompt_too_large', field: 'attachments' });
    expect(await refusal([ok, ok, ok], small)).toMatchObject({ problem: 'too_many' });
    expect((await refusal([{ type: 'image', data: new Uint8Array(6 * 1024 * 1024) }])).message).toContain(
      'at most 5 MB (5242880 bytes)',
    );
  });

  it.each([
    [null, 'attachments'],
    [[{ type: 'video', path: 'a.mp4' }], 'attachments[0].type'],
    [[{ type: 'image' }], 'attachments[0]'],
    [[{ type: 'image', path: 'a.png', data: PNG_B64 }], 'attachments[0]'],
    [[{ type: 'file', data: PNG_B64 }], 'attachments[0].data'],
    [[{ type: 'file', path: 'a.txt', mediaType: 'text/plain' }], 'attachments[0].mediaType'],
    [[{ type: 'image', data: 'not base64!' }], 'attachments[0].data'],
    [[{ type: 'image', data: PNG, url: 'http://x' }], 'attachments[0].url'],
  ])('refuses malformed input %j naming %s', async (input, field) => {
    expect(await refusal(input)).toMatchObject({ field, problem: 'invalid' });
  });

  it('a path needs a readable workspace', async () => {
    expect(await refusal([{ type: 'file', path: 'notes.txt' }])).toMatchObject({
      problem: 'no_workspace',
      field: 'attachments[0].path',
    });
  });
});

describe('attachment stores', () => {
  it('the file store writes each artifact once, atomically, under its sha256, and reads it back', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'a3s-art-')), '.a3s', 'artifacts');
    const store = new FileAttachmentStore(folder);
    await store.put(sha(PNG), PNG);
    await store.put(sha(PNG), PNG);
    expect(readdirSync(folder).filter((n) => !n.startsWith('.'))).toEqual([sha(PNG)]);
    expect(existsSync(join(folder, '..', '.gitignore'))).toBe(true);
    expect(await new FileAttachmentStore(folder).get(sha(PNG))).toEqual(PNG);
    expect(await store.get('0'.repeat(64))).toBeUndefined();
    expect(store.locate(sha(PNG))).toBe(join(folder, sha(PNG)));
  });

  it('loading a conversation names a missing or altered artifact by its hash and place', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'a3s-art-'));
    const ref = { sha256: sha(PNG), media_type: 'image/png' as const, size: PNG.length, name: 'dot.png' };
    const messages: Message[] = [{ role: 'user', text: 'see', source: 'user', seq: 1, attachments: [ref] }];
    const missing = await loadAttachmentBytes(new FileAttachmentStore(folder), messages).catch((x: unknown) => x);
    expect(missing).toBeInstanceOf(AttachmentMissingError);
    expect(missing).toMatchObject({ code: 'ATTACHMENT_MISSING', sha256: ref.sha256 });
    expect((missing as Error).message).toContain(
      `'dot.png' (image/png) with sha256 ${ref.sha256} at ${join(folder, ref.sha256)}`,
    );
    writeFileSync(join(folder, ref.sha256), 'tampered');
    const corrupt = await loadAttachmentBytes(new FileAttachmentStore(folder), messages).catch((x: unknown) => x);
    expect((corrupt as Error).message).toContain('does not match its sha256');
    const memory = new MemoryAttachmentStore();
    await memory.put(ref.sha256, PNG);
    expect((await loadAttachmentBytes(memory, messages)).get(ref.sha256)).toEqual(PNG);
  });
});

describe('attachment content', () => {
  const text = new TextEncoder().encode('line 1\nline 2\n');
  const img = { sha256: sha(PNG), media_type: 'image/png' as const, size: PNG.length, name: 'dot.png' };
  const log = { sha256: sha(text), media_type: 'text/plain' as const, size: text.length, name: 'logs/app.log' };

  it('inlines text files with their names and sends images as base64', () => {
    const out = attachmentContent(
      'Why?',
      [img, log],
      new Map([
        [img.sha256, PNG],
        [log.sha256, text],
      ]),
    );
    expect(out.content).toBe('Why?\n\n<attached_file name="logs/app.log">\nline 1\nline 2\n</attached_file>');
    expect(out.images).toEqual([{ mediaType: 'image/png', data: PNG_B64, name: 'dot.png' }]);
  });

  it('without bytes (a compaction request), mentions each attachment by name instead', () => {
    const out = attachmentContent('Why?', [img, log], undefined);
    expect(out.images).toEqual([]);
    expect(out.content).toBe(
      `Why?\n\n[attached image: dot.png (image/png, ${PNG.length} bytes)]\n\n[attached file: logs/app.log (text/plain, 14 bytes)]`,
    );
  });
});
