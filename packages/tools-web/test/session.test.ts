// The web tool pack in real sessions of core's Agent: on by default, `web: false` leaves it out,
// the `web` setting reaches the tools, and the search is closed with the session.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, describeSessionTools, type AgentSession, type CodeConfig, type SessionOptions } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { webToolPack } from '../src/index.js';
import { loopbackServer } from '../src/test-support/loopback-server.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function open(turns: ScriptedTurn[], options: SessionOptions = {}, config: CodeConfig = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-web-session-'));
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [webToolPack],
    permissions: { defaultDecision: 'allow' },
    ...config,
  });
  const session = await agent.session(dir, options);
  sessions.push(session);
  return { session, model, dir };
}

const OFFLINE_SEARCH = { http: false, browser: false } as const;

describe('web tools in a session (SURF-04)', () => {
  it('SURF-04: with the pack, web_fetch and web_search are registered by default; web: false leaves them out', async () => {
    const on = await open([{ text: 'ok' }]);
    await on.session.send('hi');
    expect(on.model.requests[0]!.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['web_fetch', 'web_search', 'program', 'batch']),
    );
    const off = await open([{ text: 'ok' }], { web: false });
    await off.session.send('hi');
    expect(off.model.requests[0]!.tools.map((t) => t.name)).not.toContain('web_fetch');
    expect(off.session.toolNames()).not.toContain('web_search');
  });

  it('web.fetch: false or web.search: false leaves out only that tool; the session option wins over the agent', async () => {
    const { session } = await open([], { web: { search: false } }, { web: { fetch: false } });
    expect(session.toolNames()).toContain('web_fetch');
    expect(session.toolNames()).not.toContain('web_search');
    const listed = await describeSessionTools(
      mkdtempSync(join(tmpdir(), 'a3s-web-list-')),
      { tools: [webToolPack] },
      { web: { fetch: false, search: OFFLINE_SEARCH } },
    );
    expect(listed.map((d) => d.name)).toEqual(expect.arrayContaining(['web_search']));
    expect(listed.map((d) => d.name)).not.toContain('web_fetch');
  });

  it('a bad web setting is a SESSION_CONFIGURATION error naming the field', async () => {
    await expect(open([], { web: { allowPrivateNetwork: 'yes' } as never })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'web.allowPrivateNetwork',
    });
    await expect(open([], { web: { fetchh: true } as never })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'web.fetchh',
      message: expect.stringMatching(/did you mean 'fetch'\?/),
    });
  });

  it('a misspelt or mistyped nested web setting is refused when the session opens, never ignored', async () => {
    await expect(open([], { web: { fetch: { maxByte: 1000 } } as never })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'web.fetch.maxByte',
      message: expect.stringMatching(/did you mean 'maxBytes'\?/),
    });
    await expect(open([], { web: { search: { qualityFloor: 'x' } } as never })).rejects.toMatchObject({
      field: 'web.search.qualityFloor',
    });
  });

  it('SURF-04/WSRCH-07: a host call of web_fetch reaches a loopback page; web_search without any usable engine is failed', async () => {
    const server = await loopbackServer({
      '/p': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain text page'),
    });
    try {
      const { session } = await open([], { web: { fetch: true, search: OFFLINE_SEARCH, allowPrivateNetwork: true } });
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

  it('the network guard is on by default: web_fetch of a loopback page is WEB_BLOCKED and never connects', async () => {
    const server = await loopbackServer({
      '/p': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('secret'),
    });
    try {
      const { session } = await open([], { web: { search: OFFLINE_SEARCH } });
      const r = await session.tool('web_fetch', { url: `${server.base}/p` });
      expect(r.ok).toBe(false);
      expect(r.metadata).toMatchObject({ error_code: 'WEB_BLOCKED' });
      expect(server.hits).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
