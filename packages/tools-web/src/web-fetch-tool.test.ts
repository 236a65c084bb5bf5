import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { createWebFetchTool } from './web-fetch-tool.js';
import { WebError } from './web-errors.js';
import { parseRetryAfter } from '@a3s-code/core';
import { html, loopbackServer, type LoopbackServer } from './test-support/loopback-server.js';

const ARTICLE = `<!doctype html><html><head><title>Rust ownership</title></head><body>
<nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<article><h1>Ownership in Rust</h1>
<p>Each value in Rust has an <strong>owner</strong>. There can only be one owner at a time, and when the owner goes out of scope the value is dropped. This paragraph is long enough for the extractor to treat it as content.</p>
<p>Borrowing lets code use a value without taking ownership: see <a href="/docs/borrowing">the borrowing chapter</a> for details about references and lifetimes.</p>
<ul><li>move semantics</li><li>the borrow checker</li></ul>
</article><footer>© footer text</footer><script>window.tracker = 1</script></body></html>`;

let server: LoopbackServer;
beforeAll(async () => {
  server = await loopbackServer({
    '/article': html(ARTICLE),
    '/long': html(
      `<html><head><title>Long</title></head><body><article>${Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i} of the long page, with enough words to be kept by the article extractor.</p>`).join('')}</article></body></html>`,
    ),
    '/r1': (_q, res) => void res.writeHead(302, { location: '/r2' }).end(),
    '/r2': (_q, res) => void res.writeHead(301, { location: '/article' }).end(),
    '/loop': (_q, res) => void res.writeHead(302, { location: '/loop' }).end(),
    '/429': (_q, res) => void res.writeHead(429, { 'retry-after': '7' }).end('slow down, please retry'),
    '/429-date': (_q, res) =>
      void res.writeHead(429, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }).end(),
    '/503': (_q, res) =>
      void res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Temporarily unavailable</h1>'),
    '/408': (_q, res) => void res.writeHead(408).end(),
    '/404': (_q, res) =>
      void res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<p>rate limited, try again later (text that must not decide a retry)</p>'),
    '/slow-headers': (_q, res) => void setTimeout(() => res.writeHead(200).end('late'), 2_000),
    '/slow-body': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start ');
      setTimeout(() => res.end('end'), 2_000);
    },
    '/truncated': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('only part of the body');
      setTimeout(() => req.socket.destroy(), 20);
    },
    '/big': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('b'.repeat(200_000)),
    '/json': (_q, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
    '/image': (_q, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71])),
  });
});
afterAll(() => server.close());

function invoker(options: Parameters<typeof createWebFetchTool>[0] = {}) {
  const registry = new ToolRegistry({ capabilities: [] });
  // The test server is on loopback: these tests lift the private-network guard.
  registry.add(createWebFetchTool({ allowPrivateNetwork: true, ...options }));
  return new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
}
const call = (inv: ToolInvoker, args: Record<string, unknown>) =>
  inv.invoke({ id: 'f', name: 'web_fetch', args }, createTestInvocation().context);
const webError = (r: { error?: unknown }) => {
  expect(r.error).toBeInstanceOf(WebError);
  return r.error as WebError;
};

describe('web_fetch', () => {
  it('WFETCH: HTML becomes readable Markdown: the article, headings, lists and absolute links; no nav, script or footer', async () => {
    const r = await call(invoker(), { url: `${server.base}/article` });
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/^# Rust ownership\nURL: http:\/\/127\.0\.0\.1:\d+\/article\n/);
    expect(r.output).toContain('**owner**');
    expect(r.output).toContain(`[the borrowing chapter](${server.base}/docs/borrowing)`);
    expect(r.output).toMatch(/\* move semantics/);
    expect(r.output).not.toMatch(/tracker|Home \||footer text/);
    expect(r.metadata).toMatchObject({ status: 200, extractor: 'readability', next_offset: null });
  });

  it('WFETCH: redirects are followed (bounded) and recorded; a loop fails as a status error', async () => {
    const r = await call(invoker(), { url: `${server.base}/r1` });
    expect(r.metadata).toMatchObject({
      url: `${server.base}/article`,
      redirects: [`${server.base}/r1`, `${server.base}/r2`],
    });
    const loop = await call(invoker({ maxRedirects: 3 }), { url: `${server.base}/loop` });
    expect(webError(loop)).toMatchObject({ kind: 'status', code: 'WEB_STATUS', retryable: false });
    expect(loop.output).toMatch(/more than 3 redirects/);
  });

  it('WFETCH: long pages continue by offset without repeating or skipping text, from one fetch', async () => {
    const inv = invoker();
    const first = await call(inv, { url: `${server.base}/long`, max_chars: 5000 });
    const total = first.metadata.total_chars as number;
    let text = first.output
      .split('\n\n')
      .slice(1)
      .join('\n\n')
      .replace(/\n\n\[\d+ more characters.*$/s, '');
    let next = first.metadata.next_offset as number | null;
    expect(first.output).toMatch(/more characters: continue with offset=5000/);
    while (next !== null) {
      const r = await call(inv, { url: `${server.base}/long`, max_chars: 5000, offset: next });
      text += r.output.replace(/^URL: [^\n]*\n\n/, '').replace(/\n\n\[\d+ more characters.*$/s, '');
      next = r.metadata.next_offset as number | null;
    }
    expect(text.length).toBe(total);
    expect(text).toContain('Paragraph 0 ');
    expect(text).toContain('Paragraph 399 ');
    expect(server.hits.filter((h) => h === 'GET /long')).toHaveLength(1);
  });

  it('WFETCH-03: 429 is rate_limited with the parsed Retry-After (seconds and HTTP date)', async () => {
    const r = await call(invoker(), { url: `${server.base}/429` });
    expect(webError(r)).toMatchObject({
      kind: 'rate_limited',
      code: 'WEB_RATE_LIMITED',
      status: 429,
      retryAfterMs: 7000,
      retryable: true,
    });
    expect(r.metadata).toMatchObject({ error_code: 'WEB_RATE_LIMITED' });
    const d = webError(await call(invoker(), { url: `${server.base}/429-date` }));
    expect(d.retryAfterMs).toBeGreaterThan(55_000);
    expect(d.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(parseRetryAfter('garbage')).toBeUndefined();
    expect(parseRetryAfter('0')).toBe(0);
  });

  it('WFETCH-02: 5xx, 408, refused connections and bodies cut mid-stream are transport', async () => {
    expect(webError(await call(invoker(), { url: `${server.base}/503` }))).toMatchObject({
      kind: 'transport',
      status: 503,
    });
    expect(webError(await call(invoker(), { url: `${server.base}/408` }))).toMatchObject({
      kind: 'transport',
      status: 408,
    });
    expect(webError(await call(invoker(), { url: `${server.base}/truncated` }))).toMatchObject({
      kind: 'transport',
      status: undefined,
    });
    expect(webError(await call(invoker(), { url: 'http://127.0.0.1:1/nothing' }))).toMatchObject({ kind: 'transport' });
  });

  it('WFETCH-04: the deadline is timeout, for slow headers and for a slow body', async () => {
    const t0 = Date.now();
    expect(webError(await call(invoker(), { url: `${server.base}/slow-headers`, timeout_ms: 150 }))).toMatchObject({
      kind: 'timeout',
      code: 'WEB_TIMEOUT',
    });
    expect(webError(await call(invoker(), { url: `${server.base}/slow-body`, timeout_ms: 150 }))).toMatchObject({
      kind: 'timeout',
    });
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('WFETCH-01/05: other statuses are plain status failures whatever the page says', async () => {
    const r = await call(invoker(), { url: `${server.base}/404` });
    expect(webError(r)).toMatchObject({ kind: 'status', status: 404, retryable: false, retryAfterMs: undefined });
  });

  it('WFETCH: body size cap, text types pass through, binary and bad URLs are invalid', async () => {
    const big = await call(invoker({ maxBytes: 1000 }), { url: `${server.base}/big` });
    expect(big.metadata).toMatchObject({ body_truncated: true, total_chars: 1000 });
    expect(big.output).toMatch(/longer than 1000 bytes/);
    expect((await call(invoker(), { url: `${server.base}/json` })).output).toContain('{"a":1}');
    expect(webError(await call(invoker(), { url: `${server.base}/image` }))).toMatchObject({ kind: 'invalid' });
    expect(webError(await call(invoker(), { url: 'file:///etc/passwd' }))).toMatchObject({ kind: 'invalid' });
    expect(webError(await call(invoker(), { url: 'not a url' }))).toMatchObject({ kind: 'invalid' });
  });
});
