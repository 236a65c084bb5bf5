/**
 * Plain HTTP engines (tier `http`): no key, parsed from RSS or HTML. Bing's RSS feed and
 * DuckDuckGo's HTML endpoint by default; the URL templates are options (`{query}` is replaced).
 */
import { parseHTML } from './html-deps.js';
import { httpGet } from './http-get.js';
import type { SearchEngine, SearchHit, SearchRequest } from './search-types.js';

const MAX_BYTES = 2 * 1024 * 1024;

async function fetchText(url: string, r: SearchRequest): Promise<string> {
  const res = await httpGet(url, {
    timeoutMs: r.timeoutMs,
    maxBytes: MAX_BYTES,
    maxRedirects: 3,
    signal: r.signal,
    allowPrivateNetwork: r.allowPrivateNetwork === true,
  });
  return new TextDecoder().decode(res.body);
}

const fill = (template: string, query: string): string => template.replace('{query}', encodeURIComponent(query));

/** Options of an RSS search engine. */
export interface RssEngineOptions {
  /** Engine name. Default `bing_rss`. */
  readonly name?: string;
  /** Feed URL with `{query}`. Default `https://www.bing.com/search?format=rss&q={query}`. */
  readonly urlTemplate?: string;
}

/** Reads `<item><title/><link/><description/></item>` from an RSS search feed. */
export function rssEngine(o: RssEngineOptions = {}): SearchEngine {
  const template = o.urlTemplate ?? 'https://www.bing.com/search?format=rss&q={query}';
  return {
    name: o.name ?? 'bing_rss',
    tier: 'http',
    async search(r) {
      const xml = await fetchText(fill(template, r.query), r);
      const { document } = parseHTML(`<rss-root>${xml.replace(/<\?xml[^>]*>/, '')}</rss-root>`);
      const out: SearchHit[] = [];
      for (const item of document.querySelectorAll('item')) {
        const title = item.querySelector('title')?.textContent?.trim() ?? '';
        // HTML parsing treats <link> as void: its URL is the text right after it.
        const linkEl = item.querySelector('link');
        const url = (linkEl?.textContent?.trim() || linkEl?.nextSibling?.textContent?.trim() || '').trim();
        const snippet = item.querySelector('description')?.textContent?.trim() ?? '';
        if (/^https?:\/\//.test(url)) out.push({ title: title || url, url, snippet });
        if (out.length >= r.limit) break;
      }
      return out;
    },
  };
}

/** Options of an HTML results-page engine. */
export interface HtmlEngineOptions {
  /** Engine name. Default `duckduckgo_html`. */
  readonly name?: string;
  /** Results page URL with `{query}`. Default `https://html.duckduckgo.com/html/?q={query}`. */
  readonly urlTemplate?: string;
}

/** Reads DuckDuckGo's HTML results markup (`.result`, `a.result__a`, `.result__snippet`). */
export function htmlEngine(o: HtmlEngineOptions = {}): SearchEngine {
  const template = o.urlTemplate ?? 'https://html.duckduckgo.com/html/?q={query}';
  return {
    name: o.name ?? 'duckduckgo_html',
    tier: 'http',
    async search(r) {
      const page = await fetchText(fill(template, r.query), r);
      const base = fill(template, r.query);
      return parseResultsPage(page, base, r.limit);
    },
  };
}

/** Extracts hits from DuckDuckGo-style result markup (also used by the browser tier). */
export function parseResultsPage(html: string, base: string, limit: number): SearchHit[] {
  const { document } = parseHTML(html);
  const out: SearchHit[] = [];
  for (const el of document.querySelectorAll('.result')) {
    const a = el.querySelector('a.result__a');
    const href = a?.getAttribute('href') ?? '';
    let url = '';
    try {
      const abs = new URL(href, base);
      // DuckDuckGo wraps targets as /l/?uddg=<url>.
      url = abs.searchParams.get('uddg') ?? abs.href;
    } catch {
      continue;
    }
    if (!/^https?:\/\//.test(url)) continue;
    out.push({
      title: a?.textContent?.trim() || url,
      url,
      snippet: el.querySelector('.result__snippet')?.textContent?.trim() ?? '',
    });
    if (out.length >= limit) break;
  }
  return out;
}
