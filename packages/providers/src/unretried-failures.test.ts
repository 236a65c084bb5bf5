// A call that cannot get better by trying again (fetch refuses the port, the host name does not
// resolve, the certificate is refused) fails at once; a connection refused is still retried, and
// names the base URL nobody accepted it at. Against real loopback, through the real client.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { LlmError } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { OpenAICompatibleClient } from './openai-compatible-client.js';

/** A loopback port nothing listens on: one the system gave out, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The error of one call, and how long it took. */
async function failure(client: OpenAICompatibleClient): Promise<{ error: LlmError; ms: number }> {
  const t0 = performance.now();
  try {
    for await (const _ of client.stream({ system: [], messages: [{ role: 'user', content: 'hi' }], tools: [] })) void _;
  } catch (e) {
    if (!LlmError.isLlmError(e)) throw e;
    return { error: e, ms: performance.now() - t0 };
  }
  throw new Error('the call succeeded');
}

/** A client of `baseUrl` whose retries would wait 2 s each (so a retry shows in the time taken). */
const client = (baseUrl: string, fetch?: typeof globalThis.fetch) =>
  new OpenAICompatibleClient({
    model: 'm',
    apiKey: 'sk-test',
    baseUrl,
    retry: { maxRetries: 2, baseDelayMs: 2_000 },
    ...(fetch === undefined ? {} : { fetch }),
  });

describe('transport failures that retrying cannot mend', () => {
  it('a port fetch never calls (bad port) fails at once, not retried', async () => {
    const { error, ms } = await failure(client('http://127.0.0.1:1/v1'));
    expect(error.kind).toBe('transport');
    expect(error.message).toContain('bad port');
    expect([error.permanent, error.retryable, error.attempts]).toEqual([true, false, undefined]);
    expect(ms).toBeLessThan(1_900);
  });

  it('a connection refused on loopback is retried, and names the base URL', async () => {
    const port = await closedPort();
    const fast = new OpenAICompatibleClient({
      model: 'm',
      apiKey: 'sk-test',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      retry: { maxRetries: 2, baseDelayMs: 10 },
    });
    const { error } = await failure(fast);
    expect(error.message).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(error.message).toMatch(new RegExp(`; the base URL is http://127\\.0\\.0\\.1:${port}/v1$`));
    expect([error.permanent, error.retryable, error.attempts]).toEqual([false, true, 3]);
  });

  it('a host name that does not resolve, or a refused certificate, is tried once', async () => {
    for (const [code, text] of [
      ['ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.invalid'],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"],
    ] as const) {
      let calls = 0;
      // What undici's fetch throws for these: a TypeError whose cause carries the system code.
      const fetch = (async () => {
        calls++;
        throw new TypeError('fetch failed', { cause: Object.assign(new Error(text), { code }) });
      }) as typeof globalThis.fetch;
      const { error, ms } = await failure(client('https://api.example.invalid/v1', fetch));
      expect([code, error.retryable, calls]).toEqual([code, false, 1]);
      expect(ms).toBeLessThan(1_900);
    }
    // A resolver that failed for now (EAI_AGAIN) may answer next time: still retried.
    let calls = 0;
    const again = (async () => {
      calls++;
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('getaddrinfo EAI_AGAIN x'), { code: 'EAI_AGAIN' }),
      });
    }) as typeof globalThis.fetch;
    const fast = new OpenAICompatibleClient({
      model: 'm',
      apiKey: 'k',
      baseUrl: 'https://x.invalid/v1',
      retry: { maxRetries: 1, baseDelayMs: 5 },
      fetch: again,
    });
    const { error } = await failure(fast);
    expect([error.retryable, calls]).toEqual([true, 2]);
  });
});
