/**
 * A small S3 client of our own: GetObject, HeadObject, PutObject, DeleteObject and
 * ListObjectsV2 over the global `fetch`, signed with Signature Version 4, path-style addressing
 * (`<endpoint>/<bucket>/<key>`), so it works against AWS S3 and S3-compatible stores (MinIO,
 * Ceph, R2, a local test server). Every request has a deadline and honours the caller's abort
 * signal; responses are read under a byte cap; every failure is an `ObjectStoreError` naming the
 * operation, the key and what the store said.
 */
import { throwIfAborted } from '../local/fs-errors.js';
import { ObjectStoreError } from './object-store-error.js';
import { parseErrorBody, parseListPage, type S3ListPage } from './s3-xml.js';
import { type S3Credentials, signRequest, uriEncode } from './sigv4.js';

/** How the client reaches its bucket. */
export interface S3ClientOptions {
  /** Base URL of the store, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly credentials: S3Credentials;
  /** Deadline of one request, milliseconds. */
  readonly timeoutMs: number;
  /** Largest object body read, bytes. */
  readonly maxObjectBytes: number;
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch;
  /** Clock for signatures, epoch milliseconds. */
  readonly now?: () => number;
}

/** What HeadObject tells. */
export interface S3Head {
  readonly size: number;
  readonly lastModified: number;
}

/** Largest listing or error document read, bytes. */
const MAX_XML_BYTES = 16 * 1024 * 1024;

/** An S3 bucket reached over HTTP. */
export class S3Client {
  readonly #o: S3ClientOptions;
  readonly #base: string;

  constructor(options: S3ClientOptions) {
    this.#o = options;
    this.#base = `${options.endpoint.replace(/\/+$/, '')}/${uriEncode(options.bucket, false)}`;
  }

  /** The bytes of an object; `undefined` when there is no such key. */
  async getObject(key: string, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    return (await this.getVersioned(key, signal))?.bytes;
  }

  /** The bytes of an object and its entity tag (its version, for a conditional write); `undefined` when there is no such key. */
  async getVersioned(key: string, signal?: AbortSignal): Promise<{ bytes: Uint8Array; etag?: string } | undefined> {
    const res = await this.#send('GET', key, undefined, undefined, signal);
    if (res.status === 404) return this.#missing(res, 'GetObject', key);
    const etag = res.headers.get('etag') ?? undefined;
    const bytes = await this.#body(res, 'GetObject', key, this.#o.maxObjectBytes, signal);
    return etag === undefined ? { bytes } : { bytes, etag };
  }

  /** Size and modification time of an object; `undefined` when there is none. */
  async headObject(key: string, signal?: AbortSignal): Promise<S3Head | undefined> {
    const res = await this.#send('HEAD', key, undefined, undefined, signal);
    if (res.status === 404) return undefined;
    if (!res.ok) throw await this.#failure(res, 'HeadObject', key);
    const size = Number(res.headers.get('content-length') ?? '0');
    const lastModified = Date.parse(res.headers.get('last-modified') ?? '');
    return { size: Number.isFinite(size) ? size : 0, lastModified: Number.isFinite(lastModified) ? lastModified : 0 };
  }

  /**
   * Creates or replaces an object (S3 replaces a whole object atomically); returns its new entity
   * tag when the store gives one. `condition`: replace only the version with this entity tag
   * (`ifMatch`), or create only (`ifNoneMatch: '*'`); a store where it no longer holds answers
   * 412 (409 while another conditional write of the key runs), an `ObjectStoreError` with
   * `storeCode` `PreconditionFailed` or `ConditionalRequestConflict`.
   */
  async putObject(
    key: string,
    body: Uint8Array,
    signal?: AbortSignal,
    condition?: { readonly ifMatch?: string; readonly ifNoneMatch?: '*' },
  ): Promise<string | undefined> {
    const extra: Record<string, string> | undefined =
      condition?.ifMatch !== undefined
        ? { 'if-match': condition.ifMatch }
        : condition?.ifNoneMatch !== undefined
          ? { 'if-none-match': condition.ifNoneMatch }
          : undefined;
    const res = await this.#send('PUT', key, undefined, body, signal, extra);
    if (!res.ok) throw await this.#failure(res, 'PutObject', key);
    await res.arrayBuffer().catch(() => undefined);
    return res.headers.get('etag') ?? undefined;
  }

  /** Deletes an object (deleting a key that does not exist is not an error in S3). */
  async deleteObject(key: string, signal?: AbortSignal): Promise<void> {
    const res = await this.#send('DELETE', key, undefined, undefined, signal);
    if (!res.ok && res.status !== 404) throw await this.#failure(res, 'DeleteObject', key);
    await res.arrayBuffer().catch(() => undefined);
  }

  /** One page of keys under `prefix`; with `delimiter`, folders come back as common prefixes. */
  async listPage(
    prefix: string,
    options: { delimiter?: string; token?: string; maxKeys?: number; signal?: AbortSignal } = {},
  ): Promise<S3ListPage> {
    const query = new URLSearchParams({ 'list-type': '2', prefix });
    if (options.delimiter !== undefined) query.set('delimiter', options.delimiter);
    if (options.token !== undefined) query.set('continuation-token', options.token);
    if (options.maxKeys !== undefined) query.set('max-keys', String(options.maxKeys));
    const res = await this.#send('GET', undefined, query, undefined, options.signal);
    const bytes = await this.#body(res, 'ListObjectsV2', prefix, MAX_XML_BYTES, options.signal);
    let page: S3ListPage;
    try {
      page = parseListPage(new TextDecoder().decode(bytes));
    } catch (e) {
      throw new ObjectStoreError(
        'ListObjectsV2',
        prefix,
        `the store answered something unreadable: ${(e as Error).message}`,
      );
    }
    return page;
  }

  async #send(
    method: string,
    key: string | undefined,
    query: URLSearchParams | undefined,
    body: Uint8Array | undefined,
    signal: AbortSignal | undefined,
    extra?: Readonly<Record<string, string>>,
  ): Promise<Response> {
    const url = new URL(key === undefined ? `${this.#base}/` : `${this.#base}/${uriEncode(key, true)}`);
    if (query) url.search = query.toString();
    const headers = signRequest({
      method,
      url,
      region: this.#o.region,
      credentials: this.#o.credentials,
      body,
      now: (this.#o.now ?? Date.now)(),
    });
    const deadline = AbortSignal.timeout(this.#o.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const operation = `${method} ${key ?? '(listing)'}`;
    try {
      return await (this.#o.fetch ?? fetch)(url, {
        method,
        // Conditions are not signed (Signature Version 4 signs the host and x-amz-* headers).
        headers: extra === undefined ? headers : { ...headers, ...extra },
        ...(body === undefined ? {} : { body }),
        signal: combined,
        redirect: 'manual',
      });
    } catch (e) {
      throwIfAborted(signal, operation);
      const why = deadline.aborted
        ? `no answer within ${this.#o.timeoutMs} ms`
        : `cannot reach ${this.#o.endpoint}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`;
      throw new ObjectStoreError(operation, key ?? '', why, { cause: e });
    }
  }

  async #body(res: Response, operation: string, key: string, cap: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!res.ok) throw await this.#failure(res, operation, key);
    const declared = Number(res.headers.get('content-length') ?? 'NaN');
    if (Number.isFinite(declared) && declared > cap) {
      await res.body?.cancel().catch(() => undefined);
      throw new ObjectStoreError(operation, key, `is ${declared} bytes, over the ${cap} bytes this workspace reads`);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for await (const chunk of res.body ?? []) {
        total += chunk.byteLength;
        if (total > cap) {
          await res.body?.cancel().catch(() => undefined);
          throw new ObjectStoreError(operation, key, `is over the ${cap} bytes this workspace reads`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      if (e instanceof ObjectStoreError) throw e;
      throwIfAborted(signal, operation);
      throw new ObjectStoreError(operation, key, `the answer was cut off: ${(e as Error).message}`, { cause: e });
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  async #missing(res: Response, operation: string, key: string): Promise<undefined> {
    const text = await res.text().catch(() => '');
    const body = parseErrorBody(text);
    if (body === undefined || body.code === 'NoSuchKey') return undefined;
    throw this.#error(res.status, body.code, body.message, operation, key);
  }

  async #failure(res: Response, operation: string, key: string): Promise<ObjectStoreError> {
    const text = res.status === 204 ? '' : await res.text().catch(() => '');
    const body = parseErrorBody(text.slice(0, MAX_XML_BYTES));
    return this.#error(res.status, body?.code ?? `HTTP ${res.status}`, body?.message ?? '', operation, key);
  }

  #error(status: number, code: string, message: string, operation: string, key: string): ObjectStoreError {
    const hint =
      code === 'NoSuchBucket'
        ? `; the bucket '${this.#o.bucket}' does not exist at ${this.#o.endpoint}`
        : code === 'AccessDenied' || code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch'
          ? '; check the credentials (accessKeyId, secretAccessKey) and what they may do on this bucket'
          : '';
    if (code === 'PreconditionFailed' || code === 'ConditionalRequestConflict' || status === 412)
      return new ObjectStoreError(
        operation,
        key,
        `the object changed in the store since this workspace read it (another writer); read it again and redo the change (${code})`,
        { status, storeCode: code },
      );
    const said = message === '' ? code : `${code}: ${message}`;
    return new ObjectStoreError(operation, key, `the store refused it (${said})${hint}`, { status, storeCode: code });
  }
}
