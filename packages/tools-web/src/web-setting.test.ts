// The `web` setting is checked at every depth: a misspelt nested key or a value of the wrong type
// or range is a SESSION_CONFIGURATION error naming its path and what is allowed there, never a
// setting silently dropped (`maxByte`) or one that turns a cap off (`maxBytes: 'x'`).
import { describe, expect, it } from 'vitest';
import { checkWebSetting, webToolsOptionsOf } from './web-setting.js';

const refused = (field: string, message: RegExp) =>
  expect.objectContaining({ code: 'SESSION_CONFIGURATION', field, message: expect.stringMatching(message) });

describe('checkWebSetting', () => {
  it('refuses every misspelt nested key by its path, listing the allowed keys and the near one', () => {
    const cases: [unknown, string, RegExp][] = [
      [
        { serch: false },
        'web.serch',
        /is not a web setting; allowed: allowPrivateNetwork, fetch, search; did you mean 'search'\?/,
      ],
      [
        { fetch: { maxByte: 1000 } },
        'web.fetch.maxByte',
        /allowed: maxBytes, maxRedirects, .*; did you mean 'maxBytes'\?/,
      ],
      [{ search: { brve: {} } }, 'web.search.brve', /is not a web\.search setting; .*did you mean 'brave'\?/],
      [
        { search: { brave: { apikey: 'k' } } },
        'web.search.brave.apikey',
        /allowed: apiKey, endpoint; did you mean 'apiKey'\?/,
      ],
      [{ search: { browser: { idleMS: 5 } } }, 'web.search.browser.idleMS', /did you mean 'idleMs'\?/],
      [
        { search: { breaker: { baseCooldown: 5 } } },
        'web.search.breaker.baseCooldown',
        /did you mean 'baseCooldownMs'\?/,
      ],
    ];
    for (const [setting, field, message] of cases)
      expect(() => checkWebSetting(setting), field).toThrow(refused(field, message));
  });

  it('refuses a value of the wrong type or out of range, naming the range', () => {
    const cases: [unknown, string, RegExp][] = [
      [{ fetch: { maxBytes: 'x' } }, 'web.fetch.maxBytes', /must be an integer from 1 to 52428800 .*got 'x'/],
      [{ fetch: { maxBytes: -1 } }, 'web.fetch.maxBytes', /from 1 to 52428800/],
      [
        { fetch: { maxRedirects: 1e9 } },
        'web.fetch.maxRedirects',
        /must be an integer from 0 to 10, got number 1000000000/,
      ],
      [{ fetch: { headers: { a: 1 } } }, 'web.fetch.headers.a', /must be a string/],
      [{ fetch: { allowPrivateNetwork: 'yes' } }, 'web.fetch.allowPrivateNetwork', /must be true or false/],
      [{ search: { qualityFloor: 'x' } }, 'web.search.qualityFloor', /must be an integer from 1 to 20/],
      [{ search: { engineTimeoutMs: -5 } }, 'web.search.engineTimeoutMs', /must be an integer from 100 to 120000/],
      [{ search: { brave: 'key' } }, 'web.search.brave', /must be an object \{ apiKey, endpoint \}, got 'key'/],
      [{ search: { brave: {} } }, 'web.search.brave.apiKey', /is required/],
      [{ search: { tavily: { apiKey: 'k', endpoint: 'ftp://x' } } }, 'web.search.tavily.endpoint', /http\(s\) URL/],
      [{ search: { searxng: { baseUrl: 'nope' } } }, 'web.search.searxng.baseUrl', /http\(s\) URL/],
      [{ search: { http: 'no' } }, 'web.search.http', /must be true or false/],
      [{ search: { browser: 3 } }, 'web.search.browser', /must be true, false or an object/],
      [
        { search: { engines: [{ name: 'x', tier: 'web', search: () => [] }] } },
        'web.search.engines[0].tier',
        /api, http, browser/,
      ],
      [{ fetch: 'yes' }, 'web.fetch', /must be true, false or an object/],
      ['on', 'web', /must be true, false or an object/],
    ];
    for (const [setting, field, message] of cases)
      expect(() => checkWebSetting(setting), field).toThrow(refused(field, message));
  });

  it('accepts every documented setting and hands it on unchanged', () => {
    const setting = {
      allowPrivateNetwork: true,
      fetch: { maxBytes: 1000, maxRedirects: 0, headers: { 'x-a': 'b' }, cacheTtlMs: 0, allowPrivateNetwork: false },
      search: {
        brave: { apiKey: 'k', endpoint: 'https://example.org/s' },
        tavily: { apiKey: 'k' },
        searxng: { baseUrl: 'http://127.0.0.1:8888' },
        http: false,
        browser: { idleMs: 1000, urlTemplate: 'https://x/?q={query}' },
        engines: [{ name: 'mine', tier: 'api', search: async () => [] }],
        qualityFloor: 2,
        engineTimeoutMs: 150,
        breaker: { baseCooldownMs: 50, maxCooldownMs: 100, emptyThreshold: 2, clock: Date.now },
        allowPrivateNetwork: true,
      },
    };
    expect(webToolsOptionsOf(setting as never)).toBe(setting);
    expect(webToolsOptionsOf(undefined)).toBe(true);
    expect(webToolsOptionsOf(false)).toBe(false);
    expect(() => checkWebSetting({ fetch: { maxBytes: undefined }, search: true })).not.toThrow();
  });
});
