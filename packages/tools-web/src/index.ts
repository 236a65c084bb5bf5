/**
 * `@a3s-code/tools-web`: the web tool pack (`web_fetch`, `web_search`), the network guard, the
 * search engines and tiers, and the HTML-to-Markdown stack.
 */
export { webToolPack } from './pack.js';
export { checkWebSetting } from './web-setting.js';
export { WebError } from './web-errors.js';
export type { BlockedTarget, WebErrorKind, WebErrorInfo } from './web-errors.js';
export { blockedRange } from './ip-ranges.js';
export { blockedAddress } from './network-guard.js';
export { ALLOW_PRIVATE_OPTION, checkHop, parseWebUrl } from './network-guard.js';
export type { HostResolver, NetworkPolicy } from './network-guard.js';
export { createWebFetchTool } from './web-fetch-tool.js';
export type { WebFetchArgs, WebFetchToolOptions } from './web-fetch-tool.js';
export { htmlToMarkdown } from './html-to-markdown.js';
export type { MarkdownPage } from './html-to-markdown.js';
export type {
  EngineAttempt,
  EngineFailureKind,
  SearchEngine,
  SearchHit,
  SearchRequest,
  SearchResult,
  SearchTier,
} from './search-types.js';
export { SearchEngineError } from './search-engine-error.js';
export { CircuitBreaker } from './circuit-breaker.js';
export type { CircuitBreakerOptions, CircuitState } from './circuit-breaker.js';
export { braveEngine, searxngEngine, tavilyEngine } from './api-engines.js';
export type { BraveEngineOptions, SearxngEngineOptions, TavilyEngineOptions } from './api-engines.js';
export { htmlEngine, rssEngine } from './http-engines.js';
export type { HtmlEngineOptions, RssEngineOptions } from './http-engines.js';
export { browserEngine } from './browser-engine.js';
export type { BrowserEngineOptions, BrowserSearchEngine } from './browser-engine.js';
export type { QualitySignals } from './merge-results.js';
export { WebSearch } from './web-search.js';
export type {
  EngineErrorRecord,
  TierDecision,
  WebSearchOptions,
  WebSearchOutcome,
  WebSearchRequest,
} from './web-search.js';
export { createWebSearch, createWebSearchTool, defaultSearchEngines } from './web-search-tool.js';
export type { WebSearchArgs, WebSearchEngineConfig } from './web-search-tool.js';
export { createWebTools } from './web-tools.js';
export type { WebSearchToolOptions, WebTools, WebToolsOptions } from './web-tools.js';
