import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserEngine, findChromium } from './browser-engine.js';
import { htmlEngine } from './http-engines.js';
import { WebSearch } from './web-search.js';
import { loopbackServer, type LoopbackServer } from './test-support/loopback-server.js';

const chromium = await findChromium();
if (chromium === undefined)
  console.warn(
    'browser-engine.test: SKIPPED — no chromium found (apt-get install -y chromium, or set A3S_CHROMIUM_PATH)',
  );

let server: LoopbackServer;
beforeAll(async () => {
  const result = (t: string, u: string) =>
    `<div class="result"><a class="result__a" href="${u}">${t}</a><span class="result__snippet">rendered snippet</span></div>`;
  server = await loopbackServer({
    '/js-results': (_q, res) =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><div id="out"></div><script>
        const q = new URLSearchParams(location.search).get('q');
        setTimeout(() => { document.getElementById('out').innerHTML = (${JSON.stringify(result('Rendered A', 'https://js.example.com/a'))} + ${JSON.stringify(result('Rendered B', 'https://js.example.com/b'))}).replace('Rendered A', 'Rendered ' + q); }, 30);
      </script></body></html>`),
    '/static-empty': (_q, res) =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>nothing</body></html>'),
  });
});
afterAll(() => server.close());

describe.skipIf(chromium === undefined)(
  `web_search browser tier (real chromium${chromium ? ` at ${chromium}` : ': SKIPPED, not installed'})`,
  () => {
    it('WSRCH-03: the browser tier runs only after the first two fall short, renders JavaScript results, and launches lazily', async () => {
      const browser = browserEngine({ urlTemplate: `${server.base}/js-results?q={query}`, idleMs: 1000 });
      const s = new WebSearch({
        allowPrivateNetwork: true,
        engines: [htmlEngine({ urlTemplate: `${server.base}/static-empty?q={query}` }), browser],
        qualityFloor: 2,
      });
      try {
        expect(browser.launched()).toBe(false);
        const o = await s.search({ query: 'ownership', limit: 5, signal: new AbortController().signal });
        expect(o.tiers.map((t) => [t.tier, t.ran])).toEqual([
          ['api', false],
          ['http', true],
          ['browser', true],
        ]);
        expect(o.tiers[2]!.reason).toBe('below quality floor (0 < 2)');
        expect(o.results.map((r) => [r.title, r.url, r.engines])).toEqual([
          ['Rendered ownership', 'https://js.example.com/a', ['browser']],
          ['Rendered B', 'https://js.example.com/b', ['browser']],
        ]);
        expect(o.status).toBe('complete');
        expect(browser.launched()).toBe(true);
      } finally {
        await s.close();
      }
      expect(browser.launched()).toBe(false);
    }, 20_000);
  },
);
