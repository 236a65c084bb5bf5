/**
 * A `fetch` for the MCP SDK's HTTP transports that bounds what a server can make the host hold
 * and keeps no request open for nothing:
 *
 * - the body of a response to a POST (one request's answer: JSON, or an SSE stream of events) is
 *   read up to the limit in all; past it reading stops, the request is aborted, and the
 *   JSON-RPC requests it carried fail at once with an error naming the limit;
 * - a long-lived event stream (the GET streams) is cut into events, each held whole up to the
 *   limit; a longer one is skipped, and the request its ends name fails with that error;
 * - when the client gives up on a request (`notifications/cancelled`, also sent on its timeout),
 *   the POST still waiting for its answer is aborted.
 */
import { limitText } from './message-limit.js';
import { SseEventCutter } from './sse-events.js';
import { idOfOversized } from './stdio-lines.js';

/** What the SDK's transports call as `fetch`. */
export type FetchFn = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A JSON-RPC request id. */
export type RequestId = string | number;

/** Options of {@link boundedFetch}. */
export interface BoundedFetchOptions {
  /** The most bytes of one response body (POST) or one event (event streams). */
  readonly maxBytes: number;
  /** Fails request `id` now with `problem` (the answer was over the limit). */
  readonly failRequest: (id: RequestId, problem: string) => void;
  /** Reports a problem that fails no request (an oversized event naming none). */
  readonly report?: (problem: string) => void;
  /** The `fetch` underneath. Default: the global one. */
  readonly fetch?: FetchFn;
}

/** Statuses whose response has no body (a `Response` cannot be built with one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A `fetch` bounded as the module says. */
export function boundedFetch(options: BoundedFetchOptions): FetchFn {
  const base = options.fetch ?? ((url, init) => fetch(url, init));
  /** The POST waiting on each request, keyed by `JSON.stringify(id)` (so `1` and `"1"` differ). */
  const waiting = new Map<string, AbortController>();
  return async (url, init) => {
    const sent = messagesOf(init?.body);
    for (const id of sent.cancelled) waiting.get(JSON.stringify(id))?.abort(new Error('request cancelled'));
    const controller = new AbortController();
    const signal = init?.signal == null ? controller.signal : anySignal(init.signal, controller.signal);
    const keys = sent.requests.map((id) => JSON.stringify(id));
    for (const key of keys) waiting.set(key, controller);
    const release = (): void => {
      for (const key of keys) if (waiting.get(key) === controller) waiting.delete(key);
    };
    let response: Response;
    try {
      response = await base(url, { ...init, signal });
    } catch (error) {
      release();
      throw error;
    }
    if (response.body === null || NULL_BODY.has(response.status)) {
      release();
      return response;
    }
    const isPost = (init?.method ?? 'GET').toUpperCase() === 'POST';
    const isStream = /^\s*text\/event-stream\s*(?:;|$)/i.test(response.headers.get('content-type') ?? '');
    const body = boundBody(response.body, {
      ...options,
      requests: sent.requests,
      mode: isStream ? (isPost ? 'answer-stream' : 'stream') : 'body',
      abort: () => controller.abort(new Error('response over the message limit')),
      release,
    });
    const bounded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Redirect handling reads the URL the response came from.
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

interface BoundOptions extends BoundedFetchOptions {
  readonly requests: readonly RequestId[];
  /** `body`: one body; `answer-stream`: the events answering a POST; `stream`: a long-lived event stream. */
  readonly mode: 'body' | 'answer-stream' | 'stream';
  readonly abort: () => void;
  readonly release: () => void;
}

function boundBody(upstream: ReadableStream<Uint8Array>, o: BoundOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const max = o.maxBytes;
  let total = 0;
  let out: Uint8Array[] = [];
  const cutter =
    o.mode === 'body'
      ? undefined
      : new SseEventCutter(
          max,
          (event) => out.push(event),
          (event) => {
            const problem = `the server sent an event of ${event.bytes} bytes; ${limitText(max)}, so it was skipped`;
            const id = idOfOversized(event);
            if (id === undefined) o.report?.(problem);
            else o.failRequest(id, problem);
          },
        );
  const stop = (): void => {
    o.release();
    o.abort();
    reader.cancel().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          o.release();
          controller.error(error);
          return;
        }
        if (chunk.done) {
          o.release();
          controller.close();
          return;
        }
        total += chunk.value.length;
        if (o.mode !== 'stream' && total > max) {
          stop();
          const problem = `the server's answer ran past ${max} bytes; ${limitText(max)}, so reading stopped and the request was aborted`;
          for (const id of o.requests) o.failRequest(id, problem);
          if (o.requests.length === 0) o.report?.(problem);
          if (o.mode === 'body') controller.error(new Error(problem));
          else controller.close();
          return;
        }
        if (cutter === undefined) {
          controller.enqueue(chunk.value);
          return;
        }
        cutter.push(chunk.value);
        const events = out;
        out = [];
        for (const event of events) controller.enqueue(event);
        if (events.length > 0) return;
      }
    },
    cancel(reason) {
      o.release();
      o.abort();
      return reader.cancel(reason).catch(() => undefined);
    },
  });
}

/** Ids of the requests a POST body carries, and of the requests it cancels. */
function messagesOf(body: RequestInit['body']): { requests: RequestId[]; cancelled: RequestId[] } {
  const requests: RequestId[] = [];
  const cancelled: RequestId[] = [];
  if (typeof body !== 'string') return { requests, cancelled };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { requests, cancelled };
  }
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof m !== 'object' || m === null) continue;
    const { id, method, params } = m as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof method !== 'string') continue;
    if (isId(id)) requests.push(id);
    else if (method === 'notifications/cancelled' && isId(params?.requestId)) cancelled.push(params.requestId);
  }
  return { requests, cancelled };
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}

/** A signal that aborts when either does. */
function anySignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (any !== undefined) return any([a, b]);
  const both = new AbortController();
  const abort = (s: AbortSignal): void => both.abort(s.reason);
  if (a.aborted) abort(a);
  else a.addEventListener('abort', () => abort(a), { once: true });
  if (b.aborted) abort(b);
  else b.addEventListener('abort', () => abort(b), { once: true });
  return both.signal;
}
