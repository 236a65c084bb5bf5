// The DAP connection's framing against an adapter that sends too much: a large message in many
// chunks is read whole (the chunks are joined once, not on every chunk), and a message or a header
// over the limits ends the connection with a reason instead of growing a buffer without end.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DAP_MAX_MESSAGE_BYTES, type DapEvent, DapConnection } from '../src/debug/dap-connection.js';

function connection() {
  const fromAdapter = new PassThrough();
  const toAdapter = new PassThrough();
  const dap = new DapConnection(fromAdapter, toAdapter);
  const events: DapEvent[] = [];
  dap.onEvent((e) => events.push(e));
  return { dap, events, send: (bytes: Buffer) => fromAdapter.write(bytes) };
}

const frame = (msg: unknown): Buffer => {
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
};

/** Writes `bytes` in pieces of `size`, letting the stream deliver each. */
async function inPieces(send: (b: Buffer) => unknown, bytes: Buffer, size: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += size) {
    send(bytes.subarray(at, at + size));
    if ((at / size) % 64 === 0) await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setImmediate(r));
}

describe('DAP framing', () => {
  it('a 40 MB output event in 64 KiB chunks is read whole, followed by the next message, in time linear in its size', async () => {
    const { events, send } = connection();
    const text = 'x'.repeat(40 * 1024 * 1024);
    const bytes = Buffer.concat([
      frame({ type: 'event', event: 'output', body: { output: text } }),
      frame({ type: 'event', event: 'stopped' }),
    ]);
    const t0 = Date.now();
    await inPieces(send, bytes, 64 * 1024);
    // Joining all that came on every chunk copied ~20 GB here and took tens of seconds.
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(events.map((e) => e.event)).toEqual(['output', 'stopped']);
    expect(String(events[0]?.body?.output).length).toBe(text.length);
  });

  it('a message announced over the limit ends the connection with the reason; pending requests fail with it', async () => {
    const { dap, events, send } = connection();
    const pending = dap.request('threads');
    send(Buffer.from(`Content-Length: ${DAP_MAX_MESSAGE_BYTES + 1}\r\n\r\n${'y'.repeat(1000)}`, 'ascii'));
    await expect(pending).rejects.toMatchObject({
      code: 'DEBUG_ADAPTER',
      message: expect.stringMatching(/broke the protocol: it announced a message of \d+ bytes; at most \d+ are read/),
    });
    expect(events.at(-1)).toMatchObject({ event: 'a3s_closed' });
    send(frame({ type: 'event', event: 'stopped' }));
    await new Promise((r) => setImmediate(r));
    expect(events.some((e) => e.event === 'stopped')).toBe(false);
    await expect(dap.request('threads')).rejects.toMatchObject({ code: 'DEBUG_ADAPTER' });
  });

  it('bytes without the end of a header are not kept without bound', async () => {
    const { dap, send } = connection();
    const pending = dap.request('threads');
    send(Buffer.alloc(64 * 1024, 'z'));
    await expect(pending).rejects.toMatchObject({ message: expect.stringMatching(/without the blank line/) });
  });
});
