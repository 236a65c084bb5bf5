/**
 * The session's web tools: `web_fetch` and `web_search` with one {@link WebSearch} (and so one
 * set of circuit breakers and one lazily launched browser) per session.
 */
import type { Tool } from '@a3s-code/core';
import type { SearchEngine } from './search-types.js';
import { createWebFetchTool, type WebFetchToolOptions } from './web-fetch-tool.js';
import { createWebSearchTool, defaultSearchEngines, type WebSearchEngineConfig } from './web-search-tool.js';
import { WebSearch, type WebSearchOptions } from './web-search.js';

/** `web_search` settings: the default engines from keys, or `engines` given outright. */
export interface WebSearchToolOptions extends WebSearchEngineConfig, Omit<WebSearchOptions, 'engines' | 'clock'> {
  /** Use exactly these engines instead of the defaults built from the keys. */
  readonly engines?: readonly SearchEngine[];
}

/** The session setting `web` (an object; `false` leaves both tools out). */
export interface WebToolsOptions {
  /**
   * Let `web_fetch` and the search engines reach loopback, private (10/8, 172.16/12, 192.168/16),
   * link-local (169.254/16, cloud metadata), unique-local IPv6 and other internal addresses.
   * Default false: a URL, a resolved name or a redirect hop in those ranges fails with
   * `WEB_BLOCKED`. `fetch.allowPrivateNetwork` / `search.allowPrivateNetwork` override it per tool.
   */
  readonly allowPrivateNetwork?: boolean;
  /** `web_fetch`: on by default; `false` leaves it out. */
  readonly fetch?: boolean | WebFetchToolOptions;
  /** `web_search`: on by default; `false` leaves it out. */
  readonly search?: boolean | WebSearchToolOptions;
}

/** The web tools of a session and what to close with it. */
export interface WebTools {
  readonly tools: readonly Tool[];
  /** The search (its browser, when one was launched); closed with the session. */
  readonly resources: readonly { close(): Promise<void> }[];
}

/** The tools of `options` (`false`: none; `true`: both with their defaults) and what must be closed with the session. */
export function createWebTools(options: boolean | WebToolsOptions = {}, clock?: () => number): WebTools {
  if (options === false) return { tools: [], resources: [] };
  const o: WebToolsOptions = options === true ? {} : options;
  const tools: Tool[] = [];
  const resources: { close(): Promise<void> }[] = [];
  const allow = o.allowPrivateNetwork === true;
  if (o.fetch !== false) {
    const f = o.fetch === true || o.fetch === undefined ? {} : o.fetch;
    tools.push(createWebFetchTool({ ...f, allowPrivateNetwork: f.allowPrivateNetwork ?? allow }));
  }
  if (o.search !== false) {
    const s = o.search === true || o.search === undefined ? {} : o.search;
    const search = new WebSearch({
      engines: s.engines ?? defaultSearchEngines(s),
      ...(s.qualityFloor === undefined ? {} : { qualityFloor: s.qualityFloor }),
      ...(s.engineTimeoutMs === undefined ? {} : { engineTimeoutMs: s.engineTimeoutMs }),
      ...(s.breaker === undefined ? {} : { breaker: s.breaker }),
      ...(clock === undefined ? {} : { clock }),
      allowPrivateNetwork: s.allowPrivateNetwork ?? allow,
    });
    tools.push(createWebSearchTool(search));
    resources.push(search);
  }
  return { tools, resources };
}
