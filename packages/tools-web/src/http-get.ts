/**
 * One bounded HTTP(S) GET: manual redirects (at most `maxRedirects`), a byte cap on the body
 * (the rest is not read), a deadline covering name resolution, headers and body, and typed
 * failures. Every hop passes the private-network guard ({@link checkHop}) and its connection is
 * pinned to the addresses the guard checked (`node:http` with a `lookup` that never asks DNS
 * again), so rebinding between the check and the connect cannot reach an internal address.
 */
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createRequire } from 'node:module';
import { parseRetryAfter } from '@a3s-code/core';
import { checkHop, parseWebUrl, pinnedLookup, type NetworkPolicy } from './network-guard.js';
import { WebError, kindOfStatus } from './web-errors.js';

// http, https (with tls) and zlib are loaded on the first request, not when the pack is imported.
const load = createRequire(import.meta.url);

/** Options of {@link httpGet}; `allowPrivateNetwork` (default false) lifts the private-network guard. */
export interface HttpGetOptions extends NetworkPolicy {
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
  /** Judges each redirect target before it is fetched; throws to refuse it (the error as thrown). */
  readonly onRedirect?: (url: URL) => void;
  /**
   * Judges each hop (the first URL and every redirect target) once the guard has resolved it,
   * before connecting: `addresses` are the ones the connection will use (`undefined` when the
   * private network is allowed and nothing was resolved). Rejects to refuse it (the error as thrown).
   */
  readonly onHop?: (url: URL, addresses: readonly LookupAddress[] | undefined) => Promise<void>;
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

/** Rejects when `signal` aborts first (DNS resolution cannot be cancelled, only abandoned). */
function untilAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Sends one request on a fresh connection (no pooling: a socket is never shared across guard decisions). */
function send(
  url: URL,
  o: HttpGetOptions,
  signal: AbortSignal,
  pinned: ReturnType<typeof pinnedLookup> | undefined,
): Promise<IncomingMessage> {
  const body = o.jsonBody === undefined ? undefined : JSON.stringify(o.jsonBody);
  const headers: OutgoingHttpHeaders = {
    'user-agent': 'a3s-code-web/1.0',
    accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
    ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
    ...o.headers,
  };
  return new Promise((resolve, reject) => {
    const { request } = load(url.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http');
    const req = request(
      url,
      {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        signal,
        agent: false,
        ...(pinned ? { lookup: pinned } : {}),
      },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The body stream, decoded per `content-encoding`; an encoding it cannot decode is `invalid`. */
function decoded(res: IncomingMessage, url: string): Readable {
  const enc = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (!['', 'identity', 'gzip', 'x-gzip', 'deflate', 'br'].includes(enc))
    throw new WebError('invalid', `cannot decode content-encoding '${enc}' from ${url}`, { url });
  const { createBrotliDecompress, createGunzip, createInflate } = load('node:zlib') as typeof import('node:zlib');
  const decoder =
    enc === 'gzip' || enc === 'x-gzip'
      ? createGunzip()
      : enc === 'deflate'
        ? createInflate()
        : enc === 'br'
          ? createBrotliDecompress()
          : undefined;
  return decoder === undefined ? res : pipeline(res, decoder, () => undefined);
}

async function readCapped(
  res: IncomingMessage,
  url: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  const onAbort = () => res.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const value of decoded(res, url) as AsyncIterable<Buffer>) {
      if (size + value.length > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    res.destroy();
  }
  if (signal.aborted) throw signal.reason;
  return { body: Buffer.concat(chunks, size), truncated };
}

/** Fetches `rawUrl`. Throws a {@link WebError} for every failure (`blocked` for a private-network hop). */
export async function httpGet(rawUrl: string, o: HttpGetOptions): Promise<HttpGetResult> {
  let url = parseWebUrl(rawUrl);
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal === undefined ? deadline : AbortSignal.any([deadline, o.signal]);
  const redirects: string[] = [];
  let crossOrigin = false;
  // After a 301, 302 or 303 a POST continues as a GET without its body (as browsers do).
  let asGet = false;
  const fail = (e: unknown, at: string): never => {
    if (e instanceof WebError) throw e;
    if (o.signal?.aborted === true)
      throw new WebError('cancelled', `request to ${at} was cancelled`, { url: at, cause: e });
    if (deadline.aborted)
      throw new WebError('timeout', `request to ${at} timed out after ${o.timeoutMs} ms`, { url: at, cause: e });
    const msg =
      e instanceof Error ? (e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message) : String(e);
    throw new WebError('transport', `request to ${at} failed: ${msg}`, { url: at, cause: e });
  };
  for (;;) {
    let res: IncomingMessage;
    let addresses: readonly LookupAddress[] | undefined;
    try {
      // The guard runs on every hop, the first URL and each redirect target alike.
      addresses = await untilAbort(checkHop(url, o), signal);
    } catch (e) {
      return fail(e, url.href);
    }
    if (o.onHop !== undefined)
      try {
        await untilAbort(o.onHop(url, addresses), signal);
      } catch (e) {
        if (signal.aborted) return fail(e, url.href);
        throw e;
      }
    try {
      const hop =
        crossOrigin || asGet
          ? { ...o, ...(crossOrigin ? { headers: undefined } : {}), ...(asGet ? { jsonBody: undefined } : {}) }
          : o;
      res = await send(url, hop, signal, addresses === undefined ? undefined : pinnedLookup(addresses));
    } catch (e) {
      return fail(e, url.href);
    }
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      const location = res.headers.location;
      res.destroy();
      if (location === undefined)
        throw new WebError('status', `HTTP ${status} without a Location header from ${url.href}`, {
          url: url.href,
          status,
        });
      if (redirects.length >= o.maxRedirects)
        throw new WebError('status', `more than ${o.maxRedirects} redirects (last: ${url.href})`, {
          url: rawUrl,
          status,
        });
      redirects.push(url.href);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch (e) {
        throw new WebError('invalid', `HTTP ${status} from ${url.href} redirects to an invalid URL '${location}'`, {
          url: url.href,
          status,
          cause: e,
        });
      }
      // Configured headers (credentials, API keys) are sent to the first origin only, never to another one.
      if (next.origin !== url.origin) crossOrigin = true;
      if (status !== 307 && status !== 308) asGet = true;
      url = parseWebUrl(next.href);
      o.onRedirect?.(url);
      continue;
    }
    if (status >= 400) {
      res.destroy();
      const kind = kindOfStatus(status);
      const header = res.headers['retry-after'];
      const retryAfterMs =
        kind === 'rate_limited' || kind === 'transport' ? parseRetryAfter(header ?? null) : undefined;
      const after = retryAfterMs === undefined ? '' : ` (retry after ${retryAfterMs} ms)`;
      throw new WebError(kind, `HTTP ${status} from ${url.href}${after}`, {
        url: url.href,
        status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    try {
      const { body, truncated } = await readCapped(res, url.href, o.maxBytes, signal);
      return {
        url: url.href,
        status,
        contentType: String(res.headers['content-type'] ?? ''),
        body,
        truncated,
        redirects,
      };
    } catch (e) {
      return fail(e, url.href);
    }
  }
}
