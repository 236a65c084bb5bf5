/**
 * Provider base URLs: how an endpoint path is appended and how a URL is shown. What is allowed
 * is core's `baseUrlProblem` (the configuration checks it too): an absolute `http(s)` URL
 * without credentials (`user:password@`); a key belongs in `apiKey` or a header. Query parameters (`?api_key=...`, `?api-version=...`) are
 * kept and sent with every request, but their values count as secrets: they are redacted from
 * error text and shown as `[REDACTED]` wherever the URL is described.
 */
import { REDACTED, type NamedSecret } from './secret-redactor.js';

/** A checked base URL split for appending endpoint paths. */
export interface BaseUrl {
  /** Scheme, host and path, without trailing slashes, query or fragment. */
  readonly path: string;
  /** `?...` as given (with its secrets), or `''`. */
  readonly query: string;
  /** The query's parameters, each a secret. */
  readonly secrets: readonly NamedSecret[];
  /** The URL for messages and descriptions: query values replaced by `[REDACTED]`. */
  readonly display: string;
}

/** Splits an acceptable base URL (see {@link baseUrlProblem}); the fragment is dropped. */
export function splitBaseUrl(raw: string): BaseUrl {
  const noHash = raw.split('#', 1)[0] ?? raw;
  const q = noHash.indexOf('?');
  const path = (q === -1 ? noHash : noHash.slice(0, q)).replace(/\/+$/, '');
  const query = q === -1 || q === noHash.length - 1 ? '' : noHash.slice(q);
  const secrets: NamedSecret[] = [];
  const shown: string[] = [];
  for (const pair of query.slice(1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    if (value !== '') {
      secrets.push({ name, value });
      let decoded = value;
      try {
        decoded = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        // Malformed percent-encoding: the raw value is still a secret.
      }
      if (decoded !== value) secrets.push({ name, value: decoded });
    }
    shown.push(value === '' ? pair : `${name}=${REDACTED}`);
  }
  return { path, query, secrets, display: shown.length === 0 ? path : `${path}?${shown.join('&')}` };
}

/** The request URL of an endpoint: `path` appended to the base path, the base query kept. */
export function endpointUrl(base: BaseUrl, path: string): string {
  return `${base.path}${path}${base.query}`;
}

/** An endpoint's URL for messages: like {@link endpointUrl}, with the query's values shown as `[REDACTED]`. */
export function endpointDisplay(base: BaseUrl, path: string): string {
  return `${base.path}${path}${base.display.slice(base.path.length)}`;
}
