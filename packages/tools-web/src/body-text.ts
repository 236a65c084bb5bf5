/**
 * A fetched body as text. The encoding is decided in the order browsers use: a byte-order mark,
 * then the `charset` of the Content-Type (quoted or not), then, for HTML, a `<meta>` declaration
 * in the first bytes, else UTF-8; an unknown label falls back to the next source. A body declared
 * as text (or not declared at all) whose first bytes hold control bytes that text never contains
 * (NUL and the like) is binary, and is refused rather than shown as garbage.
 */

/** Bytes examined for a `<meta>` charset and for binary content. */
const SNIFF_BYTES = 1024;

const BOMS: readonly (readonly [readonly number[], string])[] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

/** The encoding `label` names (`latin1` → `windows-1252`), or `undefined` for an unknown label. */
function encodingOf(label: string | undefined): string | undefined {
  if (label === undefined || label.trim() === '') return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/** The `charset` parameter of a Content-Type value, unquoted, or `undefined`. */
export function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2] ?? m?.[3];
}

function bomOf(body: Uint8Array): { readonly encoding: string; readonly length: number } | undefined {
  for (const [bytes, encoding] of BOMS) {
    if (bytes.every((b, i) => body[i] === b)) return { encoding, length: bytes.length };
  }
  return undefined;
}

/** The charset a `<meta charset>` or `<meta http-equiv content="...; charset=...">` in `head` declares. */
function metaCharsetOf(head: string): string | undefined {
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const label = /\bcharset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(tag)?.[1];
    if (label !== undefined) return label;
  }
  return undefined;
}

/** A byte that plain text never holds (the WHATWG MIME sniffing "binary data byte"). */
const isBinaryByte = (b: number): boolean =>
  b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);

/** The text of a body and the encoding it was read with; `binary` when it is not text. */
export interface BodyText {
  readonly text: string;
  readonly encoding: string;
  /** The first bytes hold binary data bytes (only judged for non-UTF-16 bodies). */
  readonly binary: boolean;
}

/**
 * Decodes `body` served with `contentType`; `html` allows a `<meta>` declaration to name the
 * encoding (a `<meta>` naming UTF-16 means UTF-8, as in browsers).
 */
export function bodyText(body: Uint8Array, contentType: string, html: boolean): BodyText {
  const bom = bomOf(body);
  const head = body.subarray(bom?.length ?? 0, SNIFF_BYTES);
  let encoding = bom?.encoding ?? encodingOf(charsetOf(contentType));
  if (encoding === undefined && html) {
    const meta = encodingOf(metaCharsetOf(new TextDecoder('windows-1252').decode(head)));
    encoding = meta?.startsWith('utf-16') === true ? 'utf-8' : meta;
  }
  encoding ??= 'utf-8';
  const binary = !encoding.startsWith('utf-16') && head.some(isBinaryByte);
  // The decoder drops the BOM of its own encoding.
  return { text: new TextDecoder(encoding, { fatal: false }).decode(body), encoding, binary };
}
