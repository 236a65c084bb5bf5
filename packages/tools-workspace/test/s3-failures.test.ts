// An S3 endpoint that misbehaves, played by a small HTTP server on loopback (s3rver does not
// check Version 4 signatures, so a refused signature is answered here with S3's own error
// document): each failure is a typed error naming what to check, a tool call fails as a result,
// and cancelling ends the call as cancelled.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { S3Workspace } from '../src/index.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function endpoint(handler: (req: IncomingMessage, res: ServerResponse) => void, timeoutMs = 10_000) {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new S3Workspace({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'b-1',
    credentials: { accessKeyId: 'AK', secretAccessKey: 'wrong' },
    timeoutMs,
  });
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

describe('an S3 endpoint that misbehaves', () => {
  it('a refused signature is WORKSPACE_STORE naming the store code and the credentials to check; a HEAD refusal is never "missing"', async () => {
    const ws = await endpoint((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(xmlError('SignatureDoesNotMatch', 'The request signature we calculated does not match'));
    });
    await expect(ws.fs.readFile('a.txt')).rejects.toMatchObject({
      code: 'WORKSPACE_STORE',
      path: 'a.txt',
      status: 403,
      storeCode: 'SignatureDoesNotMatch',
      message: expect.stringMatching(/SignatureDoesNotMatch.*check the credentials/),
    });
    await expect(ws.fs.stat('a.txt')).rejects.toMatchObject({ code: 'WORKSPACE_STORE', status: 403 });
  });

  it('no answer in time, and an answer cut off, are typed errors; a search stops with the same error', async () => {
    const silent = await endpoint(() => {}, 300);
    await expect(silent.fs.readFile('a.txt')).rejects.toMatchObject({
      code: 'WORKSPACE_STORE',
      message: expect.stringContaining('no answer within 300 ms'),
    });
    await expect(silent.search.grepFiles({ pattern: 'x' })).rejects.toMatchObject({ code: 'WORKSPACE_STORE' });
    const cut = await endpoint((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part');
      setTimeout(() => res.destroy(), 50);
    });
    await expect(cut.fs.readFile('a.txt')).rejects.toMatchObject({
      code: 'WORKSPACE_STORE',
      message: expect.stringContaining('the answer was cut off'),
    });
  });

  it('a listing that is not a ListBucketResult is refused, not misread; an object over the size cap is refused unread', async () => {
    const proxy = await endpoint((req, res) => {
      if (req.url?.includes('list-type=2')) res.end('<html>proxy login</html>');
      else res.writeHead(404).end();
    });
    await expect(proxy.fs.list('')).rejects.toMatchObject({
      code: 'WORKSPACE_STORE',
      message: expect.stringContaining('not a ListBucketResult'),
    });
    server?.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(128 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const big = new S3Workspace({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      bucket: 'b-1',
      credentials: { accessKeyId: 'AK', secretAccessKey: 'x' },
    });
    await expect(big.fs.readFile('big.bin')).rejects.toThrow(/is 134217728 bytes, over the 67108864 bytes/);
  });

  it('cancelling a call ends it as CANCELLED', async () => {
    const ws = await endpoint(() => {});
    const c = new AbortController();
    const pending = ws.fs.readFile('a.txt', { signal: c.signal });
    setTimeout(() => c.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
