// A process is SIGKILLed after its prompt's `user.message` fact (with attachment references) is on
// disk; another process resumes the run. The attachments come back from the artifact store by
// their hashes, not from the workspace files (deleted before the resume); a missing artifact is a
// typed error naming it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { effectLogPath, parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { Agent, AttachmentMissingError } from '../src/index.js';
import { tempRepo } from './kit.js';

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_B64, 'base64');
const LOG_TEXT = 'GET /main.css 404\n';
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** Runs the child until its prompt fact is durable, then SIGKILLs it; returns the workspace. */
async function killAfterPrompt(): Promise<string> {
  const dir = tempRepo();
  writeFileSync(join(dir, 'shot.png'), PNG);
  writeFileSync(join(dir, 'app.log'), LOG_TEXT);
  const logFile = join(dir, effectLogPath('killed'));
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'attach-child.mjs'), dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const text = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    if (text.includes('"type":"user.message"')) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the child never wrote its prompt: ${err}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
  return dir;
}

describe('attachments across a crash', () => {
  it('RES-01: SIGKILL after the user.message fact, then resume: the attachments are read back from the artifact store by hash', async () => {
    const dir = await killAfterPrompt();
    const facts = parseLog(readFileSync(join(dir, effectLogPath('killed')), 'utf8')).facts;
    expect(facts.map((f) => f.type)).toEqual(['run.started', 'user.message']);
    expect(facts[1]!.payload).toMatchObject({
      attachments: [
        { sha256: sha(PNG), media_type: 'image/png', size: PNG.length, name: 'shot.png' },
        { sha256: sha(LOG_TEXT), media_type: 'text/plain', size: LOG_TEXT.length, name: 'app.log' },
      ],
    });
    // The workspace copies are gone: only the artifact store can supply the bytes now.
    rmSync(join(dir, 'shot.png'));
    rmSync(join(dir, 'app.log'));
    const model = new ScriptedLlmClient([{ text: 'A dot; the stylesheet 404s.' }]);
    const session = await (await Agent.create({ model })).session(dir, { sessionId: 'killed' });
    try {
      const r = await session.resumeRun();
      expect(r).toMatchObject({ status: 'completed', text: 'A dot; the stylesheet 404s.' });
      expect(model.requests[0]!.messages[0]).toEqual({
        role: 'user',
        content: `What is on the screen, and what does the log say?\n\n<attached_file name="app.log">\n${LOG_TEXT}</attached_file>`,
        images: [{ mediaType: 'image/png', data: PNG_B64, name: 'shot.png' }],
      });
    } finally {
      await session.close();
    }
  }, 30_000);

  it('a missing artifact on resume is a typed error naming its hash; the run records the failure', async () => {
    const dir = await killAfterPrompt();
    const artifact = join(dir, '.a3s', 'artifacts', sha(PNG));
    expect(existsSync(artifact)).toBe(true);
    rmSync(artifact);
    const model = new ScriptedLlmClient([{ text: 'never asked' }]);
    const session = await (await Agent.create({ model })).session(dir, { sessionId: 'killed' });
    try {
      const e = await session.resumeRun().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AttachmentMissingError);
      expect(e).toMatchObject({ code: 'ATTACHMENT_MISSING', sha256: sha(PNG), location: artifact });
      expect((e as Error).message).toContain(`'shot.png' (image/png) with sha256 ${sha(PNG)}`);
      expect(model.requests).toHaveLength(0);
      expect(session.state.view.run.status).toBe('failed');
    } finally {
      await session.close();
    }
  }, 30_000);
});
