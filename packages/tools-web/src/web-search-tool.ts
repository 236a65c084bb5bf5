/**
 * The `web_search` runtime tool over a session's {@link WebSearch}, and the default engine set
 * built from keys and instance URLs.
 */
import type { z } from 'zod';

type Zod = typeof z;
import { defineTool, InvalidToolArgsError, type Tool } from '@a3s-code/core';
import { braveEngine, searxngEngine, tavilyEngine } from './api-engines.js';
import { browserEngine, type BrowserEngineOptions } from './browser-engine.js';
import { htmlEngine, rssEngine } from './http-engines.js';
import type { SearchEngine } from './search-types.js';
import { WebSearch, type WebSearchOptions, type WebSearchOutcome } from './web-search.js';
import toolJsonSchemas from './tool-json-schemas.generated.json' with { type: 'json' };

/** Which engines a session gets (API engines only with their keys). */
export interface WebSearchEngineConfig {
  readonly brave?: { readonly apiKey: string; readonly endpoint?: string };
  readonly tavily?: { readonly apiKey: string; readonly endpoint?: string };
  readonly searxng?: { readonly baseUrl: string };
  /** The plain HTTP tier (Bing RSS and DuckDuckGo HTML). Default on; `false` turns it off. */
  readonly http?: boolean;
  /** The headless-browser tier. Default on (when chromium is found at first use); `false` turns it off. */
  readonly browser?: boolean | BrowserEngineOptions;
}

/** Builds the engine list of a config. */
export function defaultSearchEngines(config: WebSearchEngineConfig = {}): SearchEngine[] {
  const engines: SearchEngine[] = [];
  if (config.brave) engines.push(braveEngine(config.brave));
  if (config.tavily) engines.push(tavilyEngine(config.tavily));
  if (config.searxng) engines.push(searxngEngine(config.searxng));
  if (config.http !== false) engines.push(rssEngine(), htmlEngine());
  if (config.browser !== false)
    engines.push(browserEngine(config.browser === true || config.browser === undefined ? {} : config.browser));
  return engines;
}

const webSearchInput = (z: Zod) =>
  z
    .object({
      query: z.string().min(1).max(500).describe('the search query'),
      limit: z.number().int().min(1).max(20).default(8).describe('results wanted, 1..20 (default 8)'),
      engines: z
        .array(z.string().min(1))
        .min(1)
        .max(16)
        .optional()
        .describe('run only these tiers (api, http, browser) or engine names'),
    })
    .strict();

/** The arguments of `web_search`. */
export type WebSearchArgs = z.output<ReturnType<typeof webSearchInput>>;

const DESCRIPTION = `Search the web. Returns titles, URLs and snippets merged from several engines, best first. Native search APIs run first; keyless HTTP engines and then a headless browser run only when results are too few. Pass engines (tiers api/http/browser or engine names) to run only those. metadata.status is complete, partial (some engines failed or too few results) or failed (no results and engine errors); metadata.errors says why, with retry_after_ms for rate limits. Fetch a result with web_fetch to read it.`;

function render(o: WebSearchOutcome, query: string): string {
  if (o.results.length === 0) {
    if (o.status === 'failed') {
      const why =
        o.errors.length > 0
          ? o.errors
              .map(
                (e) =>
                  `${e.engine}: ${e.kind}${e.retry_after_ms === undefined ? '' : ` (retry after ${e.retry_after_ms} ms)`}`,
              )
              .join('; ')
          : 'every engine is unavailable or its circuit is open';
      return `web_search failed for "${query}": ${why}`;
    }
    return `No results for "${query}".`;
  }
  const lines = o.results.map(
    (r, i) =>
      `${i + 1}. ${r.title}\n   ${r.url}${r.snippet ? `\n   ${r.snippet.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`,
  );
  const note =
    o.status === 'partial'
      ? `\n[partial: ${o.errors.length > 0 ? o.errors.map((e) => `${e.engine} ${e.kind}`).join(', ') : `only ${o.quality.usable_results} results`}]`
      : '';
  return lines.join('\n') + note;
}

/** Creates `web_search` over `search` (one per session: the circuit breakers live in it). */
export function createWebSearchTool(search: WebSearch): Tool<WebSearchArgs> {
  return defineTool({
    name: 'web_search',
    description: DESCRIPTION,
    tier: 'read',
    inputJsonSchema: toolJsonSchemas.web_search,
    plainInput: true,
    input: webSearchInput,
    capabilities: { readOnly: true, idempotent: true, cancelSafe: true, maxParallelism: 4, outputType: 'text' },
    timeoutMs: 120_000,
    async execute(args, ctx) {
      const allowed = search.selectable();
      args.engines?.forEach((e, i) => {
        if (!allowed.includes(e))
          throw new InvalidToolArgsError('web_search', [
            { field: `args.engines[${i}]`, message: `unknown engine or tier '${e}'; allowed: ${allowed.join(', ')}` },
          ]);
      });
      const outcome = await search.search({
        query: args.query,
        limit: args.limit,
        signal: ctx.signal,
        ...(args.engines ? { engines: args.engines } : {}),
      });
      return {
        output: render(outcome, args.query),
        exitCode: outcome.status === 'failed' ? 1 : 0,
        metadata: { ...outcome },
      };
    },
  });
}

/** Creates a {@link WebSearch} and its tool. */
export function createWebSearch(options: WebSearchOptions): {
  readonly search: WebSearch;
  readonly tool: Tool<WebSearchArgs>;
} {
  const search = new WebSearch(options);
  return { search, tool: createWebSearchTool(search) };
}
