/**
 * Scrubbing configured credentials from provider error text.
 *
 * Every configured credential is a secret: the API key, the value of every configured request
 * header (whatever its name), and every query value of the base URL. The rules:
 *
 * - A value of at least {@link MIN_LITERAL_SECRET_LENGTH} characters (the API key: at least
 *   {@link MIN_LITERAL_KEY_LENGTH}) is replaced wherever it appears, as given and in its JSON-escaped
 *   and percent-encoded forms; `Bearer <token>`-style values and each cookie of a `Cookie` value
 *   also count on their own.
 * - A shorter value (a header such as `X-Flag: abc`) is replaced only where it appears as that
 *   header's or parameter's value (`x-flag: abc`, `"x-flag":"abc"`, `x-flag=abc`), so a common
 *   short word is not shredded out of every message.
 * - A text that starts with the tail or ends with the head of a secret (at least
 *   {@link MIN_PARTIAL_SECRET_LENGTH} characters), as a text cut short by the provider or by us
 *   does, has that fragment replaced too.
 *
 * {@link Redactor.redactAndCut} redacts the whole text first and cuts after, so a secret that
 * straddles the cut can never leave its head behind.
 */

/** What replaces a secret in error text. */
export const REDACTED = '[REDACTED]';

/** Header and query values at least this long are redacted wherever they appear. */
export const MIN_LITERAL_SECRET_LENGTH = 8;

/** The API key is redacted wherever it appears when at least this long (it is a credential by definition). */
export const MIN_LITERAL_KEY_LENGTH = 4;

/** The shortest head or tail of a secret removed at a text's edges. */
export const MIN_PARTIAL_SECRET_LENGTH = 4;

/** A configured value and the name it is sent under (a header or query parameter name). */
export interface NamedSecret {
  readonly name: string;
  readonly value: string;
}

/** The configured credentials of one client. */
export interface SecretSources {
  readonly apiKey?: string | undefined;
  /** Every configured request header, whatever its name. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The query parameters of the base URL (and its userinfo, if any). */
  readonly urlSecrets?: readonly NamedSecret[];
}

/** Header names the API key is sent under. */
const KEY_HEADER_NAMES = ['authorization', 'x-api-key', 'api-key', 'api_key', 'apikey'];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The forms a value may take in text: as given, JSON-escaped, percent-encoded. */
function forms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  let encoded = value;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    // A lone surrogate cannot be encoded; the value as given is still redacted.
  }
  return [...new Set([value, json, encoded])];
}

/** The parts of a header value that are credentials on their own (`Bearer <t>`, cookies). */
function parts(name: string, value: string): NamedSecret[] {
  const out: NamedSecret[] = [{ name, value }];
  const scheme = /^(?:Bearer|Basic|Token|Digest|ApiKey)\s+(.+)$/i.exec(value.trim());
  if (scheme?.[1] !== undefined) out.push({ name, value: scheme[1] });
  if (/^(?:cookie|set-cookie)$/i.test(name) || value.includes(';')) {
    for (const pair of value.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0) out.push({ name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() });
    }
  }
  return out.filter((s) => s.value !== '');
}

/**
 * The credentials among `headers`: the values of the headers a key is sent under, cookies, and
 * the token of a `Bearer`/`Basic`/`Token` value, whole and alone.
 */
export function credentialHeaderValues(headers: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers))
    if (KEY_HEADER_NAMES.includes(name.toLowerCase()) || /^(?:cookie|proxy-authorization)$/i.test(name))
      for (const p of parts(name, value)) out.push(p.value);
  return out;
}

/** Scrubs one client's configured credentials from text. Holds them in private fields only. */
export class Redactor {
  /** Values redacted anywhere, longest first. */
  readonly #literal: string[];
  /** Short values redacted only next to their name. */
  readonly #contextual: RegExp[];

  private constructor(literal: string[], contextual: RegExp[]) {
    this.#literal = literal;
    this.#contextual = contextual;
  }

  /** A redactor that changes nothing. */
  static readonly none: Redactor = new Redactor([], []);

  /** The redactor for a client's configured credentials. */
  static of(sources: SecretSources): Redactor {
    const literal = new Set<string>();
    const contextual: NamedSecret[] = [];
    const add = (s: NamedSecret, min: number) => {
      if (s.value.length >= min) for (const f of forms(s.value)) literal.add(f);
      else contextual.push(s);
    };
    const key = sources.apiKey;
    if (key !== undefined && key !== '')
      for (const name of KEY_HEADER_NAMES) add({ name, value: key }, MIN_LITERAL_KEY_LENGTH);
    for (const [name, value] of Object.entries(sources.headers ?? {}))
      for (const p of parts(name, value)) add(p, MIN_LITERAL_SECRET_LENGTH);
    for (const s of sources.urlSecrets ?? []) add(s, MIN_LITERAL_SECRET_LENGTH);
    const sep = String.raw`["']?\s*[:=]\s*\[?\s*["']?\s*(?:(?:Bearer|Basic|Token)\s+)?`;
    const patterns = contextual.map(
      (s) => new RegExp(`(^|[^A-Za-z0-9_-])(${escapeRe(s.name)}${sep})${escapeRe(s.value)}(?![A-Za-z0-9])`, 'gi'),
    );
    return new Redactor(
      [...literal].sort((a, b) => b.length - a.length),
      patterns,
    );
  }

  /** True when there is nothing to redact. */
  get empty(): boolean {
    return this.#literal.length === 0 && this.#contextual.length === 0;
  }

  /** `text` with every secret (and a secret's head or tail at either edge) replaced by {@link REDACTED}. */
  redact(text: string): string {
    if (this.empty || text === '') return text;
    let out = text;
    for (const s of this.#literal) if (out.includes(s)) out = out.split(s).join(REDACTED);
    for (const re of this.#contextual)
      out = out.replace(re, (_m, lead: string, named: string) => `${lead}${named}${REDACTED}`);
    return this.edges(out);
  }

  /**
   * Redacts the whole `text`, then cuts it to `max` characters (never inside a marker), then
   * removes a secret's head the cut may have left at the end.
   */
  redactAndCut(text: string, max: number): string {
    const whole = this.redact(text);
    if (whole.length <= max) return whole;
    let cut = whole.slice(0, max);
    const open = cut.lastIndexOf('[');
    if (
      open !== -1 &&
      open > max - REDACTED.length &&
      REDACTED.startsWith(cut.slice(open)) &&
      whole.startsWith(REDACTED, open)
    ) {
      cut = cut.slice(0, open) + REDACTED;
    }
    return `${this.edges(cut)}…`;
  }

  private edges(text: string): string {
    let out = text;
    for (const s of this.#literal) {
      for (let k = Math.min(s.length - 1, out.length); k >= MIN_PARTIAL_SECRET_LENGTH; k--) {
        if (out.endsWith(s.slice(0, k))) {
          out = out.slice(0, out.length - k) + REDACTED;
          break;
        }
      }
      for (let k = Math.min(s.length - 1, out.length); k >= MIN_PARTIAL_SECRET_LENGTH; k--) {
        if (out.startsWith(s.slice(s.length - k))) {
          out = REDACTED + out.slice(k);
          break;
        }
      }
    }
    return out;
  }
}
