/**
 * Merging and de-duplicating hits from several engines, and the generic quality signals the tier
 * decisions use.
 */
import type { SearchHit, SearchResult } from './search-types.js';

const TRACKING = /^(utm_|fbclid$|gclid$|ref$|ref_src$)/;

/** The identity of a URL for de-duplication: lower-case host, no fragment, tracking parameters or trailing slash, `http`≡`https`. */
export function urlKey(raw: string): string {
  try {
    const u = new URL(raw);
    u.hash = '';
    for (const k of [...u.searchParams.keys()]) if (TRACKING.test(k)) u.searchParams.delete(k);
    const host = u.hostname.toLowerCase().replace(/^www\./, '');
    const path = u.pathname.replace(/\/+$/, '');
    return `${host}${u.port ? `:${u.port}` : ''}${path}${u.search}`;
  } catch {
    return raw;
  }
}

/** Longest title kept, in characters. */
const MAX_TITLE = 300;
/** Longest snippet kept, in characters. */
const MAX_SNIPPET = 1_000;

const oneLine = (v: unknown, max: number): string =>
  (typeof v === 'string' || typeof v === 'number' ? String(v) : '').replace(/\s+/g, ' ').trim().slice(0, max);

/**
 * An engine's hit as it may be shown, or `undefined` when its URL is not an absolute http(s)
 * URL: the URL in its parsed form (no raw line breaks), title and snippet as single lines of
 * bounded length (a non-string title becomes the URL, a non-string snippet empty).
 */
export function cleanHit(hit: {
  readonly title?: unknown;
  readonly url?: unknown;
  readonly snippet?: unknown;
}): SearchHit | undefined {
  if (typeof hit.url !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(hit.url.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return {
    title: oneLine(hit.title, MAX_TITLE) || url.href,
    url: url.href,
    snippet: oneLine(hit.snippet, MAX_SNIPPET),
  };
}

/** Adds `hits` of `engine` to `merged` (in place), keeping the first title and the longest snippet. */
export function mergeHits(merged: Map<string, SearchResult>, engine: string, hits: readonly SearchHit[]): void {
  for (const h of hits) {
    const key = urlKey(h.url);
    const prev = merged.get(key);
    if (prev === undefined) {
      merged.set(key, { title: h.title, url: h.url, snippet: h.snippet, engines: [engine] });
    } else if (!prev.engines.includes(engine)) {
      merged.set(key, {
        ...prev,
        snippet: h.snippet.length > prev.snippet.length ? h.snippet : prev.snippet,
        engines: [...prev.engines, engine],
      });
    }
  }
}

/** Generic quality signals of a merged result set. */
export interface QualitySignals {
  /** De-duplicated results with a title and an http(s) URL. */
  readonly usable_results: number;
  /** Of those, results with a snippet. */
  readonly with_snippet: number;
  /** Distinct hosts among them. */
  readonly distinct_hosts: number;
  /** Results returned by more than one engine. */
  readonly corroborated: number;
  /** The floor applied (usable results needed). */
  readonly floor: number;
  readonly meets_floor: boolean;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/** Computes the signals against `floor`. */
export function qualityOf(results: readonly SearchResult[], floor: number): QualitySignals {
  const usable = results.filter((r) => r.title.trim().length > 0 && /^https?:\/\//.test(r.url));
  const hosts = new Set(usable.map((r) => hostOf(r.url)));
  return {
    usable_results: usable.length,
    with_snippet: usable.filter((r) => r.snippet.trim().length > 0).length,
    distinct_hosts: hosts.size,
    corroborated: usable.filter((r) => r.engines.length > 1).length,
    floor,
    meets_floor: usable.length >= floor,
  };
}
