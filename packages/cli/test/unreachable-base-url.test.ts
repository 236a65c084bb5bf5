// A real `a3s run` whose base URL cannot be reached: a port fetch never calls is said at once (not
// tried three times), and a loopback port nobody listens on is retried, then named as the base URL
// that refused, with how to change it; with a key set, no hint to "try a3s offline with no key".
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { a3s, tempRepo } from './kit.js';

/** A loopback port nothing listens on: one the system gave out, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('a base URL nothing answers at', () => {
  it('a bad port (1) fails at once with its hint, with no retry', () => {
    const r = a3s(['run', '--model', 'openai/gpt-4o', '--cwd', tempRepo(), 'hi'], {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^run failed: LLM_TRANSPORT: openai: request failed: fetch failed \(bad port\)\n/);
    expect(r.stderr).toContain("hint: the base URL's port is one that fetch never calls");
    expect(r.stdout).not.toContain('retrying');
    expect(r.stderr).not.toContain('offline with no key');
  });

  it('a closed loopback port is retried, then the base URL that refused is named, without the offline hint', async () => {
    const port = await closedPort();
    const r = a3s(['run', '--model', 'openai/gpt-4o', '--cwd', tempRepo(), 'hi'], {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('(attempt 3 of 3)');
    expect(r.stderr).toContain(
      `hint: nothing accepted the connection at http://127.0.0.1:${port}/v1, the openai base URL: start the server there, or point it at the server you mean (OPENAI_BASE_URL, else "providers": { "openai": { "baseUrl": … } } in a3s.config.json`,
    );
    expect(r.stderr).not.toContain('offline with no key');
  });
});
