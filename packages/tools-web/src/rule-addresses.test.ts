// A `domain:` rule names a host; the same server reached by its address, or by another name, is
// held to it too. Real DNS (`localhost`) and real HTTP on loopback; a resolver is passed in only
// where DNS itself must fail or name a test host.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionDeniedError } from '@a3s-code/core';
import { canonicalAddress, ruleAddressJudge } from './rule-addresses.js';
import { fetchAs, fetchInvoker } from './test-support/fetch-invoker.js';
import { html, loopbackServer, type LoopbackServer } from './test-support/loopback-server.js';

let server: LoopbackServer;
let other: Server;
let otherBase: string;
beforeAll(async () => {
  server = await loopbackServer({
    '/open': html('<html><head><title>Open</title></head><body><p>an open page</p></body></html>'),
  });
  // A second server on another loopback address, redirecting to the first by its address.
  other = createServer((_q, res) => void res.writeHead(302, { location: `${server.base}/open` }).end());
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
  otherBase = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => other.close(resolve));
});

describe('domain: rules hold for the addresses of the host they name', () => {
  it('PERM-02: a fetch of an address of a denied host is refused before it connects, naming the rule and the address', async () => {
    const inv = fetchInvoker({ allow: ['web_fetch'], deny: ['WebFetch(domain:localhost)'] });
    const before = server.hits.length;
    const res = await fetchAs(inv, `${server.base}/open`);
    expect(res).toMatchObject({
      ok: false,
      output: 'Permission denied: WebFetch(domain:localhost) (127.0.0.1 is an address of localhost)',
      error: expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    });
    expect(server.hits.length).toBe(before);
    // Spelled as an IPv4-mapped IPv6 address or in hex, it is the same address.
    const port = server.base.split(':')[2];
    for (const url of [`http://0x7f000001:${port}/open`, `http://[::ffff:127.0.0.1]:${port}/open`])
      expect(await fetchAs(inv, url)).toMatchObject({
        ok: false,
        output: expect.stringContaining('is an address of localhost'),
      });
  });

  it('PERM-02: a redirect to an address of a denied host is refused', async () => {
    const inv = fetchInvoker({ allow: ['web_fetch'], deny: ['WebFetch(domain:localhost)'] });
    const before = server.hits.length;
    expect(await fetchAs(inv, `${otherBase}/x`)).toMatchObject({
      ok: false,
      output: 'Permission denied: WebFetch(domain:localhost) (127.0.0.1 is an address of localhost)',
    });
    expect(server.hits.length).toBe(before);
  });

  it('PERM-02: a host that does not exist has no address; a host call is the host own; an ask rule holds a hop as a deny does', async () => {
    const missing = fetchInvoker({ allow: ['web_fetch'], deny: ['WebFetch(domain:nowhere.invalid)'] });
    expect(await fetchAs(missing, `${server.base}/open`)).toMatchObject({ ok: true });
    const denied = fetchInvoker({ deny: ['WebFetch(domain:localhost)'] });
    expect(await fetchAs(denied, `${server.base}/open`, 'host')).toMatchObject({
      ok: true,
      output: expect.stringContaining('an open page'),
    });
    const asked = fetchInvoker({ allow: ['web_fetch'], ask: ['WebFetch(domain:localhost)'] });
    expect(await fetchAs(asked, `${server.base}/open`)).toMatchObject({
      ok: false,
      output: 'Permission denied: WebFetch(domain:localhost) (127.0.0.1 is an address of localhost)',
    });
  });
});

describe('the hop judge', () => {
  const ctx = (hosts: readonly string[], refused: (url: string) => boolean) => ({
    toolName: 'web_fetch',
    ruleHosts: hosts,
    ruleRefusing: (a: unknown) => {
      const url = (a as { url: string }).url;
      return refused(url) ? `WebFetch(domain:${new URL(url).hostname})` : undefined;
    },
  });
  const dns = (table: Record<string, string[] | string>) => async (host: string) => {
    const v = table[host];
    if (typeof v === 'string') throw Object.assign(new Error(`getaddrinfo ${v} ${host}`), { code: v });
    if (v === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return v.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('PERM-02: another name for a denied host is refused by the address they share', async () => {
    const judge = ruleAddressJudge(
      ctx(['evil.example'], (u) => u.includes('evil.example')),
      { url: 'x' },
      dns({ 'evil.example': ['203.0.113.7', '2001:db8::7'] }),
    )!;
    const byName = judge(new URL('https://mirror.example/x'), [{ address: '::ffff:203.0.113.7', family: 6 }]);
    await expect(byName).rejects.toThrow(
      'WebFetch(domain:evil.example) (mirror.example resolves to 203.0.113.7, which is an address of evil.example)',
    );
    await expect(byName).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(judge(new URL('http://[2001:0db8:0:0::7]/'), undefined)).rejects.toThrow(
      'is an address of evil.example',
    );
    await expect(
      judge(new URL('https://good.example/'), [{ address: '198.51.100.1', family: 4 }]),
    ).resolves.toBeUndefined();
  });

  it('PERM-02: when DNS cannot tell, an address written as such is refused and a name is judged by name', async () => {
    const judge = ruleAddressJudge(
      ctx(['down.example'], () => true),
      { url: 'x' },
      dns({ 'down.example': 'EAI_AGAIN' }),
    )!;
    await expect(judge(new URL('http://198.51.100.9/'), undefined)).rejects.toThrow(
      /cannot tell whether 198\.51\.100\.9 is an address of down\.example: resolving down\.example failed/,
    );
    await expect(
      judge(new URL('https://good.example/'), [{ address: '198.51.100.9', family: 4 }]),
    ).resolves.toBeUndefined();
  });

  it('PERM-02: a host no rule would refuse is not resolved; a host call has no judge', async () => {
    let asked = 0;
    const judge = ruleAddressJudge(
      ctx(['a.example'], () => false),
      { url: 'x' },
      async () => {
        asked++;
        return [];
      },
    )!;
    await judge(new URL('http://192.0.2.1/'), undefined);
    expect(asked).toBe(0);
    expect(ruleAddressJudge({ toolName: 'web_fetch' }, { url: 'x' })).toBeUndefined();
  });

  it('one spelling of an address', () => {
    expect(canonicalAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalAddress('::FFFF:7f00:1')).toBe('127.0.0.1');
    expect(canonicalAddress('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonicalAddress('2001:DB8::7')).toBe('2001:db8::7');
    expect(canonicalAddress('10.0.0.1')).toBe('10.0.0.1');
  });
});
