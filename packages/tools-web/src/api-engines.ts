/**
 * Native API search engines (tier `api`), each configured with a key or an instance URL: Brave
 * Search, Tavily and a SearXNG instance. Base URLs are options so tests (and proxies) can point
 * them elsewhere.
 */
import { httpGet } from './http-get.js';
import { cleanHit } from './merge-results.js';
import { SearchEngineError } from './search-engine-error.js';
import type { SearchEngine, SearchHit, SearchRequest } from './search-types.js';

const MAX_BYTES = 2 * 1024 * 1024;

async function getJson(
  engine: string,
  url: string,
  r: SearchRequest,
  headers: Record<string, string>,
  jsonBody?: unknown,
): Promise<unknown> {
  const res = await httpGet(url, {
    timeoutMs: r.timeoutMs,
    maxBytes: MAX_BYTES,
    maxRedirects: 2,
    signal: r.signal,
    allowPrivateNetwork: r.allowPrivateNetwork === true,
    headers: { accept: 'application/json', ...headers },
    ...(jsonBody === undefined ? {} : { jsonBody }),
  });
  try {
    return JSON.parse(new TextDecoder().decode(res.body)) as unknown;
  } catch (e) {
    throw new SearchEngineError(
      engine,
      'parse',
      `the answer is not JSON${res.truncated ? ' (cut at 2 MiB)' : ''}`,
      undefined,
      e,
    );
  }
}

function hits(engine: string, list: unknown, title: string, url: string, snippet: string, limit: number): SearchHit[] {
  if (!Array.isArray(list)) throw new SearchEngineError(engine, 'parse', 'the answer has no result list');
  const out: SearchHit[] = [];
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const fields = item as Record<string, unknown>;
    const hit = cleanHit({ title: fields[title], url: fields[url], snippet: fields[snippet] });
    if (hit !== undefined) out.push(hit);
    if (out.length >= limit) break;
  }
  return out;
}

/** Brave Search API options. */
export interface BraveEngineOptions {
  readonly apiKey: string;
  /** Default `https://api.search.brave.com/res/v1/web/search`. */
  readonly endpoint?: string;
}

/** The Brave Search API engine. */
export function braveEngine(o: BraveEngineOptions): SearchEngine {
  const endpoint = o.endpoint ?? 'https://api.search.brave.com/res/v1/web/search';
  return {
    name: 'brave',
    tier: 'api',
    async search(r) {
      const url = `${endpoint}?q=${encodeURIComponent(r.query)}&count=${r.limit}`;
      const body = (await getJson('brave', url, r, { 'x-subscription-token': o.apiKey })) as {
        web?: { results?: unknown };
      };
      return hits('brave', body.web?.results ?? [], 'title', 'url', 'description', r.limit);
    },
  };
}

/** Tavily API options. */
export interface TavilyEngineOptions {
  readonly apiKey: string;
  /** Default `https://api.tavily.com/search`. */
  readonly endpoint?: string;
}

/** The Tavily search API engine. */
export function tavilyEngine(o: TavilyEngineOptions): SearchEngine {
  const endpoint = o.endpoint ?? 'https://api.tavily.com/search';
  return {
    name: 'tavily',
    tier: 'api',
    async search(r) {
      const body = (await getJson(
        'tavily',
        endpoint,
        r,
        { authorization: `Bearer ${o.apiKey}` },
        { query: r.query, max_results: r.limit },
      )) as { results?: unknown };
      return hits('tavily', body.results, 'title', 'url', 'content', r.limit);
    },
  };
}

/** SearXNG instance options. */
export interface SearxngEngineOptions {
  /** The instance, e.g. `https://searx.example.org` (its JSON format must be enabled). */
  readonly baseUrl: string;
}

/** A SearXNG instance's JSON API. */
export function searxngEngine(o: SearxngEngineOptions): SearchEngine {
  return {
    name: 'searxng',
    tier: 'api',
    async search(r) {
      const url = `${o.baseUrl.replace(/\/$/, '')}/search?q=${encodeURIComponent(r.query)}&format=json`;
      const body = (await getJson('searxng', url, r, {})) as { results?: unknown };
      return hits('searxng', body.results, 'title', 'url', 'content', r.limit);
    },
  };
}
