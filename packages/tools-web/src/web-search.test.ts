import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { braveEngine, searxngEngine, tavilyEngine } from './api-engines.js';
import { browserEngine } from './browser-engine.js';
import { htmlEngine, rssEngine } from './http-engines.js';
import type { SearchEngine } from './search-types.js';
import { createWebSearchTool } from './web-search-tool.js';
import { WebSearch, type WebSearchOutcome } from './web-search.js';
import { json, loopbackServer, type LoopbackServer } from './test-support/loopback-server.js';

const hit = (i: number, host = 'docs.example.org') => ({
  title: `Result ${i}`,
  url: `https://${host}/page/${i}`,
  description: `About result ${i}`,
  content: `About result ${i}`,
});
const rss = (items: { title: string; link: string; description: string }[]) =>
  `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>feed</title>${items.map((i) => `<item><title>${i.title}</title><link>${i.link}</link><description>${i.description}</description></item>`).join('')}</channel></rss>`;
const ddg = (items: { title: string; url: string; snippet: string }[]) =>
  `<html><body>${items.map((i) => `<div class="result"><a class="result__a" href="/l/?uddg=${encodeURIComponent(i.url)}">${i.title}</a><a class="result__snippet">${i.snippet}</a></div>`).join('')}</body></html>`;

let server: LoopbackServer;
let brave429 = 0;
beforeAll(async () => {
  server = await loopbackServer({
    '/brave': json({ web: { results: [hit(1), hit(2), hit(3), hit(4)] } }),
    '/brave-one': json({ web: { results: [hit(1)] } }),
    '/brave-429': (_q, res) => {
      brave429 += 1;
      res.writeHead(429, { 'retry-after': '2' }).end('{"error":"rate"}');
    },
    '/brave-401': json({ error: 'bad key' }, 401),
    '/brave-500': json({ error: 'down' }, 500),
    '/brave-garbage': (_q, res) =>
      void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json'),
    '/tavily': (req, res, body) => {
      const q = JSON.parse(body) as { query: string; max_results: number };
      json({
        results: [
          {
            title: `Tavily ${q.query}`,
            url: 'https://docs.example.org/page/1?utm_source=x',
            content: 'longer snippet about result 1 from tavily',
          },
        ],
      })(req, res, body);
    },
    '/searx/search': json({ results: [hit(7, 'other.example.net')] }),
    '/rss': (_q, res) =>
      void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(
        rss([
          { title: 'RSS A', link: 'https://rss.example.com/a', description: 'from the feed' },
          { title: 'RSS B', link: 'https://rss.example.com/b', description: 'from the feed' },
        ]),
      ),
    '/ddg': (_q, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(ddg([{ title: 'DDG C', url: 'https://ddg.example.com/c', snippet: 'from html' }])),
    '/empty-rss': (_q, res) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss([])),
    '/js-results': (_q, res) =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><div id="out"></div><script>
        setTimeout(() => { document.getElementById('out').innerHTML = ${JSON.stringify(
          ddg([
            { title: 'Rendered by JS', url: 'https://js.example.com/x', snippet: 'needs a browser' },
            { title: 'Second', url: 'https://js.example.com/y', snippet: 'also rendered' },
          ]),
        )}; }, 30);
      </script></body></html>`),
  });
});
afterAll(() => server.close());

const api = (path = '/brave') => braveEngine({ apiKey: 'k', endpoint: `${server.base}${path}` });
const http = () => [
  rssEngine({ urlTemplate: `${server.base}/rss?q={query}` }),
  htmlEngine({ urlTemplate: `${server.base}/ddg?q={query}` }),
];
const hitsOf = (path: string) =>
  server.hits.filter((h) => h.startsWith(`GET ${path}?`) || h.startsWith(`POST ${path}`)).length;
const search = (s: WebSearch, engines?: string[]) =>
  s.search({
    query: 'rust ownership',
    limit: 8,
    signal: new AbortController().signal,
    ...(engines ? { engines } : {}),
  });

function toolInvoker(s: WebSearch) {
  const registry = new ToolRegistry({ capabilities: [] });
  registry.add(createWebSearchTool(s));
  return new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
}

describe('web_search tiers', () => {
  it('WSRCH-01/02/03: API results above the floor: the HTTP and browser tiers do not run and no browser is launched', async () => {
    const browser = browserEngine({ urlTemplate: `${server.base}/js-results?q={query}` });
    const before = hitsOf('/rss');
    const s = new WebSearch({ allowPrivateNetwork: true, engines: [api(), ...http(), browser] });
    const o = await search(s);
    expect(o.status).toBe('complete');
    expect(o.results).toHaveLength(4);
    expect(o.tiers.map((t) => [t.tier, t.ran])).toEqual([
      ['api', true],
      ['http', false],
      ['browser', false],
    ]);
    expect(o.tiers[1]!.reason).toMatch(/quality floor met/);
    expect(hitsOf('/rss')).toBe(before);
    expect(browser.launched()).toBe(false);
  });

  it('WSRCH-02/09: below the floor the HTTP tier runs; results merge and de-duplicate across engines', async () => {
    const s = new WebSearch({
      allowPrivateNetwork: true,
      engines: [
        api('/brave-one'),
        tavilyEngine({ apiKey: 't', endpoint: `${server.base}/tavily` }),
        searxngEngine({ baseUrl: `${server.base}/searx` }),
        ...http(),
      ],
      qualityFloor: 5,
    });
    const o = await search(s);
    expect(o.tiers.map((t) => [t.tier, t.ran, t.reason])).toEqual([
      ['api', true, 'first tier'],
      ['http', true, 'below quality floor (2 < 5)'],
      ['browser', false, 'quality floor met (5 >= 5)'],
    ]);
    const first = o.results.find((r) => r.url.startsWith('https://docs.example.org/page/1'))!;
    expect(first.engines).toEqual(['brave', 'tavily']);
    expect(first.snippet).toBe('longer snippet about result 1 from tavily');
    expect(o.results.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        'https://rss.example.com/a',
        'https://ddg.example.com/c',
        'https://other.example.net/page/7',
      ]),
    );
    expect(o.quality).toMatchObject({ usable_results: 5, corroborated: 1, meets_floor: true });
    expect(o.status).toBe('complete');
    expect(o.attempts.every((a) => a.duration_ms >= 0 && a.circuit === 'closed')).toBe(true);
  });

  it('WSRCH-06: engines forces tiers or engines; unknown names are invalid arguments naming the allowed values', async () => {
    const s = new WebSearch({ allowPrivateNetwork: true, engines: [api(), ...http()] });
    const onlyHttp = await search(s, ['http']);
    expect(onlyHttp.tiers.map((t) => t.tier)).toEqual(['http']);
    expect(onlyHttp.attempts.map((a) => a.engine)).toEqual(['bing_rss', 'duckduckgo_html']);
    expect(onlyHttp.forced).toBe(true);
    const one = await search(s, ['duckduckgo_html']);
    expect(one.attempts.map((a) => a.engine)).toEqual(['duckduckgo_html']);
    expect(one.status).toBe('partial'); // one result, below the floor
    const r = await toolInvoker(s).invoke(
      { id: 's', name: 'web_search', args: { query: 'x', engines: ['google'] } },
      createTestInvocation().context,
    );
    expect(r.errorKind).toBe('invalid_args');
    expect(r.output).toMatch(
      /args\.engines\[0\]: unknown engine or tier 'google'; allowed: api, http, browser, brave, bing_rss, duckduckgo_html/,
    );
  });

  it('WSRCH-07/08: no results with engine errors is failed with typed errors; partial failures are partial', async () => {
    const s = new WebSearch({
      allowPrivateNetwork: true,
      engines: [
        api('/brave-500'),
        braveEngine({ apiKey: 'k', endpoint: `${server.base}/brave-401` }) as SearchEngine,
      ].map((e, i) => ({ ...e, name: `${e.name}${i}`, search: e.search })),
    });
    const inv = toolInvoker(s);
    const r = await inv.invoke({ id: 's', name: 'web_search', args: { query: 'x' } }, createTestInvocation().context);
    expect(r.exitCode).toBe(1);
    const m = r.metadata as unknown as WebSearchOutcome;
    expect(m.status).toBe('failed');
    expect(m.errors.map((e) => [e.engine, e.kind, e.code])).toEqual([
      ['brave0', 'transport', 'SEARCH_ENGINE_TRANSPORT'],
      ['brave1', 'permission', 'SEARCH_ENGINE_PERMISSION'],
    ]);
    expect(r.output).toMatch(/web_search failed for "x": brave0: transport; brave1: permission/);
    const partial = await search(
      new WebSearch({ allowPrivateNetwork: true, engines: [api('/brave-garbage'), ...http()] }),
    );
    expect(partial.status).toBe('partial');
    expect(partial.errors[0]).toMatchObject({ engine: 'brave', kind: 'parse' });
    expect(partial.results.length).toBe(3);
    const emptyOk = await search(
      new WebSearch({
        allowPrivateNetwork: true,
        engines: [rssEngine({ urlTemplate: `${server.base}/empty-rss?q={query}` })],
      }),
    );
    expect(emptyOk).toMatchObject({ status: 'complete', results: [] });
  });

  it('WSRCH-04/05: a 429 opens the circuit for the Retry-After; later searches skip the engine, then a half-open trial runs', async () => {
    let now = 1_000_000;
    const s = new WebSearch({ allowPrivateNetwork: true, engines: [api('/brave-429'), ...http()], clock: () => now });
    const first = await search(s);
    expect(first.attempts[0]).toMatchObject({
      engine: 'brave',
      outcome: 'rate_limited',
      retry_after_ms: 2000,
      circuit: 'closed',
    });
    expect(first.circuits.brave).toEqual({ state: 'open', retry_in_ms: 2000, reason: 'rate_limited' });
    expect(first.status).toBe('partial');
    const calls = brave429;
    now += 1500;
    const second = await search(s);
    expect(brave429).toBe(calls);
    expect(second.attempts[0]).toMatchObject({
      engine: 'brave',
      outcome: 'skipped',
      circuit: 'open',
      retry_after_ms: 500,
    });
    now += 600;
    const third = await search(s);
    expect(brave429).toBe(calls + 1);
    expect(third.attempts[0]).toMatchObject({ outcome: 'rate_limited', circuit: 'half-open' });
  });

  it('WSRCH-04: repeated empty answers open the circuit; parse errors alone do not; success closes it', async () => {
    let now = 0;
    const s = new WebSearch({
      allowPrivateNetwork: true,
      engines: [rssEngine({ urlTemplate: `${server.base}/empty-rss?q={query}` })],
      clock: () => now,
      breaker: { baseCooldownMs: 1000 },
    });
    await search(s);
    expect(s.breaker.state('bing_rss')).toBe('closed');
    await search(s);
    expect(s.breaker.state('bing_rss')).toBe('open');
    expect(s.breaker.reason('bing_rss')).toBe('empty');
    s.breaker.failure('x', 'parse');
    expect(s.breaker.state('x')).toBe('closed');
    s.breaker.failure('x', 'timeout');
    expect(s.breaker.retryInMs('x')).toBe(1000);
    now += 1000;
    expect(s.breaker.state('x')).toBe('half-open');
    s.breaker.failure('x', 'transport');
    expect(s.breaker.retryInMs('x')).toBe(2000);
    now += 2000;
    s.breaker.success('x', 3);
    expect(s.breaker.state('x')).toBe('closed');
  });
});
