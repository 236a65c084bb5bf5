// The S3 workspace's file system against a real S3 server on loopback (s3rver, signatures
// checked): files as objects under a prefix, folders as key prefixes and markers, listings past
// a page, keys that need encoding, and the store's refusals as typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Workspace } from '../src/index.js';
import { startS3, type TestS3 } from './s3-kit.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
let n = 0;
/** A workspace under a fresh prefix of the shared bucket. */
const open = (extra: Partial<ConstructorParameters<typeof S3Workspace>[0]> = {}) =>
  new S3Workspace({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    credentials: s3.credentials,
    prefix: `t${++n}`,
    ...extra,
  });

describe('S3Workspace file system', () => {
  it('reads, writes, stats, lists and removes objects under its prefix, with the workspace path rules', async () => {
    const ws = open({ root: '/repo' });
    await ws.fs.writeFile('a/b.txt', 'hi');
    await ws.fs.writeFile('a/c/d.txt', new Uint8Array([104, 105, 10]));
    await ws.fs.writeFile('top.md', '# top\n');
    expect(text(await ws.fs.readFile('a/b.txt'))).toBe('hi');
    expect(text(await ws.fs.readFile('/repo/a/./b.txt'))).toBe('hi');
    expect(await ws.fs.list('')).toEqual([
      { name: 'a', kind: 'directory' },
      { name: 'top.md', kind: 'file' },
    ]);
    expect(await ws.fs.list('a')).toEqual([
      { name: 'b.txt', kind: 'file' },
      { name: 'c', kind: 'directory' },
    ]);
    expect(await ws.fs.stat('a/b.txt')).toMatchObject({ kind: 'file', size: 2 });
    expect(await ws.fs.stat('a/c')).toMatchObject({ kind: 'directory' });
    expect(await ws.fs.stat('nope')).toBeUndefined();
    await expect(ws.fs.readFile('a')).rejects.toMatchObject({ code: 'WORKSPACE_IS_DIRECTORY' });
    await expect(ws.fs.readFile('a/missing.txt')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(ws.fs.list('top.md')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_DIRECTORY' });
    await expect(ws.fs.writeFile('top.md/x', 'x')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_DIRECTORY' });
    await expect(ws.fs.writeFile('a', 'x')).rejects.toMatchObject({ code: 'WORKSPACE_IS_DIRECTORY' });
    await expect(ws.fs.remove('a')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_EMPTY' });
    await ws.fs.remove('a/c/d.txt');
    expect(await ws.fs.stat('a/c')).toBeUndefined();
    await ws.fs.mkdir('empty');
    expect(await ws.fs.list('empty')).toEqual([]);
    expect(await ws.fs.stat('empty')).toMatchObject({ kind: 'directory' });
    await ws.fs.remove('empty');
    expect(await ws.fs.stat('empty')).toBeUndefined();
    for (const bad of ['../t1/x', '/elsewhere/x', 'a/\0b']) {
      await expect(ws.fs.readFile(bad)).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    }
    await expect(ws.fs.writeFile('.git/config', 'x')).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    await expect(ws.fs.readFile(`${'d/'.repeat(520)}x`)).rejects.toMatchObject({ problem: 'too_long' });
    // Another prefix of the same bucket is another workspace.
    expect(await open().fs.list('')).toEqual([]);
  });

  it('lists a folder past one page, and keys with spaces, unicode, + and % round-trip', async () => {
    const ws = open({ listPageSize: 3 });
    const names = ['a b.txt', 'ünï cödé.txt', 'plus+sign.txt', '100%.txt', 'q?x.txt', 'amp&lt.txt', 'h#ash.txt'];
    for (const name of names) await ws.fs.writeFile(`dir/${name}`, name);
    const listed = (await ws.fs.list('dir')).map((e) => e.name);
    expect(listed).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const name of names) expect(text(await ws.fs.readFile(`dir/${name}`))).toBe(name);
  });

  it('an unknown access key, a missing bucket and an unreachable store are typed errors naming what to check', async () => {
    const wrong = open({ credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'S3RVER' } });
    const denied = await wrong.fs.readFile('x.txt').catch((e: unknown) => e);
    expect(denied).toMatchObject({
      code: 'WORKSPACE_STORE',
      problem: 'store',
      storeCode: 'InvalidAccessKeyId',
      status: 403,
    });
    expect(String((denied as Error).message)).toMatch(/InvalidAccessKeyId.*check the credentials/);
    await expect(wrong.fs.writeFile('x.txt', 'x')).rejects.toMatchObject({ code: 'WORKSPACE_STORE' });
    const noBucket = new S3Workspace({ endpoint: s3.endpoint, bucket: 'no-such-bucket', credentials: s3.credentials });
    await expect(noBucket.fs.list('')).rejects.toThrow(/NoSuchBucket.*'no-such-bucket' does not exist/);
    const gone = new S3Workspace({
      endpoint: 'http://127.0.0.1:9',
      bucket: 'b-b',
      credentials: s3.credentials,
      timeoutMs: 2_000,
    });
    await expect(gone.fs.readFile('x')).rejects.toMatchObject({ code: 'WORKSPACE_STORE' });
  });

  it('refuses bad options by name', () => {
    const base = {
      endpoint: 'http://127.0.0.1:1',
      bucket: 'ok-bucket',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    };
    const field = (o: object) => {
      try {
        new S3Workspace({ ...base, ...o });
        return 'none';
      } catch (e) {
        return (e as { field?: string }).field;
      }
    };
    expect(field({ endpoint: 'ftp://x' })).toBe('endpoint');
    expect(field({ bucket: 'Bad_Bucket' })).toBe('bucket');
    expect(field({ prefix: 'a/../b' })).toBe('prefix');
    expect(field({ maxScanObjects: 0 })).toBe('maxScanObjects');
    expect(field({ listPageSize: 5000 })).toBe('listPageSize');
    expect(field({ credentials: { accessKeyId: '', secretAccessKey: 'x' } })).toBe('credentials');
    expect(field({ root: 'rel' })).toBe('root');
    // A misspelt prefix would otherwise put the workspace at the whole bucket.
    expect(field({ prefx: 'projects/app' })).toBe('prefx');
    expect(() => new S3Workspace({ ...base, prefx: 'p' } as never)).toThrow(/did you mean 'prefix'\?/);
    // A misspelt session token would otherwise be dropped, and every request refused as unsigned.
    const keys = { accessKeyId: 'a', secretAccessKey: 's' };
    expect(field({ credentials: { ...keys, sessionTolken: 't' } })).toBe('sessionTolken');
    expect(() => new S3Workspace({ ...base, credentials: { ...keys, sessionTolken: 't' } } as never)).toThrow(
      /is not an option of credentials; allowed: accessKeyId, secretAccessKey, sessionToken; did you mean 'sessionToken'\?/,
    );
    expect(field({ credentials: { ...keys, sessionToken: 7 } })).toBe('credentials.sessionToken');
    expect(field({ credentials: 'a:b' })).toBe('options');
    expect(field({ credentials: { ...keys, sessionToken: 't' } })).toBe('none');
    expect(field({})).toBe('none');
  });
});
