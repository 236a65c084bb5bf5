// The nested `web` setting through the SDK: a misspelt or mistyped key at any depth is refused by
// Agent.create and by agent.session, naming its path and the near key, instead of being ignored
// (`maxByte`) or turning a cap off (`maxBytes: 'x'`); a good one reaches web_fetch.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';

const refused = (field: string, message: RegExp = /./) =>
  expect.objectContaining({ code: 'SESSION_CONFIGURATION', field, message: expect.stringMatching(message) });
const model = () => new ScriptedLlmClient([]);

const BAD: readonly [web: unknown, field: string, message: RegExp][] = [
  [{ fetch: { maxByte: 1000 } }, 'web.fetch.maxByte', /did you mean 'maxBytes'\?/],
  [{ fetch: { maxBytes: 'x' } }, 'web.fetch.maxBytes', /integer from 1 to 52428800/],
  [{ fetch: { maxBytes: -1 } }, 'web.fetch.maxBytes', /integer from 1 to 52428800/],
  [{ fetch: { maxRedirects: 1e9 } }, 'web.fetch.maxRedirects', /integer from 0 to 10/],
  [{ search: { brve: {} } }, 'web.search.brve', /did you mean 'brave'\?/],
  [{ search: { qualityFloor: 'x' } }, 'web.search.qualityFloor', /integer from 1 to 20/],
  [{ search: { engineTimeoutMs: -5 } }, 'web.search.engineTimeoutMs', /integer from 100 to 120000/],
  [{ search: { brave: 'key' } }, 'web.search.brave', /must be an object \{ apiKey, endpoint \}/],
  [{ serch: false }, 'web.serch', /is not a web setting; .*did you mean 'search'\?/],
];

describe('the web setting through the SDK', () => {
  it('Agent.create refuses a bad nested web setting, naming its path and what is allowed', async () => {
    for (const [web, field, message] of BAD)
      await expect(Agent.create({ model: model(), web } as never), field).rejects.toEqual(refused(field, message));
  });

  it('agent.session refuses it too, before anything is opened', async () => {
    const agent = await Agent.create({ model: model() });
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-web-'));
    for (const [web, field, message] of BAD)
      await expect(agent.session(dir, { web } as never), field).rejects.toEqual(refused(field, message));
    await agent.close();
  });

  it('a good fetch.maxBytes reaches web_fetch: a longer loopback page is cut there', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5000));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const agent = await Agent.create({ model: model(), web: { allowPrivateNetwork: true, fetch: { maxBytes: 1000 } } });
    try {
      const session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-sdk-web-')));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const r = await session.tool('web_fetch', { url });
      expect(r.exitCode).toBe(0);
      expect(r.output).toContain('[the page was longer than 1000 bytes; only that much was read]');
    } finally {
      await agent.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
