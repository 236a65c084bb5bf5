// Prompt attachments on a real workspace: paths go through the workspace's path checks, files are
// sniffed, every refusal is a typed error that writes nothing, and sub-agents and generate_object
// take attachments for their first message.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { parseLog, threadIdFor } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, AttachmentError, NothingToResumeError, type AttachmentInput, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_B64, 'base64');
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** A repository with an image, a log, a binary file and a file outside it that a link points to. */
async function open(turns: ScriptedTurn[]) {
  const dir = tempRepo();
  mkdirSync(join(dir, 'shots'));
  writeFileSync(join(dir, 'shots', 'home.png'), PNG);
  writeFileSync(join(dir, 'app.log'), 'GET /main.css 404\n');
  writeFileSync(join(dir, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
  writeFileSync(join(dir, 'fake.png'), 'this is text, not a PNG');
  const outside = mkdtempSync(join(tmpdir(), 'a3s-outside-'));
  writeFileSync(join(outside, 'secret.png'), PNG);
  symlinkSync(join(outside, 'secret.png'), join(dir, 'link.png'));
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({ model });
  session = await agent.session(dir, { governance: { yolo: true } });
  return { dir, outside, model, session };
}

describe('attachments from the workspace', () => {
  it('an image path and a text file: the image is sent as an image, the log inlined with its name; the log keeps references', async () => {
    const { model, session: s, dir } = await open([{ text: 'The stylesheet 404s.' }]);
    const r = await s.send('Why is the page unstyled?', {
      attachments: [
        { type: 'image', path: 'shots/home.png' },
        { type: 'file', path: 'app.log' },
      ],
    });
    expect(r.text).toBe('The stylesheet 404s.');
    expect(model.requests[0]!.messages[0]).toEqual({
      role: 'user',
      content: 'Why is the page unstyled?\n\n<attached_file name="app.log">\nGET /main.css 404\n</attached_file>',
      images: [{ mediaType: 'image/png', data: PNG_B64, name: 'shots/home.png' }],
    });
    const log = readFileSync(s.logPath!, 'utf8');
    const user = parseLog(log).facts.find((f) => f.type === 'user.message')!.payload;
    expect(user).toMatchObject({
      attachments: [
        { sha256: sha(PNG), media_type: 'image/png', size: PNG.length, name: 'shots/home.png' },
        { sha256: sha('GET /main.css 404\n'), media_type: 'text/plain', size: 18, name: 'app.log' },
      ],
    });
    expect(log).not.toContain('GET /main.css');
    expect(existsSync(join(dir, '.a3s', 'artifacts', sha('GET /main.css 404\n')))).toBe(true);
  });

  it('a file that is an image is sent as an image (sniffed, whatever its name)', async () => {
    const { model, session: s, dir } = await open([{ text: 'ok' }]);
    writeFileSync(join(dir, 'screenshot.txt'), PNG);
    await s.send('look', { attachments: [{ type: 'file', path: 'screenshot.txt' }] });
    expect(model.requests[0]!.messages[0]).toMatchObject({ content: 'look', images: [{ mediaType: 'image/png' }] });
  });

  const refusals: [string, (ctx: { dir: string; outside: string }) => AttachmentInput[], string][] = [
    ['a path that escapes with ..', () => [{ type: 'image', path: '../escape.png' }], 'path'],
    [
      'an absolute path outside the workspace',
      ({ outside }) => [{ type: 'image', path: join(outside, 'secret.png') }],
      'path',
    ],
    ['a symlink that leads out', () => [{ type: 'image', path: 'link.png' }], 'path'],
    ['a missing file', () => [{ type: 'file', path: 'nope.txt' }], 'not_found'],
    ['a folder', () => [{ type: 'file', path: 'shots' }], 'not_a_file'],
    ['wrong magic bytes', () => [{ type: 'image', path: 'fake.png' }], 'not_an_image'],
    ['a binary file that is not an image', () => [{ type: 'file', path: 'blob.bin' }], 'binary_file'],
    [
      'an image over 5 MB (refused before it is read)',
      ({ dir }) => {
        writeFileSync(join(dir, 'huge.png'), Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]));
        return [{ type: 'image', path: 'huge.png' }];
      },
      'too_large',
    ],
    [
      'more than 20 MB in one prompt',
      ({ dir }) => {
        const big = Buffer.concat([PNG, Buffer.alloc(4.5 * 1024 * 1024)]);
        return Array.from({ length: 5 }, (_, i) => {
          writeFileSync(join(dir, `big-${i}.png`), big);
          return { type: 'image' as const, path: `big-${i}.png` };
        });
      },
      'prompt_too_large',
    ],
  ];

  it.each(refusals)(
    '%s: a typed error naming the attachment, and nothing appended to the log',
    async (_, make, problem) => {
      const { session: s, dir, outside } = await open([{ text: 'first' }, { text: 'never' }]);
      await s.send('first prompt');
      const before = readFileSync(s.logPath!, 'utf8');
      const e = await s.send('look', { attachments: make({ dir, outside }) }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AttachmentError);
      expect(e).toMatchObject({ code: 'ATTACHMENT_INVALID', problem });
      expect((e as AttachmentError).field).toMatch(/^attachments/);
      expect(readFileSync(s.logPath!, 'utf8')).toBe(before);
      expect(existsSync(join(dir, '.a3s', 'artifacts'))).toBe(false);
    },
  );
});

describe('a refused run after a finished one', () => {
  it("send rejects with the typed error and stream's agent_end carries the refused run's own empty text, never the previous run's", async () => {
    const { session: s } = await open([{ text: 'done' }, { text: 'after' }]);
    expect((await s.send('first')).text).toBe('done');
    // A path that escapes the workspace, then a file whose bytes are not the image it claims to be.
    const refused: AttachmentInput[][] = [
      [{ type: 'image', path: '../escape.png' }],
      [{ type: 'image', path: 'fake.png', mediaType: 'image/png' }],
    ];
    for (const attachments of refused) {
      await expect(s.send('look', { attachments })).rejects.toBeInstanceOf(AttachmentError);
      const stream = s.stream('look', { attachments });
      const ends: unknown[] = [];
      const read = (async () => {
        for await (const ev of stream) if (ev.type === 'agent_end') ends.push(ev);
      })();
      await expect(read).rejects.toMatchObject({ code: 'ATTACHMENT_INVALID' });
      expect(ends).toEqual([
        expect.objectContaining({ text: '', payload: expect.objectContaining({ text: '', status: 'failed' }) }),
      ]);
    }
    expect((await s.send('again')).text).toBe('after');
  });

  it('resumeRun and streamResume of a run id the log does not have open fail at once with NothingToResumeError', async () => {
    const { session: s } = await open([{ text: 'done' }]);
    const first = await s.send('first');
    await expect(s.resumeRun('no-such-run')).rejects.toBeInstanceOf(NothingToResumeError);
    const stream = s.streamResume('no-such-run');
    const types: string[] = [];
    const read = (async () => {
      for await (const ev of stream) types.push(ev.type);
    })();
    await expect(read).rejects.toMatchObject({ code: 'NOTHING_TO_RESUME', runId: 'no-such-run', reason: 'unknown' });
    expect(types).toEqual([]);
    await expect(s.resumeRun(first.runId)).rejects.toMatchObject({
      code: 'NOTHING_TO_RESUME',
      reason: 'ended',
      ended: 'completed',
    });
  });
});

describe('attachments of sub-agents and generate_object', () => {
  it('session.task passes attachments to the child: its first message carries the image, its log the reference', async () => {
    const { model, session: s, dir } = await open([{ text: 'I see a dot.' }]);
    const r = await s.task({
      agent: 'explore',
      description: 'describe the shot',
      prompt: 'Describe the screenshot.',
      attachments: [{ type: 'image', path: 'shots/home.png' }],
    });
    expect(r).toMatchObject({ status: 'completed', text: 'I see a dot.' });
    expect(model.requests[0]!.messages[0]).toMatchObject({
      role: 'user',
      content: 'Describe the screenshot.',
      images: [{ mediaType: 'image/png', data: PNG_B64 }],
    });
    const child = join(dir, '.a3s', 'effect-log', `${threadIdFor(s.sessionId)}.task-1.jsonl`);
    const user = parseLog(readFileSync(child, 'utf8')).facts.find((f) => f.type === 'user.message')!;
    expect(user.payload).toMatchObject({ attachments: [{ sha256: sha(PNG), media_type: 'image/png' }] });
  });

  it('a task whose attachment escapes the workspace fails with the typed error', async () => {
    const { session: s } = await open([]);
    const r = await s.task({
      agent: 'explore',
      description: 'escape',
      prompt: 'Look.',
      attachments: [{ type: 'file', path: '../../etc/passwd' }],
    });
    expect(r).toMatchObject({ status: 'failed', error: { code: 'ATTACHMENT_INVALID' } });
  });

  it('generate_object sends its attachments with the first message; an escaping path is refused', async () => {
    const { model, session: s } = await open([{ text: '{"status":404}' }]);
    const schema = { type: 'object', properties: { status: { type: 'integer' } }, required: ['status'] };
    const ok = await s.tool('generate_object', {
      schema,
      prompt: 'Which status does the log show?',
      mode: 'json',
      attachments: [
        { type: 'file', path: 'app.log' },
        { type: 'image', path: 'shots/home.png' },
      ],
    });
    expect(JSON.parse(ok.output)).toEqual({ object: { status: 404 } });
    const first = model.requests[0]!.messages[0]!;
    expect(first.role === 'user' && first.content).toContain('<attached_file name="app.log">\nGET /main.css 404\n');
    expect(first).toMatchObject({ images: [{ mediaType: 'image/png', data: PNG_B64 }] });
    const bad = await s.tool('generate_object', {
      schema,
      prompt: 'x',
      attachments: [{ type: 'image', path: '../x.png' }],
    });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.output).toMatch(/args\.attachments\[0\]\.path/);
    expect(model.requests).toHaveLength(1);
  });
});

describe('attachments and read deny rules', () => {
  /** A repository with a secret under read deny rules, a link to it, and a FIFO. */
  async function denied(turns: ScriptedTurn[]) {
    const dir = tempRepo();
    mkdirSync(join(dir, 'secret'));
    writeFileSync(join(dir, 'secret', 'k.txt'), 'DENIED-ATTACH-1\n');
    writeFileSync(join(dir, '.env'), 'TOKEN=DENIED-ATTACH-2\n');
    symlinkSync('secret', join(dir, 'alias'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const model = new ScriptedLlmClient(turns);
    const agent = await Agent.create({ model, permissions: { deny: ['Read(.env)', 'Read(secret/**)'] } });
    session = await agent.session(dir, { governance: { yolo: true } });
    return { dir, model, session };
  }

  it('PERM-02: a file under a read deny rule cannot be attached, however its path is spelled', async () => {
    const { session: s, dir, model } = await denied([{ text: 'never' }]);
    for (const path of ['.env', './.env', 'secret/k.txt', 'alias/k.txt', join(dir, 'secret', 'k.txt')]) {
      const e = await s.send('look', { attachments: [{ type: 'file', path }] }).catch((x: unknown) => x);
      expect(e, path).toBeInstanceOf(AttachmentError);
      expect(e, path).toMatchObject({ code: 'ATTACHMENT_INVALID', problem: 'denied' });
      expect((e as Error).message, path).toMatch(/is under the read deny rule Read\((\.env|secret\/\*\*)\)/);
    }
    expect(JSON.stringify(model.requests)).not.toContain('DENIED-ATTACH');
  });

  it('PERM-02: a sub-agent task the model starts cannot attach a denied file either', async () => {
    const { session: s, model } = await denied([
      {
        tool_calls: [
          {
            name: 'task',
            args: {
              agent: 'explore',
              description: 'leak',
              prompt: 'Read it.',
              attachments: [{ type: 'file', path: 'alias/k.txt' }],
            },
          },
        ],
      },
      { text: 'done' },
    ]);
    const r = await s.send('go');
    expect(r.text).toBe('done');
    expect(JSON.stringify(model.requests)).not.toContain('DENIED-ATTACH');
    const facts = parseLog(readFileSync(s.logPath!, 'utf8')).facts;
    const result = facts.find((f) => f.type === 'tool.result')!.payload as { output: string };
    expect(result.output).toContain('is under the read deny rule Read(secret/**)');
  });

  it('a FIFO is refused as not a regular file, without waiting on it', async () => {
    const { session: s } = await denied([{ text: 'never' }]);
    const e = await s.send('look', { attachments: [{ type: 'file', path: 'pipe' }] }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'ATTACHMENT_INVALID', problem: 'not_a_file' });
    expect((e as Error).message).toContain('"pipe" is not a regular file (a FIFO, device or socket)');
  });
});
