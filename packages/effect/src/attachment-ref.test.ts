import { describe, expect, it } from 'vitest';
import type { AttachmentRef } from './attachment-ref.js';
import { drafts } from './drafts.js';
import { FactValidationError } from './errors.js';
import { encodeFact, parseLog } from './fact.js';
import { FactLog } from './fact-log.js';
import { fold } from './folder.js';
import { formatSummary } from './format.js';
import { summarizeLog } from './summary.js';

const png: AttachmentRef = { sha256: 'ab'.repeat(32), media_type: 'image/png', size: 1234, name: 'shot.png' };
const log: AttachmentRef = { sha256: 'cd'.repeat(32), media_type: 'text/plain', size: 40 };

function logWith(payload: Record<string, unknown>): FactLog {
  const l = new FactLog();
  l.append([{ type: 'user.message', key: 'user:1', payload }], null);
  return l;
}

describe('user.message attachments', () => {
  it('a prompt draft carries the references; the fold keeps them on the user message', () => {
    const l = new FactLog();
    l.append([drafts.prompt('r1', 'look', 5, [png, log])], null);
    const msg = fold(l.facts).view.messages[0];
    expect(msg).toEqual({ role: 'user', text: 'look', source: 'user', seq: 1, attachments: [png, log] });
    // The text file is inlined when sent, so it counts towards the context size; the image does not.
    expect(fold(l.facts).view.context_chars).toBe('look'.length + 40);
  });

  it('a prompt without attachments writes and folds exactly as before (no empty field)', () => {
    const l = new FactLog();
    l.append([drafts.prompt('r1', 'look', 5)], null);
    expect(l.facts[0]!.payload).toEqual({ text: 'look', source: 'user', at_ms: 5 });
    expect(fold(l.facts).view.messages[0]).toEqual({ role: 'user', text: 'look', source: 'user', seq: 1 });
    expect(summarizeLog(l.facts)).not.toHaveProperty('attachments');
  });

  it.each([
    [{ attachments: [] }, 'payload.attachments'],
    [{ attachments: [{ ...png, sha256: 'AB'.repeat(32) }] }, 'payload.attachments[0].sha256'],
    [{ attachments: [{ ...png, sha256: 'ab' }] }, 'payload.attachments[0].sha256'],
    [{ attachments: [{ ...png, media_type: 'application/pdf' }] }, 'payload.attachments[0].media_type'],
    [{ attachments: [{ ...png, size: -1 }] }, 'payload.attachments[0].size'],
    [{ attachments: [{ ...png, name: 7 }] }, 'payload.attachments[0].name'],
    [{ attachments: Array.from({ length: 33 }, () => png) }, 'payload.attachments'],
    [{ attachments: 'shot.png' }, 'payload.attachments'],
  ])('rejects a bad reference %j naming %s', (extra, field) => {
    let error: unknown;
    try {
      logWith({ text: 'x', source: 'user', ...extra });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FactValidationError);
    expect((error as FactValidationError).message).toContain(field);
  });

  it('the parse fast path and the full checks agree on attachment payloads', () => {
    const good = logWith({ text: 'x', source: 'user', attachments: [png, log] });
    const line = `${encodeFact(good.facts[0]!)}\n`;
    expect(parseLog(line).facts[0]!.payload).toEqual(good.facts[0]!.payload);
    // A bad reference is refused when a log is read too, not only when it is appended.
    const bad = line.replace('"image/png"', '"image/bmp"');
    expect(() => parseLog(bad)).toThrow(/media_type/);
  });

  it('the replay summary lists each attachment with its turn and run; the text form shows them', () => {
    const l = new FactLog();
    l.append([drafts.runStarted('r1', {}), drafts.prompt('r1', 'first', 1, [png])], null);
    l.append(
      [
        drafts.modelTurn(1, 0, {
          decision: { kind: 'text', text: 'ok' },
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      ],
      'infer:1:0',
    );
    l.append(
      [
        drafts.runEnded('r1', { status: 'completed' }),
        drafts.runStarted('r2', {}),
        drafts.prompt('r2', 'second', 2, [log]),
      ],
      null,
    );
    const s = summarizeLog(l.facts);
    expect(s.attachments).toEqual([
      { ...png, seq: 2, turn: 1, run_id: 'r1' },
      { ...log, seq: 6, turn: 2, run_id: 'r2' },
    ]);
    const text = formatSummary(s);
    expect(text).toContain(`attachment in turn 1 (seq 2): shot.png image/png, 1234 bytes, sha256 ${png.sha256}`);
    expect(text).toContain(`attachment in turn 2 (seq 6): (unnamed) text/plain, 40 bytes, sha256 ${log.sha256}`);
  });
});
