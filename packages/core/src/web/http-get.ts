/**
 * One bounded HTTP(S) GET: manual redirects (at most `maxRedirects`), a byte cap on the body
 * (the rest is not read), a deadline covering headers and body, and typed failures.
 */
import { parseRetryAfter } from '../providers/provider-errors.js';
import { WebError, kindOfStatus } from './web-errors.js';

/** Options of {@link httpGet}. */
export interface HttpGetOptions {
  /** Deadline of the whole request (redirects and body), in milliseconds. */
  readonly timeoutMs: number;
  /** Body bytes kept; more is left unread and `truncated` is set. */
  readonly maxBytes: number;
  /** Redirects followed, `0..10`. */
  readonly maxRedirects: number;
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  /** `POST` with this JSON body instead of a GET (API search engines). */
  readonly jsonBody?: unknown;
}

/** A successful response. */
export interface HttpGetResult {
  /** The URL after redirects. */
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: Uint8Array;
  /** The body was longer than `maxBytes`. */
  readonly truncated: boolean;
  /** The redirect chain, first hop first. */
  readonly redirects: readonly string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (e) {
    throw new WebError('invalid', `not a URL: '${raw}'`, { url: raw, cause: e });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebError('invalid', `only http and https URLs are fetched, got '${url.protocol}'`, { url: raw });
  return url;
}

async function readCapped(res: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const reader = res.body?.getReader();
  if (reader === undefined) return { body: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** Fetches `rawUrl`. Throws a {@link WebError} for every failure. */
export async function httpGet(rawUrl: string, o: HttpGetOptions): Promise<HttpGetResult> {
  let url = checkUrl(rawUrl);
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal === undefined ? deadline : AbortSignal.any([deadline, o.signal]);
  const redirects: string[] = [];
  const fail = (e: unknown, at: string): never => {
    if (e instanceof WebError) throw e;
    if (o.signal?.aborted === true) throw new WebError('cancelled', `request to ${at} was cancelled`, { url: at, cause: e });
    if (deadline.aborted) throw new WebError('timeout', `request to ${at} timed out after ${o.timeoutMs} ms`, { url: at, cause: e });
    const msg = e instanceof Error ? (e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message) : String(e);
    throw new WebError('transport', `request to ${at} failed: ${msg}`, { url: at, cause: e });
  };
  for (;;) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: o.jsonBody === undefined ? 'GET' : 'POST',
        redirect: 'manual',
        signal,
        headers: { 'user-agent': 'a3s-code-web/1.0', accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5', ...(o.jsonBody === undefined ? {} : { 'content-type': 'application/json' }), ...o.headers },
        ...(o.jsonBody === undefined ? {} : { body: JSON.stringify(o.jsonBody) }),
      });
    } catch (e) {
      return fail(e, url.href);
    }
    if (REDIRECTS.has(res.status)) {
      const location = res.headers.get('location');
      await res.body?.cancel().catch(() => undefined);
      if (location === null) throw new WebError('status', `HTTP ${res.status} without a Location header from ${url.href}`, { url: url.href, status: res.status });
      if (redirects.length >= o.maxRedirects) throw new WebError('status', `more than ${o.maxRedirects} redirects (last: ${url.href})`, { url: rawUrl, status: res.status });
      redirects.push(url.href);
      url = checkUrl(new URL(location, url).href);
      continue;
    }
    if (res.status >= 400) {
      await res.body?.cancel().catch(() => undefined);
      const kind = kindOfStatus(res.status);
      const retryAfterMs = kind === 'rate_limited' || kind === 'transport' ? parseRetryAfter(res.headers.get('retry-after')) : undefined;
      const after = retryAfterMs === undefined ? '' : ` (retry after ${retryAfterMs} ms)`;
      throw new WebError(kind, `HTTP ${res.status} from ${url.href}${after}`, { url: url.href, status: res.status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    }
    try {
      const { body, truncated } = await readCapped(res, o.maxBytes);
      return { url: url.href, status: res.status, contentType: res.headers.get('content-type') ?? '', body, truncated, redirects };
    } catch (e) {
      return fail(e, url.href);
    }
  }
}
