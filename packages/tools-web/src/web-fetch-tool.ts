/**
 * The `web_fetch` runtime tool: a bounded GET whose HTML is turned into readable
 * Markdown, served in chunks with an `offset` continuation (a converted page is kept for a few
 * minutes so continuing does not fetch again). Failures are typed `WebError`s decided from the
 * transport, the status and the deadline only.
 */
import type { z } from 'zod';

type Zod = typeof z;
import { boundedInt, defineTool, PermissionDeniedError, type Tool } from '@a3s-code/core';
import { bodyText } from './body-text.js';
import { httpGet } from './http-get.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { PageCache, type CachedPage } from './page-cache.js';
import { ruleAddressJudge } from './rule-addresses.js';
import { WebError } from './web-errors.js';
import toolJsonSchemas from './tool-json-schemas.generated.json' with { type: 'json' };

/** Bounds and defaults of `web_fetch`. */
export const WEB_FETCH_LIMITS = Object.freeze({
  maxChars: { default: 20_000, min: 500, max: 200_000 },
  timeoutMs: { default: 30_000, min: 100, max: 120_000 },
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
});

/** Options of {@link createWebFetchTool}. */
export interface WebFetchToolOptions {
  /** Body bytes downloaded at most, `1..50 MiB`. Default 5 MiB. */
  readonly maxBytes?: number;
  /** Redirects followed, `0..10`. Default 5. */
  readonly maxRedirects?: number;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How long a converted page is kept for `offset` continuations, in ms. Default 300000. */
  readonly cacheTtlMs?: number;
  /**
   * Fetch loopback, private, link-local (cloud metadata) and other internal addresses. Default
   * false: such a URL, a name resolving to one, or a redirect to one fails with `WEB_BLOCKED`.
   */
  readonly allowPrivateNetwork?: boolean;
}

const L = WEB_FETCH_LIMITS;

const webFetchInput = (z: Zod) =>
  z
    .object({
      url: z.string().min(1).max(8192).describe('http(s) URL to fetch'),
      offset: z
        .number()
        .int()
        .min(0)
        .default(0)
        .describe('character offset to continue from (metadata.next_offset of the previous call)'),
      max_chars: boundedInt(z, L.maxChars).describe(
        `characters of Markdown returned, ${L.maxChars.min}..${L.maxChars.max} (default ${L.maxChars.default})`,
      ),
      timeout_ms: boundedInt(z, L.timeoutMs).describe(`deadline of the request, ms (default ${L.timeoutMs.default})`),
    })
    .strict();

/** The arguments of `web_fetch`. */
export type WebFetchArgs = z.output<ReturnType<typeof webFetchInput>>;

const DESCRIPTION = `Fetch a web page (http/https GET) and return it as readable Markdown (the article extracted, navigation dropped). Long pages come in chunks of max_chars: pass metadata.next_offset as offset to continue. Failures are typed in metadata.error_code: WEB_TRANSPORT (network error, 408, 5xx: may be retried), WEB_RATE_LIMITED (429; retry_after_ms when the server says), WEB_TIMEOUT, WEB_STATUS (other HTTP errors: do not retry), WEB_BLOCKED (the host is a private-network address: do not retry).`;

function convert(
  url: string,
  contentType: string,
  body: Uint8Array,
): Pick<CachedPage, 'title' | 'markdown' | 'extractor'> {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const declaredHtml = type === 'text/html' || type === 'application/xhtml+xml';
  const { text, binary } = bodyText(body, contentType, declaredHtml || type === '');
  if (!(type.startsWith('text/') || type.includes('json') || type.includes('xml') || type === ''))
    throw new WebError('invalid', `cannot render content type '${type}' from ${url} as text`, { url });
  // Checked whatever the type claims, HTML included: binary bytes are never shown as a page.
  if (binary)
    throw new WebError(
      'invalid',
      `the body from ${url} is binary data, not text (content type '${type || 'none'}'), so it cannot be rendered`,
      { url },
    );
  if (declaredHtml || (type === '' && /^\s*<(!doctype|html)/i.test(text))) return htmlToMarkdown(text, url);
  return { title: '', markdown: text, extractor: 'text' };
}

/** Creates the `web_fetch` tool. */
export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool<WebFetchArgs> {
  const maxBytes = options.maxBytes ?? L.maxBytes;
  const maxRedirects = options.maxRedirects ?? L.maxRedirects;
  const cache = new PageCache(options.cacheTtlMs ?? 300_000);
  return defineTool({
    name: 'web_fetch',
    description: DESCRIPTION,
    tier: 'read',
    inputJsonSchema: toolJsonSchemas.web_fetch,
    plainInput: true,
    input: webFetchInput,
    capabilities: {
      readOnly: true,
      idempotent: true,
      cancelSafe: true,
      paginated: true,
      maxParallelism: 8,
      outputType: 'text',
    },
    timeoutMs: L.timeoutMs.max + 5_000,
    async execute(args, ctx) {
      let page = args.offset > 0 ? cache.get(args.url) : undefined;
      // A `domain:` rule also holds for the addresses of the host it names, for a page kept from before too.
      const onHop = ruleAddressJudge(ctx, args);
      if (page !== undefined && onHop !== undefined)
        for (const hop of [...page.redirects, page.url]) await onHop(new URL(hop), undefined);
      if (page === undefined) {
        const res = await httpGet(args.url, {
          ...(onHop === undefined ? {} : { onHop }),
          timeoutMs: args.timeout_ms,
          maxBytes,
          maxRedirects,
          signal: ctx.signal,
          allowPrivateNetwork: options.allowPrivateNetwork === true,
          ...(options.headers ? { headers: options.headers } : {}),
          // A redirect is held to the session's rules as the URL itself was (`WebFetch(domain:…)`).
          onRedirect: (url) => {
            const rule = ctx.ruleRefusing?.({ ...args, url: url.href });
            if (rule !== undefined)
              throw new PermissionDeniedError(ctx.toolName, `${rule} (a redirect to ${url.href})`);
          },
        });
        page = {
          url: res.url,
          status: res.status,
          truncatedBody: res.truncated,
          redirects: res.redirects,
          ...convert(res.url, res.contentType, res.body),
        };
        cache.set(args.url, page);
      }
      const total = page.markdown.length;
      const start = Math.min(args.offset, total);
      const chunk = page.markdown.slice(start, start + args.max_chars);
      const next = start + chunk.length < total ? start + chunk.length : null;
      const head =
        start === 0
          ? `${page.title ? `# ${page.title}\n` : ''}URL: ${page.url}\n\n`
          : `URL: ${page.url} (from offset ${start})\n\n`;
      const notes: string[] = [];
      if (next !== null) notes.push(`[${total - next} more characters: continue with offset=${next}]`);
      if (page.truncatedBody) notes.push(`[the page was longer than ${maxBytes} bytes; only that much was read]`);
      return {
        output: head + chunk + (notes.length > 0 ? `\n\n${notes.join('\n')}` : ''),
        exitCode: 0,
        metadata: {
          url: page.url,
          status: page.status,
          title: page.title,
          extractor: page.extractor,
          redirects: page.redirects,
          offset: start,
          returned_chars: chunk.length,
          total_chars: total,
          next_offset: next,
          body_truncated: page.truncatedBody,
        },
      };
    },
  });
}
