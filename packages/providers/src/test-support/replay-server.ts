/**
 * Test support: a real HTTP server on 127.0.0.1 (port 0) that replays recorded provider
 * responses byte for byte, optionally split at given offsets or cut mid-body, and records every
 * request it receives. Provider clients are tested against it, never against a mock of themselves.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One response to replay. */
export interface ReplayResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  /** Byte offsets at which the body is written in separate pieces (a short pause between them). */
  readonly splitAt?: readonly number[];
  /** Destroy the socket after writing this many bytes (a connection cut mid-stream). */
  readonly cutAfter?: number;
  /** With `cutAfter`: how long the server stays silent before it cuts, ms (default 5). */
  readonly cutPauseMs?: number;
  /** Wait this long before sending headers, ms. */
  readonly delayMs?: number;
}

/** A request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly body: unknown;
}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Serves `responses` in order (one per request); a function computes each response instead. */
export async function startReplayServer(
  responses: readonly ReplayResponse[] | ((req: RecordedRequest, index: number) => ReplayResponse),
): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const rawBody = Buffer.concat(parts).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        body,
      };
      const index = requests.length;
      requests.push(recorded);
      const spec = typeof responses === 'function' ? responses(recorded, index) : responses[index];
      if (spec === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `replay server: no response scripted for request ${index + 1}` } }));
        return;
      }
      void send(spec, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function send(spec: ReplayResponse, res: import('node:http').ServerResponse): Promise<void> {
  if (spec.delayMs) await pause(spec.delayMs);
  if (res.destroyed) return;
  const body = Buffer.isBuffer(spec.body) ? spec.body : Buffer.from(spec.body, 'utf8');
  res.writeHead(spec.status ?? 200, { 'content-type': 'text/event-stream', ...spec.headers });
  const end = spec.cutAfter ?? body.length;
  const cuts = [...(spec.splitAt ?? []).filter((o) => o > 0 && o < end), end].sort((a, b) => a - b);
  let from = 0;
  for (const to of cuts) {
    if (res.destroyed) return;
    res.write(body.subarray(from, to));
    from = to;
    if (to < end) await pause(2);
  }
  if (spec.cutAfter !== undefined) {
    await pause(spec.cutPauseMs ?? 5);
    res.socket?.destroy();
    return;
  }
  res.end();
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `n` distinct pseudo-random offsets inside `length` (deterministic for a seed). */
export function splitOffsets(length: number, n: number, seed: number): number[] {
  let x = seed >>> 0 || 1;
  const out = new Set<number>();
  while (out.size < Math.min(n, Math.max(0, length - 1))) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.add(1 + (x % (length - 1)));
  }
  return [...out].sort((a, b) => a - b);
}
