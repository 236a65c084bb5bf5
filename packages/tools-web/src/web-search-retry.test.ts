// web_search over real HTTP on loopback: Retry-After kept and honoured in real time, the typed
// error of every failure kind, and the metadata a caller gets back through the tool invoker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { braveEngine } from './api-engines.js';
import { rssEngine } from './http-engines.js';
import { createWebSearchTool } from './web-search-tool.js';
import { WebSearch, type WebSearchOutcome } from './web-search.js';
import { json, loopbackServer, type LoopbackServer } from './test-support/loopback-server.js';

const hit = (i: number) => ({
  title: `Result ${i}`,
  url: `https://docs.example.org/page/${i}`,
  description: `About ${i}`,
});
const results = (n: number) => json({ web: { results: Array.from({ length: n }, (_, i) => hit(i + 1)) } });

/** Per route: the answers still to give before answering with results; each hit takes one. */
const queued = new Map<string, Array<{ status: number; retryAfter?: string }>>();
let server: LoopbackServer;
beforeAll(async () => {
  const scripted =
    (route: string, n = 4): Parameters<typeof loopbackServer>[0][string] =>
    (req, res, body) => {
      const next = queued.get(route)?.shift();
      if (next === undefined) return results(n)(req, res, body);
      res
        .writeHead(next.status, next.retryAfter === undefined ? {} : { 'retry-after': next.retryAfter })
        .end('{"error":"busy"}');
    };
  server = await loopbackServer({
    '/limited': scripted('/limited'),
    '/unavailable': scripted('/unavailable'),
    '/dated': scripted('/dated'),
    '/one': results(1),
    '/slow': async (req, res, body) => {
      await new Promise((r) => setTimeout(r, 150));
      results(1)(req, res, body);
    },
    '/hang': () => new Promise<void>(() => undefined),
    '/down': json({ error: 'down' }, 500),
  });
});
afterAll(() => server.close());

const brave = (path: string, name = 'brave') => ({
  ...braveEngine({ apiKey: 'k', endpoint: `${server.base}${path}` }),
  name,
});
const hitsOf = (path: string) => server.hits.filter((h) => h.startsWith(`GET ${path}?`)).length;
const run = (s: WebSearch, signal = new AbortController().signal) =>
  s.search({ query: 'borrow checker', limit: 8, signal });

function invokerOf(s: WebSearch): ToolInvoker {
  const registry = new ToolRegistry({ capabilities: [] });
  registry.add(createWebSearchTool(s));
  return new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('web_search: Retry-After', () => {
  it('WSRCH-05: Retry-After in seconds holds the engine off for that long in real time, then one trial runs', async () => {
    queued.set('/limited', [{ status: 429, retryAfter: '1' }]);
    // A base back-off far shorter than the server's Retry-After: the server's value wins.
    const s = new WebSearch({
      allowPrivateNetwork: true,
      engines: [brave('/limited')],
      breaker: { baseCooldownMs: 50 },
    });
    const first = await run(s);
    expect(first.attempts[0]).toMatchObject({ outcome: 'rate_limited', retry_after_ms: 1000 });
    expect(first.errors[0]).toMatchObject({ kind: 'rate_limited', retry_after_ms: 1000 });
    const calls = hitsOf('/limited');
    await new Promise((r) => setTimeout(r, 300));
    const held = await run(s);
    expect(hitsOf('/limited')).toBe(calls);
    expect(held.attempts[0]).toMatchObject({ outcome: 'skipped', circuit: 'open' });
    expect(held.attempts[0]!.retry_after_ms).toBeGreaterThan(0);
    expect(held.attempts[0]!.retry_after_ms).toBeLessThanOrEqual(700);
    await until(() => s.breaker.state('brave') === 'half-open', 2_000);
    const trial = await run(s);
    expect(hitsOf('/limited')).toBe(calls + 1);
    expect(trial.attempts[0]).toMatchObject({ outcome: 'ok', circuit: 'half-open' });
    expect(trial.status).toBe('complete');
    expect(s.breaker.state('brave')).toBe('closed');
  });

  it('WSRCH-05: an HTTP-date Retry-After, and one on a 503, are kept and honoured too', async () => {
    queued.set('/dated', [{ status: 429, retryAfter: new Date(Date.now() + 30_000).toUTCString() }]);
    queued.set('/unavailable', [{ status: 503, retryAfter: '20' }]);
    const s = new WebSearch({
      allowPrivateNetwork: true,
      engines: [brave('/dated', 'dated'), brave('/unavailable', 'unavailable')],
      breaker: { baseCooldownMs: 50 },
    });
    const first = await run(s);
    const dated = first.attempts.find((a) => a.engine === 'dated')!;
    expect(dated.outcome).toBe('rate_limited');
    expect(dated.retry_after_ms).toBeGreaterThan(28_000);
    expect(dated.retry_after_ms).toBeLessThanOrEqual(30_000);
    expect(first.attempts.find((a) => a.engine === 'unavailable')).toMatchObject({
      outcome: 'transport',
      retry_after_ms: 20_000,
    });
    expect(first.circuits.unavailable).toMatchObject({ state: 'open', reason: 'transport' });
    expect(first.circuits.unavailable!.retry_in_ms).toBeGreaterThan(19_000);
    const calls = [hitsOf('/dated'), hitsOf('/unavailable')];
    await new Promise((r) => setTimeout(r, 200));
    const second = await run(s);
    expect([hitsOf('/dated'), hitsOf('/unavailable')]).toEqual(calls);
    expect(second.attempts.map((a) => a.outcome)).toEqual(['skipped', 'skipped']);
    expect(second.status).toBe('failed');
  });
});

describe('web_search: typed failures', () => {
  it('WSRCH-08: timeout, cancellation, invalid arguments, partial failure and rate limiting each have their own error type', async () => {
    const timeout = await run(
      new WebSearch({ allowPrivateNetwork: true, engines: [brave('/hang')], engineTimeoutMs: 150 }),
    );
    expect(timeout.errors).toEqual([
      expect.objectContaining({ engine: 'brave', kind: 'timeout', code: 'SEARCH_ENGINE_TIMEOUT' }),
    ]);
    expect(timeout.status).toBe('failed');

    const s = new WebSearch({ allowPrivateNetwork: true, engines: [brave('/hang')], engineTimeoutMs: 30_000 });
    const inv = createTestInvocation();
    const pending = invokerOf(s).invoke({ id: 'c', name: 'web_search', args: { query: 'x' } }, inv.context);
    setTimeout(() => inv.controller.abort('stop'), 100);
    expect(await pending).toMatchObject({ ok: false, errorKind: 'cancelled' });
    const direct = new AbortController();
    setTimeout(() => direct.abort('stop'), 100);
    const cancelled = await run(s, direct.signal);
    expect(cancelled.errors).toEqual([expect.objectContaining({ kind: 'cancelled', code: 'SEARCH_ENGINE_CANCELLED' })]);
    // A cancellation says nothing about the engine: its circuit stays closed.
    expect(s.breaker.state('brave')).toBe('closed');

    const invalid = await invokerOf(s).invoke(
      { id: 'i', name: 'web_search', args: { query: '', limit: 99 } },
      createTestInvocation().context,
    );
    expect(invalid).toMatchObject({ ok: false, errorKind: 'invalid_args' });

    queued.set('/limited', [{ status: 429, retryAfter: '7' }]);
    const partial = await invokerOf(
      new WebSearch({
        allowPrivateNetwork: true,
        engines: [brave('/one', 'one'), brave('/limited', 'limited'), brave('/down', 'down')],
      }),
    ).invoke({ id: 'p', name: 'web_search', args: { query: 'x' } }, createTestInvocation().context);
    const m = partial.metadata as unknown as WebSearchOutcome;
    expect(partial.ok).toBe(true);
    expect(m.status).toBe('partial');
    expect(m.errors).toEqual([
      expect.objectContaining({
        engine: 'limited',
        kind: 'rate_limited',
        code: 'SEARCH_ENGINE_RATE_LIMITED',
        retry_after_ms: 7000,
      }),
      expect.objectContaining({ engine: 'down', kind: 'transport', code: 'SEARCH_ENGINE_TRANSPORT' }),
    ]);
    expect(partial.output).toContain('[partial: limited rate_limited, down transport]');
  });
});

describe('web_search: metadata', () => {
  it('WSRCH-09: the tool result records tier decisions, quality, per-engine results, attempt durations and retry context', async () => {
    queued.set('/limited', [{ status: 429, retryAfter: '9' }]);
    const s = new WebSearch({
      allowPrivateNetwork: true,
      engines: [
        brave('/slow', 'slow'),
        brave('/limited', 'limited'),
        rssEngine({ urlTemplate: `${server.base}/none?q={query}` }),
      ],
      qualityFloor: 2,
    });
    const call = () =>
      invokerOf(s).invoke({ id: 'm', name: 'web_search', args: { query: 'x' } }, createTestInvocation().context);
    const m = (await call()).metadata as unknown as WebSearchOutcome;
    expect(m.tiers).toEqual([
      { tier: 'api', ran: true, reason: 'first tier', usable_after: 1 },
      { tier: 'http', ran: true, reason: 'below quality floor (1 < 2)', usable_after: 1 },
      { tier: 'browser', ran: false, reason: 'no engine configured', usable_after: 1 },
    ]);
    expect(m.quality).toMatchObject({ usable_results: 1, meets_floor: false });
    expect(m.results.map((r) => r.engines)).toEqual([['slow']]);
    const byEngine = Object.fromEntries(m.attempts.map((a) => [a.engine, a]));
    expect(byEngine.slow).toMatchObject({ tier: 'api', outcome: 'ok', results: 1, circuit: 'closed' });
    expect(byEngine.slow!.duration_ms).toBeGreaterThanOrEqual(140);
    expect(byEngine.limited).toMatchObject({ outcome: 'rate_limited', results: 0, retry_after_ms: 9000 });
    expect(byEngine.limited!.duration_ms).toBeLessThan(byEngine.slow!.duration_ms);
    expect(byEngine.bing_rss).toMatchObject({ tier: 'http', outcome: 'status', results: 0 });
    expect(m.circuits.limited).toMatchObject({ state: 'open', reason: 'rate_limited' });
    expect(m.duration_ms).toBeGreaterThanOrEqual(byEngine.slow!.duration_ms);
    // The next call records why the engine was skipped and when it may be tried again.
    const again = (await call()).metadata as unknown as WebSearchOutcome;
    const skipped = again.attempts.find((a) => a.engine === 'limited')!;
    expect(skipped).toMatchObject({ outcome: 'skipped', circuit: 'open', duration_ms: 0 });
    expect(skipped.retry_after_ms).toBeGreaterThan(8000);
    expect(skipped.error).toMatch(/circuit open after rate_limited; retry in \d+ ms/);
  });
});
