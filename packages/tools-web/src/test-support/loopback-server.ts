/**
 * Tests only: an HTTP server on 127.0.0.1 (port 0) whose routes are plain handlers, so tests can
 * serve pages, 429s, 5xx, slow and truncated bodies and redirects.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A route handler. */
export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

/** A running server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** Requests seen, as `METHOD path`. */
  readonly hits: string[];
  close(): Promise<void>;
}

/** Starts a server; unknown paths answer 404. */
export async function loopbackServer(routes: Readonly<Record<string, Route>>): Promise<LoopbackServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.push(`${req.method} ${req.url}`);
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const route = routes[path];
      if (route === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      void Promise.resolve(route(req, res, body)).catch(() => res.destroy());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends `html` as a 200 text/html page. */
export const html =
  (page: string): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);

/** Sends JSON. */
export const json =
  (value: unknown, status = 200, headers: Record<string, string> = {}): Route =>
  (_req, res) =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
