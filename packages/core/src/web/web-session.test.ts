import { afterEach, describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';
import type { AgentSession } from '../session/agent-session.js';
import { loopbackServer } from './test-support/loopback-server.js';

const { sessions } = closeAfterEach();

describe('web tools in a session (SURF-04)', () => {
  it('SURF-04: web_fetch and web_search are registered only when the web option is set', async () => {
    const off = await open([{ text: 'ok' }]);
    sessions.push(off.session);
    await off.session.send('hi');
    expect(off.model.requests[0]!.tools.map((t) => t.name)).not.toContain('web_fetch');
    const on = await open([{ text: 'ok' }], { web: { search: { http: false, browser: false } } });
    sessions.push(on.session);
    await on.session.send('hi');
    expect(on.model.requests[0]!.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['web_fetch', 'web_search', 'program', 'batch']));
  });

  it('SURF-04/WSRCH-07: a host call of web_fetch reaches a loopback page; web_search without any usable engine is failed', async () => {
    const server = await loopbackServer({ '/p': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain text page') });
    try {
      const { session } = await open([], { web: { fetch: true, search: { http: false, browser: false }, allowPrivateNetwork: true } });
      sessions.push(session);
      const r = await session.tool('web_fetch', { url: `${server.base}/p` });
      expect(r.ok).toBe(true);
      expect(r.output).toContain('plain text page');
      const s = await session.tool('web_search', { query: 'x' });
      expect(s.exitCode).toBe(1);
      expect(s.metadata).toMatchObject({ status: 'failed', results: [] });
    } finally {
      await server.close();
    }
  });
});
