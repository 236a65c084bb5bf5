import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { browserEngine } from './browser-engine.js';
import { httpGet } from './http-get.js';
import { blockedRange } from './ip-ranges.js';
import { blockedAddress, checkHop, pinnedLookup, type HostResolver } from './network-guard.js';
import { canonicalIp } from './ip-ranges.js';
import { WebSearch } from './web-search.js';
import { htmlEngine } from './http-engines.js';
import { createWebTools } from './web-tools.js';
import { WebError } from './web-errors.js';
import { loopbackServer } from './test-support/loopback-server.js';

const blocked = async (p: Promise<unknown>): Promise<WebError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(WebError);
  expect(e).toMatchObject({ kind: 'blocked', code: 'WEB_BLOCKED', retryable: false });
  return e as WebError;
};
const resolveTo =
  (...addresses: string[]): HostResolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const get = (url: string, extra: Partial<Parameters<typeof httpGet>[1]> = {}) =>
  httpGet(url, { timeoutMs: 2000, maxBytes: 1000, maxRedirects: 3, ...extra });

describe('private-network guard: address ranges', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private (10.0.0.0/8)'],
    ['172.16.0.1', 'private (172.16.0.0/12)'],
    ['172.31.255.255', 'private (172.16.0.0/12)'],
    ['192.168.1.1', 'private (192.168.0.0/16)'],
    ['169.254.169.254', 'link-local (169.254.0.0/16, cloud metadata)'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback (::1)'],
    ['::', 'unspecified (::)'],
    ['fe80::1', 'link-local (fe80::/10)'],
    ['fe80::1%eth0', 'link-local (fe80::/10)'],
    ['fc00::1', 'unique-local (fc00::/7)'],
    ['fd12:3456:789a::1', 'unique-local (fc00::/7)'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback (127.0.0.0/8)'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback (127.0.0.0/8)'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'IPv4-mapped private (10.0.0.0/8)'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::192.168.0.1', 'NAT64 private (192.168.0.0/16)'],
    ['2002:c0a8:0101::1', '6to4 private (192.168.0.0/16)'],
    ['2002:7f00:1::', '6to4 loopback (127.0.0.0/8)'],
    ['64:ff9b::7f00:1', 'NAT64 loopback (127.0.0.0/8)'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback (127.0.0.0/8)'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated link-local'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['198.18.0.1', 'benchmarking (198.18.0.0/15)'],
    ['198.19.255.255', 'benchmarking (198.18.0.0/15)'],
    ['localhost', 'not an IP address'],
  ])('%s is blocked as %s', (address, range) => {
    expect(blockedRange(address)).toContain(range);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '169.255.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
    '198.17.255.255',
    '198.20.0.1',
    '::ffff:0:808:808',
    '64:ff9b:2::1',
  ])('%s is public', (address) => {
    expect(blockedRange(address)).toBeUndefined();
  });
});

describe("private-network guard: documentation ranges and the host's own addresses", () => {
  it("the documentation ranges are refused; so is any address of one of this machine's interfaces, in any spelling", () => {
    for (const a of ['192.0.2.2', '198.51.100.7', '203.0.113.200', '2001:db8::1', '::ffff:192.0.2.9'])
      expect(blockedRange(a), a).toMatch(/documentation/);
    const interfaces = {
      eth0: [
        { address: '8.8.4.4', family: 'IPv4', internal: false },
        { address: '2a00:1450:4001:81b::200e', family: 'IPv6', internal: false },
      ],
    } as never;
    for (const a of ['8.8.4.4', '::ffff:8.8.4.4', '::ffff:808:404', '2a00:1450:4001:081b:0:0:0:200e'])
      expect(blockedAddress(a, interfaces), a).toBe("this machine's own address (a network interface of the host)");
    expect(blockedAddress('8.8.8.8', interfaces)).toBeUndefined();
    expect(canonicalIp('::ffff:808:404')).toBe('8.8.4.4');
    expect(canonicalIp('nope')).toBeUndefined();
  });
});

describe('private-network guard: each hop', () => {
  it('literal IPs (normalised by the URL parser, IPv6 in brackets) are refused without any lookup; the error names host, address and option', async () => {
    const never: HostResolver = async () => {
      throw new Error('must not resolve a literal');
    };
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://[::1]:8080/',
      'http://[::ffff:169.254.169.254]/latest/meta-data',
      'https://10.0.0.5/',
      'http://0.0.0.0:3000/',
      'http://[fd00::2]/',
    ]) {
      await blocked(checkHop(new URL(url), { resolve: never }));
    }
    const e = await blocked(checkHop(new URL('http://169.254.169.254/latest/meta-data/')));
    expect(e.blocked).toEqual({
      host: '169.254.169.254',
      address: '169.254.169.254',
      range: 'link-local (169.254.0.0/16, cloud metadata)',
      option: 'allowPrivateNetwork',
    });
    expect(e.details).toMatchObject({
      kind: 'blocked',
      url: 'http://169.254.169.254/latest/meta-data/',
      host: '169.254.169.254',
      address: '169.254.169.254',
      option: 'allowPrivateNetwork',
    });
    expect(e.message).toBe(
      'refused to connect to 169.254.169.254: link-local (169.254.0.0/16, cloud metadata) is a private-network address; set allowPrivateNetwork: true in the web options to allow it',
    );
  });

  it('a name is resolved (all addresses) and refused when any address is internal; `localhost` through the real resolver', async () => {
    const e = await blocked(checkHop(new URL('http://localhost:9/x')));
    expect(e.blocked?.host).toBe('localhost');
    expect(['127.0.0.1', '::1']).toContain(e.blocked?.address);
    expect(e.message).toMatch(/^refused to connect to localhost \((127\.0\.0\.1|::1)\): loopback/);
    const mixed = await blocked(
      checkHop(new URL('https://mixed.example/'), { resolve: resolveTo('93.184.216.34', '10.0.0.7') }),
    );
    expect(mixed.blocked).toMatchObject({ host: 'mixed.example', address: '10.0.0.7' });
    await blocked(checkHop(new URL('https://v6.example/'), { resolve: resolveTo('::ffff:192.168.1.10') }));
    expect(
      await checkHop(new URL('https://public.example/'), { resolve: resolveTo('93.184.216.34', '2606:2800:220:1::') }),
    ).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::', family: 6 },
    ]);
  });

  it('redirect targets pass the same check: from a public hop, a Location to a private address or name is refused; other schemes are invalid', async () => {
    const from = new URL('https://public.example/start');
    const resolve = resolveTo('93.184.216.34');
    for (const location of [
      'http://127.0.0.1:8080/admin',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data/',
      '//10.0.0.1/x',
    ]) {
      await blocked(checkHop(new URL(location, from), { resolve }));
    }
    await blocked(checkHop(new URL('http://internal.example/', from), { resolve: resolveTo('172.20.0.3') }));
    await expect(checkHop(new URL('file:///etc/passwd'))).rejects.toMatchObject({
      kind: 'invalid',
      code: 'WEB_INVALID',
    });
    await expect(checkHop(new URL('gopher://127.0.0.1/'))).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('allowPrivateNetwork lifts the check (no pinning); an unresolvable name is a transport failure', async () => {
    expect(await checkHop(new URL('http://127.0.0.1/'), { allowPrivateNetwork: true })).toBeUndefined();
    await expect(checkHop(new URL('http://nowhere.invalid/'), { resolve: async () => [] })).rejects.toMatchObject({
      kind: 'transport',
    });
  });

  it('the pinned lookup answers only with the checked addresses, filtered by family', () => {
    const pinned = pinnedLookup([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::', family: 6 },
    ]);
    const answers: unknown[] = [];
    pinned('rebinding.example', { all: true }, (err, address) => answers.push(err ?? address));
    pinned('rebinding.example', { family: 6 }, (err, address, family) => answers.push(err ?? [address, family]));
    pinned('rebinding.example', {}, (err, address, family) => answers.push(err ?? [address, family]));
    expect(answers).toEqual([
      [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::', family: 6 },
      ],
      ['2606:2800:220:1::', 6],
      ['93.184.216.34', 4],
    ]);
    const errors: (Error | null)[] = [];
    pinnedLookup([{ address: '93.184.216.34', family: 4 } as LookupAddress])('x', { family: 6 }, (err) =>
      errors.push(err),
    );
    expect(errors[0]?.message).toMatch(/no IPv6 address/);
  });
});

describe('private-network guard: the tools', () => {
  it('httpGet refuses a loopback server by default and never connects; allowPrivateNetwork reaches it; a redirect hop to a private name is refused', async () => {
    const server = await loopbackServer({
      '/p': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('inside'),
      '/to-localhost': (req, res) =>
        void res.writeHead(302, { location: `http://localhost:${req.socket.localPort}/p` }).end(),
    });
    try {
      await blocked(get(`${server.base}/p`));
      expect(server.hits).toEqual([]);
      expect(new TextDecoder().decode((await get(`${server.base}/p`, { allowPrivateNetwork: true })).body)).toBe(
        'inside',
      );
      // The hop is judged by the resolver's answer: a name answering loopback is refused before any connection.
      await blocked(get(`http://rebind.example:${new URL(server.base).port}/p`, { resolve: resolveTo('127.0.0.1') }));
      expect(server.hits).toEqual(['GET /p']);
    } finally {
      await server.close();
    }
  });

  it('the connection is pinned to the checked address: no second DNS query at connect time', async () => {
    // `pinned.invalid` cannot resolve in real DNS; the checked answer is a public address.
    // A connect-time lookup would fail with ENOTFOUND; the pinned one dials 198.20.0.1 (refused, unreachable, timing out or answered).
    let resolved = 0;
    const once: HostResolver = async () => {
      resolved++;
      return [{ address: '198.20.0.1', family: 4 }];
    };
    // Where the network answers every public address (a proxy), the request even succeeds.
    const e = await get('http://pinned.invalid:81/', { resolve: once, timeoutMs: 300 }).then(
      () => undefined,
      (x: unknown) => x as WebError,
    );
    if (e !== undefined) {
      expect(e).toBeInstanceOf(WebError);
      expect(e.message).not.toMatch(/ENOTFOUND|EAI_AGAIN/);
      // Timed out, refused at that address, or an HTTP answer from it: never a failed lookup.
      expect(e.kind === 'timeout' || e.kind === 'status' || e.message.includes('198.20.0.1')).toBe(true);
    }
    expect(resolved).toBe(1);
  });

  it('web_fetch (session web options) answers WEB_BLOCKED with the address and the option; search engines record `blocked`', async () => {
    const { tools, resources } = createWebTools({ search: { http: false, browser: false } });
    const registry = new ToolRegistry({ capabilities: [] });
    for (const t of tools) registry.add(t);
    const inv = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
    try {
      const r = await inv.invoke(
        { id: 'f', name: 'web_fetch', args: { url: 'http://[::ffff:7f00:1]:8080/' } },
        createTestInvocation().context,
      );
      expect(r.ok).toBe(false);
      expect(r.metadata).toMatchObject({ error_code: 'WEB_BLOCKED' });
      expect(r.output).toMatch(
        /refused to connect to ::ffff:7f00:1: IPv4-mapped loopback \(127\.0\.0\.0\/8\).*allowPrivateNetwork: true/,
      );
    } finally {
      await Promise.all(resources.map((x) => x.close()));
    }
    const browser = browserEngine({ urlTemplate: 'http://127.0.0.1:9/?q={query}' });
    const s = new WebSearch({
      engines: [htmlEngine({ urlTemplate: 'http://192.168.0.1/?q={query}' }), browser],
      qualityFloor: 1,
    });
    const o = await s.search({ query: 'x', limit: 3, signal: new AbortController().signal });
    expect(o.errors.map((e) => [e.engine, e.kind, e.code])).toEqual([
      ['duckduckgo_html', 'blocked', 'SEARCH_ENGINE_BLOCKED'],
      ['browser', 'blocked', 'SEARCH_ENGINE_BLOCKED'],
    ]);
    expect(browser.launched()).toBe(false);
    expect(o.circuits.browser).toMatchObject({ state: 'open', reason: 'blocked' });
    await s.close();
  });
});
