/**
 * Reading the session's `web` setting: core carries it from the configuration layers as an
 * outline (`WebSetting`); this checks every field of it, nested ones included, and gives it its
 * precise type. A wrong key or value is a `SessionConfigurationError` naming its path
 * (`web.fetch.maxBytes`) and what is allowed there, with the allowed key a misspelt one was
 * probably meant to be.
 */
import { didYouMean, SessionConfigurationError, type WebSetting } from '@a3s-code/core';
import { SEARCH_TIERS } from './search-types.js';
import { WEB_FETCH_LIMITS } from './web-fetch-tool.js';
import type { WebToolsOptions } from './web-tools.js';

/** Checks one value; throws naming `field`. */
type Check = (value: unknown, field: string) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `value` described for an error message. */
function got(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return `'${value.slice(0, 60)}'`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

const fail = (field: string, allowed: string, value: unknown): never => {
  throw new SessionConfigurationError(field, `must be ${allowed}, got ${got(value)}`);
};

const bool: Check = (v, field) => {
  if (typeof v !== 'boolean') fail(field, 'true or false', v);
};

const text: Check = (v, field) => {
  if (typeof v !== 'string' || v.trim() === '') fail(field, 'a non-empty string', v);
};

const httpUrl: Check = (v, field) => {
  let ok = false;
  try {
    ok = typeof v === 'string' && /^https?:$/.test(new URL(v).protocol);
  } catch {
    ok = false;
  }
  if (!ok) fail(field, 'an absolute http(s) URL', v);
};

const fn: Check = (v, field) => {
  if (typeof v !== 'function') fail(field, 'a function', v);
};

/** An integer from `min` to `max` (`unit` says what it counts). */
const intIn =
  (min: number, max: number, unit = ''): Check =>
  (v, field) => {
    if (!Number.isSafeInteger(v) || (v as number) < min || (v as number) > max)
      fail(field, `an integer from ${min} to ${max}${unit}`, v);
  };

const headers: Check = (v, field) => {
  if (!isObject(v)) fail(field, 'an object of header names to string values', v);
  for (const [name, value] of Object.entries(v as Record<string, unknown>))
    if (typeof value !== 'string') fail(`${field}.${name}`, 'a string (a header value)', value);
};

const engines: Check = (v, field) => {
  if (!Array.isArray(v)) fail(field, 'an array of search engines { name, tier, search() }', v);
  const names = new Set<string>();
  (v as unknown[]).forEach((e, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(e)) fail(at, 'a search engine { name, tier, search() }', e);
    const engine = e as Record<string, unknown>;
    text(engine.name, `${at}.name`);
    if (!(SEARCH_TIERS as readonly unknown[]).includes(engine.tier))
      throw new SessionConfigurationError(
        `${at}.tier`,
        `must be one of ${SEARCH_TIERS.join(', ')}, got ${got(engine.tier)}`,
        { allowed: SEARCH_TIERS },
      );
    fn(engine.search, `${at}.search`);
    if (names.has(engine.name as string))
      throw new SessionConfigurationError(`${at}.name`, `'${String(engine.name)}' is the name of an earlier engine`);
    names.add(engine.name as string);
  });
};

/** An object holding only the keys of `checks` (`what` names it in messages). */
const shape =
  (what: string, checks: Readonly<Record<string, Check>>, required: readonly string[] = []): Check =>
  (v, field) => {
    const keys = Object.keys(checks);
    if (!isObject(v)) fail(field, `an object { ${keys.join(', ')} }`, v);
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
      if (check === undefined)
        throw new SessionConfigurationError(
          `${field}.${key}`,
          `is not ${what}; allowed: ${keys.join(', ')}${didYouMean(key, keys)}`,
          { allowed: keys },
        );
      if (o[key] !== undefined) check(o[key], `${field}.${key}`);
    }
    for (const key of required)
      if (o[key] === undefined) throw new SessionConfigurationError(`${field}.${key}`, `is required in ${field}`);
  };

/** `true`, `false` or what `inner` accepts (an object). */
const switchOr =
  (inner: Check): Check =>
  (v, field) => {
    if (typeof v === 'boolean') return;
    if (!isObject(v)) fail(field, 'true, false or an object', v);
    inner(v, field);
  };

const MAX_MS = 86_400_000;
const L = WEB_FETCH_LIMITS;

const FETCH = shape('a web.fetch setting', {
  maxBytes: intIn(1, 50 * 1024 * 1024, ' (bytes, 50 MiB at most)'),
  maxRedirects: intIn(0, 10),
  headers,
  cacheTtlMs: intIn(0, MAX_MS, ' (ms)'),
  allowPrivateNetwork: bool,
});

const apiKeyEngine = (name: string): Check =>
  shape(`a web.search.${name} setting`, { apiKey: text, endpoint: httpUrl }, ['apiKey']);

const SEARCH = shape('a web.search setting', {
  brave: apiKeyEngine('brave'),
  tavily: apiKeyEngine('tavily'),
  searxng: shape('a web.search.searxng setting', { baseUrl: httpUrl }, ['baseUrl']),
  http: bool,
  browser: switchOr(
    shape('a web.search.browser setting', {
      name: text,
      urlTemplate: text,
      executablePath: text,
      idleMs: intIn(0, 3_600_000, ' (ms)'),
      waitFor: text,
    }),
  ),
  engines,
  qualityFloor: intIn(1, 20),
  engineTimeoutMs: intIn(L.timeoutMs.min, L.timeoutMs.max, ' (ms)'),
  breaker: shape('a web.search.breaker setting', {
    baseCooldownMs: intIn(0, MAX_MS, ' (ms)'),
    maxCooldownMs: intIn(0, MAX_MS, ' (ms)'),
    emptyThreshold: intIn(1, 100),
    clock: fn,
  }),
  allowPrivateNetwork: bool,
});

const WEB = shape('a web setting', {
  allowPrivateNetwork: bool,
  fetch: switchOr(FETCH),
  search: switchOr(SEARCH),
});

/**
 * Checks a `web` setting (absent, `true`, `false` or an object) without building anything: every
 * key at every depth, and every value's type and range.
 * @throws SessionConfigurationError naming the bad field (`web.fetch.maxBytes`) and what is allowed.
 */
export function checkWebSetting(setting: unknown): void {
  if (setting === undefined || typeof setting === 'boolean') return;
  if (!isObject(setting))
    throw new SessionConfigurationError(
      'web',
      `must be true, false or an object { allowPrivateNetwork?, fetch?, search? }, got ${got(setting)}`,
    );
  WEB(setting, 'web');
}

/**
 * The web tools' options of a session's `web` setting: absent or `true` is both tools with their
 * defaults, `false` is none.
 * @throws SessionConfigurationError naming the bad field (`web.fetch`, `web.search.qualityFloor`, ...).
 */
export function webToolsOptionsOf(setting: WebSetting | undefined): boolean | WebToolsOptions {
  if (setting === undefined) return true;
  checkWebSetting(setting);
  return setting as boolean | WebToolsOptions;
}
