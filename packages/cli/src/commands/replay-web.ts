/**
 * `a3s replay --web`: serves the built viewer (shipped in this package as `dist/viewer`) and one
 * fact log on loopback. Read-only (GET and HEAD only), bound to 127.0.0.1 on a random port,
 * requests for any other host name refused (no DNS rebinding), nothing opened by itself.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFactLogFile } from '@a3s-code/core';
import { A3sError } from '@a3s-code/effect';
import { workspaceOfLog } from '../logs.js';

/** What the server serves. */
export interface ReplayServerOptions {
  /** The fact log to serve as `/log.jsonl` (read on each request, so a growing log shows its new facts). */
  readonly logPath: string;
  /** Prices per `provider/model`, served as `/pricing.json` (empty: no cost shown). */
  readonly pricing: Readonly<Record<string, unknown>>;
  /** The built viewer folder (default: `dist/viewer` next to this module). */
  readonly viewerDir?: string;
}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

const HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'content-security-policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
};

/** The viewer shipped next to the built CLI. */
export function defaultViewerDir(): string {
  return fileURLToPath(new URL('./viewer', import.meta.url));
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, head: boolean): void {
  res.writeHead(status, { ...HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

function handle(req: IncomingMessage, res: ServerResponse, opts: Required<ReplayServerOptions>, port: number): void {
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head) {
    res.writeHead(405, { ...HEADERS, allow: 'GET, HEAD', 'content-type': 'text/plain' });
    res.end('read-only: GET and HEAD only\n');
    return;
  }
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    send(res, 403, 'text/plain', `refused: host '${host}' is not this loopback server\n`, head);
    return;
  }
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', `http://${host}`).pathname);
  } catch {
    send(res, 400, 'text/plain', 'bad path\n', head);
    return;
  }
  if (path === '/log.jsonl') {
    // Read without blocking the server: the file may have been swapped for a FIFO or a device since.
    readFactLogFile(opts.logPath, { followLinks: workspaceOfLog(opts.logPath) === undefined }).then(
      (body) => {
        res.setHeader('x-a3s-log-name', encodeURIComponent(basename(opts.logPath)));
        send(res, 200, 'application/x-ndjson; charset=utf-8', body, head);
      },
      (e: unknown) => send(res, 500, 'text/plain', `cannot read the log: ${(e as Error).message}\n`, head),
    );
    return;
  }
  if (path === '/pricing.json') {
    send(res, 200, TYPES['.json']!, JSON.stringify(opts.pricing), head);
    return;
  }
  const root = opts.viewerDir;
  const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    send(res, 404, 'text/plain', 'not found\n', head);
    return;
  }
  send(res, 200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file), head);
}

/** Starts the server on 127.0.0.1 and a random free port. */
export async function startReplayServer(options: ReplayServerOptions): Promise<ReplayServer> {
  const viewerDir = resolve(options.viewerDir ?? defaultViewerDir());
  if (!existsSync(join(viewerDir, 'index.html')))
    throw new A3sError('CLI_VIEWER_MISSING', `the web viewer is not in ${viewerDir}; rebuild @a3s-code/cli`);
  const opts = { ...options, viewerDir };
  let port = 0;
  const server: Server = createServer((req, res) => handle(req, res, opts, port));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** What stopped {@link serveUntilStopped}: a signal, or its `signal` aborting. */
export type ServeStop = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'aborted';

/**
 * Serves `logPath` until the process gets SIGINT, SIGTERM or SIGHUP (or `signal` aborts), printing the
 * URL with `print`. Resolves with what stopped it, once the server has stopped.
 */
export async function serveUntilStopped(
  options: ReplayServerOptions,
  print: (line: string) => void,
  signal?: AbortSignal,
): Promise<ServeStop> {
  const server = await startReplayServer(options);
  // The handlers are in place before the URL is printed: a Ctrl-C sent on seeing it is handled.
  const stopped = new Promise<ServeStop>((done) => {
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    const onHup = () => stop('SIGHUP');
    const onAbort = () => stop('aborted');
    const stop = (why: ServeStop) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onHup);
      signal?.removeEventListener('abort', onAbort);
      void server.close().then(() => done(why));
    };
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    process.once('SIGHUP', onHup);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  print(`a3s replay: serving ${options.logPath} read-only at ${server.url} (Ctrl-C to stop)`);
  return stopped;
}
