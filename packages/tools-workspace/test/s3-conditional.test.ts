// A write of a file this workspace read or wrote before replaces only the version it saw (S3
// conditional writes: `If-Match`, `If-None-Match: *`), so another writer's change in between is
// refused, never lost. s3rver ignores these conditions (the S3 tests against it show writes go on
// working with them); the store here is a small S3 on loopback that keeps them, as AWS S3 does.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { S3Workspace } from '../src/index.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** Objects by key, each with its entity tag; `puts` records each PUT's conditions. */
async function store() {
  const objects = new Map<string, { body: Buffer; etag: string }>();
  const puts: string[] = [];
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
    const fail = (status: number, code: string) =>
      res
        .writeHead(status, { 'content-type': 'application/xml' })
        .end(`<Error><Code>${code}</Code><Message>no</Message></Error>`);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
        const contents = keys.map(
          (k) => `<Contents><Key>${k}</Key><Size>${objects.get(k)!.body.length}</Size></Contents>`,
        );
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(`<ListBucketResult>${contents.join('')}<IsTruncated>false</IsTruncated></ListBucketResult>`);
        return;
      }
      const object = objects.get(key);
      if (req.method === 'GET' || req.method === 'HEAD') {
        if (object === undefined) return fail(404, 'NoSuchKey');
        res.writeHead(200, { etag: object.etag, 'content-length': String(object.body.length) });
        res.end(req.method === 'GET' ? object.body : undefined);
        return;
      }
      if (req.method === 'PUT') {
        const ifMatch = req.headers['if-match'];
        const ifNoneMatch = req.headers['if-none-match'];
        puts.push(
          `${key} ${ifMatch !== undefined ? `if-match ${ifMatch}` : ifNoneMatch !== undefined ? `if-none-match ${ifNoneMatch}` : 'unconditional'}`,
        );
        if (ifMatch !== undefined && ifMatch !== object?.etag) return fail(412, 'PreconditionFailed');
        if (ifNoneMatch === '*' && object !== undefined) return fail(412, 'PreconditionFailed');
        const body = Buffer.concat(chunks);
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        objects.set(key, { body, etag });
        res.writeHead(200, { etag }).end();
        return;
      }
      fail(501, 'NotImplemented');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const workspace = () =>
    new S3Workspace({
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'b-1',
      credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
    });
  return { objects, puts, workspace };
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('S3 writes replace only the version this workspace saw', () => {
  it('GREP-07: a change another writer made since the read fails the write, named; read again, the write goes through', async () => {
    const { objects, puts, workspace } = await store();
    const mine = workspace();
    const theirs = workspace();
    await theirs.fs.writeFile('a.txt', 'v1\n');
    expect(text(await mine.fs.readFile('a.txt'))).toBe('v1\n');
    await theirs.fs.writeFile('a.txt', 'theirs\n');
    await expect(mine.fs.writeFile('a.txt', 'mine\n')).rejects.toMatchObject({
      code: 'WORKSPACE_STORE',
      status: 412,
      storeCode: 'PreconditionFailed',
      message: expect.stringContaining('changed in the store since this workspace read it (another writer)'),
    });
    expect(objects.get('a.txt')?.body.toString()).toBe('theirs\n');
    expect(text(await mine.fs.readFile('a.txt'))).toBe('theirs\n');
    await mine.fs.writeFile('a.txt', 'mine, after reading theirs\n');
    await mine.fs.writeFile('a.txt', 'mine again\n');
    expect(objects.get('a.txt')?.body.toString()).toBe('mine again\n');
    expect(puts.filter((p) => p.startsWith('a.txt')).map((p) => p.split(' ')[1])).toEqual([
      'unconditional',
      'if-match',
      'if-match',
      'if-match',
      'if-match',
    ]);
  });

  it('GREP-07: a file seen missing is created only if it still does not exist', async () => {
    const { objects, workspace } = await store();
    const mine = workspace();
    const theirs = workspace();
    await expect(mine.fs.readFile('new.txt')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await theirs.fs.writeFile('new.txt', 'theirs\n');
    await expect(mine.fs.writeFile('new.txt', 'mine\n')).rejects.toMatchObject({ storeCode: 'PreconditionFailed' });
    expect(objects.get('new.txt')?.body.toString()).toBe('theirs\n');
  });
});
