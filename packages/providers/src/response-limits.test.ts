// A provider endpoint that never stops talking (an endless SSE line, an endless error body) does
// not fill the process's memory: reading stops at a bound, the request is aborted, and the call
// fails typed (or, for an error body, quotes only its head). Real HTTP on loopback.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { readSseEvents, SSE_LIMITS, SseLimitError } from './sse-parser.js';
import { runStream } from './test-support/collect.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Writes `chunk` until the client goes away; resolves the bytes written. */
function pump(res: ServerResponse, chunk: string, written: { bytes: number; closed: boolean }): void {
  const more = (): void => {
    while (!res.destroyed) {
      written.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
  };
  res.on('close', () => {
    written.closed = true;
  });
  more();
}

async function endless(status: number, contentType: string, head: string, chunk: string) {
  const written = { bytes: 0, closed: false };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': contentType });
      res.write(head);
      pump(res, chunk, written);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const client = new OpenAICompatibleClient({ model: 'm', baseUrl: url, apiKey: 'k', retry: { maxRetries: 0 } });
  return { client, written };
}

describe('responses without end', () => {
  it('an SSE line that never ends stops at maxLineChars: invalid_response, request aborted', async () => {
    const { client, written } = await endless(
      200,
      'text/event-stream',
      'data: {"choices":[{"delta":{"content":"',
      'x'.repeat(65_536),
    );
    const { error } = await runStream(client);
    expect(error?.kind).toBe('invalid_response');
    expect(error?.message).toMatch(
      /ran past 16777216 characters without ending; reading stopped and the request was aborted/,
    );
    await expect.poll(() => written.closed, { timeout: 5_000 }).toBe(true);
    expect(written.bytes).toBeLessThan(SSE_LIMITS.maxLineChars * 4);
  });

  it('an error body that never ends is read only to its head; the call fails with the status', async () => {
    const { client, written } = await endless(400, 'text/plain', 'bad request: ', 'y'.repeat(65_536));
    const { error } = await runStream(client);
    expect(error?.kind).toBe('status');
    expect(error?.status).toBe(400);
    await expect.poll(() => written.closed, { timeout: 5_000 }).toBe(true);
    expect(written.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('readSseEvents stops a whole stream at maxBytes and a line at maxLineChars', async () => {
    async function* body(n: number, piece: string) {
      for (let i = 0; i < n; i++) yield new TextEncoder().encode(piece);
    }
    const events = async (n: number, piece: string, limits: { maxLineChars?: number; maxBytes?: number }) => {
      const out: string[] = [];
      for await (const e of readSseEvents(body(n, piece), undefined, limits)) out.push(e.data);
      return out;
    };
    expect(await events(3, 'data: a\n\n', { maxBytes: 27 })).toEqual(['a', 'a', 'a']);
    await expect(events(4, 'data: a\n\n', { maxBytes: 27 })).rejects.toBeInstanceOf(SseLimitError);
    await expect(events(10, 'data: aaaaaaaaaa', { maxLineChars: 50 })).rejects.toMatchObject({ limit: 'maxLineChars' });
    // An event whose data lines never end with a blank line is bounded the same way.
    await expect(events(10, 'data: aaaaaaaaaa\n', { maxLineChars: 50 })).rejects.toMatchObject({
      limit: 'maxLineChars',
    });
    expect(await events(10, 'data: aaaaaaaaaa\n\n', { maxLineChars: 50 })).toHaveLength(10);
  });
});
