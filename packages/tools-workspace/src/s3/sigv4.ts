/**
 * AWS Signature Version 4 for S3 requests (header-based, payload hashed), with `node:crypto`.
 * Path-style requests: `<endpoint>/<bucket>/<key>`; every path segment and query value is
 * URI-encoded the way S3 canonicalises it (RFC 3986 unreserved characters kept, the rest
 * percent-encoded, `/` kept in the path only).
 */
import { createHash, createHmac } from 'node:crypto';

/** S3 credentials. */
export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** A temporary session token (STS), sent as `x-amz-security-token`. */
  readonly sessionToken?: string;
}

/** One request to sign. */
export interface SignInput {
  readonly method: string;
  readonly url: URL;
  readonly region: string;
  readonly credentials: S3Credentials;
  readonly body: Uint8Array | undefined;
  /** Epoch milliseconds of the request. */
  readonly now: number;
  /** More headers to send and sign (`range`, `content-type`), names in lowercase. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** S3's URI encoding of one component; `/` is kept when `keepSlash`. */
export function uriEncode(text: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const sha256Hex = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: Uint8Array | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** `20261204T193000Z` and `20261204` of an instant. */
function stamps(now: number): { amzDate: string; day: string } {
  const iso = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return { amzDate: iso, day: iso.slice(0, 8) };
}

/** The canonical query string of a URL (names and values encoded, sorted by name then value). */
function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams].map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/**
 * The headers to send with a request: `host`, `x-amz-date`, `x-amz-content-sha256`, the session
 * token when there is one, and `authorization`.
 */
export function signRequest(input: SignInput): Record<string, string> {
  const { amzDate, day } = stamps(input.now);
  const payloadHash = sha256Hex(input.body ?? new Uint8Array());
  const headers: Record<string, string> = {
    ...input.headers,
    host: input.url.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
  };
  if (input.credentials.sessionToken !== undefined) headers['x-amz-security-token'] = input.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim()}\n`).join('');
  const signedHeaders = names.join(';');
  // The URL's pathname is already percent-encoded by our own builder; it is signed as sent.
  const canonicalRequest = [
    input.method,
    input.url.pathname,
    canonicalQuery(input.url),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${input.credentials.secretAccessKey}`, day);
  key = hmac(key, input.region);
  key = hmac(key, 's3');
  key = hmac(key, 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
