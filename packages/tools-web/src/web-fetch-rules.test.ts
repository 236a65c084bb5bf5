// The session's rules hold for web_fetch by host (`WebFetch(domain:…)`, as other products write
// it) and by URL, and for every redirect hop: a page the rules refuse cannot be reached through a
// URL they allow that redirects to it. Host calls are the host's own and are not judged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '@a3s-code/core';
import { fetchAs, fetchInvoker } from './test-support/fetch-invoker.js';
import { html, loopbackServer, type LoopbackServer } from './test-support/loopback-server.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await loopbackServer({
    '/open': html('<html><head><title>Open</title></head><body><p>an open page</p></body></html>'),
    '/secret': html('<html><head><title>Secret</title></head><body><p>the internal wiki</p></body></html>'),
    '/to-secret': (_q, res) => void res.writeHead(302, { location: '/secret' }).end(),
    '/to-open': (_q, res) => void res.writeHead(302, { location: '/open' }).end(),
  });
});
afterAll(() => server.close());

describe('web_fetch under the session rules', () => {
  it('PERM-02: WebFetch(domain:host) denies that host and its subdomains in any case or with a final dot; an allow rule covers the host it names', () => {
    const p = new PermissionPolicy({
      deny: ['WebFetch(domain:Evil.example.)'],
      allow: ['WebFetch(domain:*.python.org)'],
    });
    const judge = (url: string) => p.evaluate('web_fetch', { url }).decision;
    expect(judge('https://evil.example/x')).toBe('deny');
    expect(judge('HTTPS://EVIL.EXAMPLE.:443/x?y')).toBe('deny');
    expect(judge('https://docs.python.org@evil.example/')).toBe('deny');
    expect(judge('https://evil.example.org/')).toBe('ask');
    expect(judge('https://a.b.EVIL.example/')).toBe('deny');
    expect(judge('https://notevil.example/')).toBe('ask');
    expect(judge('https://python.org/')).toBe('ask');
    expect(judge('https://docs.python.org/3/')).toBe('allow');
    expect(judge('https://python.org.evil.example/')).toBe('deny');
    const intl = new PermissionPolicy({ deny: ['WebFetch(domain:*.münchen.de)', 'WebFetch(domain:ex?mple.org)'] });
    expect(intl.evaluate('web_fetch', { url: 'https://www.MÜNCHEN.de/' }).decision).toBe('deny');
    expect(intl.evaluate('web_fetch', { url: 'https://www.xn--mnchen-3ya.de/' }).decision).toBe('deny');
    expect(intl.evaluate('web_fetch', { url: 'https://EXAMPLE.org/' }).decision).toBe('deny');
    expect(() => new PermissionPolicy({ deny: ['WebFetch(domain:https://evil.example/x)'] })).toThrow(
      /a domain: pattern is a host name .*; write WebFetch\(domain:evil\.example\)/,
    );
  });

  it('PERM-02: a redirect to a URL the rules deny is refused before it is fetched, naming the rule and the hop', async () => {
    const rule = `WebFetch(${server.base}/secret*)`;
    const inv = fetchInvoker({ allow: ['web_fetch'], deny: [rule] });
    const direct = await fetchAs(inv, `${server.base}/secret`);
    expect(direct).toMatchObject({ ok: false, output: `Permission denied: ${rule}` });
    const before = server.hits.length;
    const hop = await fetchAs(inv, `${server.base}/to-secret`);
    expect(hop).toMatchObject({
      ok: false,
      output: `Permission denied: ${rule} (a redirect to ${server.base}/secret)`,
      error: expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    });
    expect(server.hits.slice(before)).toEqual(['GET /to-secret']);
    expect(await fetchAs(inv, `${server.base}/to-open`)).toMatchObject({
      ok: true,
      output: expect.stringContaining('an open page'),
    });
  });

  it('PERM-03: a call an allow rule let run unasked follows a redirect only where an allow rule covers it', async () => {
    const inv = fetchInvoker({ allow: [`WebFetch(${server.base}/to-*)`] });
    expect(await fetchAs(inv, `${server.base}/to-open`)).toMatchObject({
      ok: false,
      output: `Permission denied: no allow rule covers it (the call ran under WebFetch(${server.base}/to-*)) (a redirect to ${server.base}/open)`,
    });
    const both = fetchInvoker({ allow: [`WebFetch(${server.base}/to-*)`, `WebFetch(${server.base}/open)`] });
    expect(await fetchAs(both, `${server.base}/to-open`)).toMatchObject({ ok: true });
  });

  it('PERM-05: a hop under an ask rule the call was not judged under is refused; a host call is the host own', async () => {
    const rule = `WebFetch(${server.base}/secret)`;
    const inv = fetchInvoker({ allow: ['web_fetch'], ask: [rule] });
    expect(await fetchAs(inv, `${server.base}/to-secret`)).toMatchObject({
      ok: false,
      output: `Permission denied: ${rule} (a redirect to ${server.base}/secret)`,
    });
    const host = await fetchAs(
      fetchInvoker({ deny: [`WebFetch(${server.base}/secret*)`] }),
      `${server.base}/to-secret`,
      'host',
    );
    expect(host).toMatchObject({ ok: true, output: expect.stringContaining('the internal wiki') });
  });
});
