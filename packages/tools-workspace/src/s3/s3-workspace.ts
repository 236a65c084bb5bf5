/**
 * `S3Workspace`: a workspace in an S3 bucket (AWS or any S3-compatible store), optionally under a
 * key prefix, with the file capabilities only (`fs.read`, `fs.write`, `fs.list`, `search`): no
 * `exec`, no `git`, so `bash` and `git` are not offered. Search runs the JS engine over the bucket
 * and visits at most `maxScanObjects` objects per call; `grep` and `glob` results then carry
 * `metadata.search` (`truncated` when the cap stopped the scan, with a warning).
 */
import type { WorkspaceServiceCapability, WorkspaceServices } from '@a3s-code/core';
import { checkWorkspaceOptions, WorkspaceConfigurationError } from '../errors.js';
import { displayRoot, fileOnlyCapabilities } from '../paths/display-root.js';
import { JsSearch } from '../search/js-search.js';
import { S3Client } from './s3-client.js';
import { S3FileSystem } from './s3-fs.js';
import type { S3Credentials } from './sigv4.js';

/** Options of {@link S3Workspace}. */
export interface S3WorkspaceOptions {
  /** Base URL of the store: `https://s3.<region>.amazonaws.com`, or an S3-compatible server. Path-style addressing. */
  readonly endpoint: string;
  readonly bucket: string;
  /** Key prefix the workspace lives under (`projects/app`); default the whole bucket. */
  readonly prefix?: string;
  /** Signing region. Default `AWS_REGION`, else `us-east-1`. */
  readonly region?: string;
  /** Default `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`. */
  readonly credentials?: S3Credentials;
  /** Display root, an absolute POSIX path; absolute tool paths under it are accepted. Default `/workspace`. */
  readonly root?: string;
  /** The most objects one `grep` or `glob` visits. Default 10,000. */
  readonly maxScanObjects?: number;
  /** Deadline of one request to the store, ms. Default 30,000. */
  readonly timeoutMs?: number;
  /** Largest object read, bytes. Default 64 MiB. */
  readonly maxObjectBytes?: number;
  /** Keys per listing page (1..1000). Default the store's (1,000 on S3). */
  readonly listPageSize?: number;
  /** The fetch to use. Default the global one. */
  readonly fetch?: typeof fetch;
}

const OPTION_KEYS: readonly string[] = [
  'endpoint',
  'bucket',
  'prefix',
  'region',
  'credentials',
  'root',
  'maxScanObjects',
  'timeoutMs',
  'maxObjectBytes',
  'listPageSize',
  'fetch',
];

/** Default cap on the objects one search visits. */
export const DEFAULT_MAX_SCAN_OBJECTS = 10_000;

function positiveInt(
  field: string,
  value: number | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new WorkspaceConfigurationError(field, `must be a whole number from 1 to ${max}, got ${String(value)}`);
  }
  return value;
}

function credentialsFrom(options: S3WorkspaceOptions): S3Credentials {
  const c = options.credentials;
  if (c !== undefined) {
    checkWorkspaceOptions(
      c,
      ['accessKeyId', 'secretAccessKey', 'sessionToken'],
      'credentials',
      "{ accessKeyId: '…', secretAccessKey: '…' }",
    );
    if (c.sessionToken !== undefined && (typeof c.sessionToken !== 'string' || c.sessionToken === ''))
      throw new WorkspaceConfigurationError('credentials.sessionToken', 'must be a non-empty string when given');
    if (
      typeof c.accessKeyId !== 'string' ||
      c.accessKeyId === '' ||
      typeof c.secretAccessKey !== 'string' ||
      c.secretAccessKey === ''
    ) {
      throw new WorkspaceConfigurationError('credentials', 'needs a non-empty accessKeyId and secretAccessKey');
    }
    return c;
  }
  const id = process.env.AWS_ACCESS_KEY_ID;
  const secret = process.env.AWS_SECRET_ACCESS_KEY;
  if (!id || !secret) {
    throw new WorkspaceConfigurationError(
      'credentials',
      'none given: pass { accessKeyId, secretAccessKey } or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    );
  }
  const token = process.env.AWS_SESSION_TOKEN;
  return token
    ? { accessKeyId: id, secretAccessKey: secret, sessionToken: token }
    : { accessKeyId: id, secretAccessKey: secret };
}

/** The key prefix, `''` or ending with `/`; refused when it could not name keys safely. */
function basePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  if (typeof prefix !== 'string' || prefix.includes('\0')) {
    throw new WorkspaceConfigurationError('prefix', 'must be a string without NUL bytes');
  }
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new WorkspaceConfigurationError(
      'prefix',
      `must be key segments without empty, . or .. parts, got ${JSON.stringify(prefix)}`,
    );
  }
  return `${trimmed}/`;
}

/** A workspace in an S3 bucket (file tools only). */
export class S3Workspace implements WorkspaceServices {
  readonly root: string;
  readonly capabilities: ReadonlySet<WorkspaceServiceCapability> = fileOnlyCapabilities();
  readonly fs: S3FileSystem;
  readonly search: JsSearch;
  /** The bucket and key prefix, for display: `s3://bucket/prefix/`. */
  readonly location: string;

  /** Checks the options (nothing is sent until the first call). @throws WorkspaceConfigurationError naming the option. */
  constructor(options: S3WorkspaceOptions) {
    checkWorkspaceOptions(
      options,
      OPTION_KEYS,
      'new S3Workspace(options)',
      "{ endpoint: 'https://…', bucket: 'name' }",
    );
    let endpoint: URL;
    try {
      endpoint = new URL(options.endpoint);
    } catch {
      throw new WorkspaceConfigurationError(
        'endpoint',
        `must be an http(s) URL, got ${JSON.stringify(options.endpoint)}`,
      );
    }
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
      throw new WorkspaceConfigurationError(
        'endpoint',
        `must be an http(s) URL, got ${JSON.stringify(options.endpoint)}`,
      );
    }
    if (typeof options.bucket !== 'string' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(options.bucket)) {
      throw new WorkspaceConfigurationError(
        'bucket',
        `must be an S3 bucket name (3-63 of a-z 0-9 . -), got ${JSON.stringify(options.bucket)}`,
      );
    }
    this.root = displayRoot(options.root);
    const base = basePrefix(options.prefix);
    const client = new S3Client({
      endpoint: endpoint.toString(),
      bucket: options.bucket,
      region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
      credentials: credentialsFrom(options),
      timeoutMs: positiveInt('timeoutMs', options.timeoutMs, 30_000),
      maxObjectBytes: positiveInt('maxObjectBytes', options.maxObjectBytes, 64 * 1024 * 1024),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    const pageSize =
      options.listPageSize === undefined ? undefined : positiveInt('listPageSize', options.listPageSize, 1000, 1000);
    this.fs = new S3FileSystem(client, this.root, base, pageSize);
    const maxObjects = positiveInt('maxScanObjects', options.maxScanObjects, DEFAULT_MAX_SCAN_OBJECTS);
    this.search = new JsSearch(this.fs, this.root, { backend: 's3', maxObjects });
    this.location = `s3://${options.bucket}/${base}`;
  }
}
