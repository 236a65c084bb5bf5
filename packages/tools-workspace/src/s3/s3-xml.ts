/**
 * The two XML documents the S3 client reads: a `ListBucketResult` (ListObjectsV2) and an
 * `Error`. S3's XML is flat and regular, so it is read by element name without a general parser:
 * bounded (the response size is capped before this runs), entities decoded, and anything not of
 * the expected shape refused.
 */

/** One object of a listing. */
export interface S3Object {
  readonly key: string;
  readonly size: number;
  /** Epoch milliseconds. */
  readonly lastModified: number;
}

/** One page of ListObjectsV2. */
export interface S3ListPage {
  readonly objects: readonly S3Object[];
  /** Common prefixes (folders) when a delimiter was given, each ending with it. */
  readonly prefixes: readonly string[];
  /** The token of the next page, when the listing is truncated. */
  readonly nextToken: string | undefined;
}

/** The code and message of an S3 error document. */
export interface S3ErrorBody {
  readonly code: string;
  readonly message: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text with XML entities and character references decoded. */
export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(Number.parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return safeCodePoint(Number.parseInt(ref.slice(1), 10), whole);
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(n: number, fallback: string): string {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
}

/** The text of every `<name>` element directly in `xml` (not nested elements of the same name). */
function elements(xml: string, name: string): string[] {
  const out: string[] = [];
  const open = `<${name}>`;
  const close = `</${name}>`;
  let at = 0;
  for (;;) {
    const start = xml.indexOf(open, at);
    if (start < 0) return out;
    const end = xml.indexOf(close, start + open.length);
    if (end < 0) throw new Error(`unterminated <${name}>`);
    out.push(xml.slice(start + open.length, end));
    at = end + close.length;
  }
}

/** The decoded text of the first `<name>` element, or `undefined`. */
function first(xml: string, name: string): string | undefined {
  const all = elements(xml, name);
  return all.length === 0 ? undefined : decodeXml(all[0]!);
}

/**
 * Reads a ListObjectsV2 response.
 * @throws Error naming what is missing when the document is not a `ListBucketResult`.
 */
export function parseListPage(xml: string): S3ListPage {
  if (!/<ListBucketResult[\s>]/.test(xml)) throw new Error('the response is not a ListBucketResult');
  const objects: S3Object[] = [];
  for (const item of elements(xml, 'Contents')) {
    const key = first(item, 'Key');
    const size = Number(first(item, 'Size'));
    const lastModified = Date.parse(first(item, 'LastModified') ?? '');
    if (key === undefined || !Number.isSafeInteger(size) || size < 0) {
      throw new Error('a <Contents> entry has no readable <Key> or <Size>');
    }
    objects.push({ key, size, lastModified: Number.isFinite(lastModified) ? lastModified : 0 });
  }
  const prefixes: string[] = [];
  for (const p of elements(xml, 'CommonPrefixes')) {
    const prefix = first(p, 'Prefix');
    if (prefix === undefined) throw new Error('a <CommonPrefixes> entry has no <Prefix>');
    prefixes.push(prefix);
  }
  const truncated = first(xml, 'IsTruncated') === 'true';
  const nextToken = truncated ? first(xml, 'NextContinuationToken') : undefined;
  if (truncated && (nextToken === undefined || nextToken === '')) {
    throw new Error('a truncated listing has no <NextContinuationToken>');
  }
  return { objects, prefixes, nextToken };
}

/** The code and message of an S3 `<Error>` document; `undefined` when the body is not one. */
export function parseErrorBody(xml: string): S3ErrorBody | undefined {
  if (!/<Error[\s>]/.test(xml)) return undefined;
  try {
    return { code: first(xml, 'Code') ?? 'Unknown', message: first(xml, 'Message') ?? '' };
  } catch {
    return undefined;
  }
}
