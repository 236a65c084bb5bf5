/**
 * Typed failures of provider HTTP calls: I/O failures are `transport`, a deadline is `timeout`,
 * and a non-2xx answer takes the kind core's `kindForStatus` gives its status (429 with the
 * parsed `Retry-After`). The decision is made from the status and headers only, never from the
 * body text; the body only supplies the (redacted, cut) message and the provider's code.
 */
import { kindForStatus, LlmError, retryAfterFromHeaders, type LlmRequest } from '@a3s-code/core';
import type { Redactor } from './secret-redactor.js';

/** The longest provider message copied into an error, in characters. */
export const MAX_PROVIDER_MESSAGE = 500;

/** The longest provider error code or type copied into an error, in characters. */
export const MAX_PROVIDER_CODE = 100;

/** Extracts `{error: {message, type, code}}` (OpenAI and Anthropic shapes) from a body. */
export function providerErrorFields(body: unknown): { message?: string; code?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const err = (body as { error?: unknown }).error;
  if (typeof err === 'string') return { message: err };
  if (typeof err !== 'object' || err === null) return {};
  const e = err as { message?: unknown; type?: unknown; code?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined;
  return {
    ...(typeof e.message === 'string' ? { message: e.message } : {}),
    ...(code === undefined ? {} : { code }),
  };
}

/** What {@link errorFromResponse} needs besides the response. */
export interface ErrorContext {
  readonly provider: string;
  /** Scrubs the configured credentials from every message. */
  readonly redactor: Redactor;
  readonly nowMs?: number;
  /** Images the request carried: a refusal (4xx) then says so, since the model may not take images. */
  readonly images?: number;
  /** The model asked for: a 404 names it. */
  readonly model?: string;
  /** The endpoint called, for display (secrets in its query shown as `[REDACTED]`). */
  readonly endpoint?: string;
  /** The base URL the endpoint is under, for display (as {@link endpoint}): a refused connection names it. */
  readonly baseUrl?: string;
  /** Whether an API key was sent, and where it came from: a 401/403 says so. */
  readonly apiKey?: { readonly sent: boolean; readonly source?: string };
}

/** How many images the messages of `request` carry. */
export function imagesIn(request: LlmRequest): number {
  let n = 0;
  for (const m of request.messages) if (m.role === 'user') n += m.images?.length ?? 0;
  return n;
}

/** Builds the typed error for a non-2xx response whose body text has been read. */
export function errorFromResponse(status: number, headers: Headers, bodyText: string, ctx: ErrorContext): LlmError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const fields = providerErrorFields(parsed);
  const detail = fields.message ?? plainText(bodyText);
  // Redact the whole text first, then cut: a secret straddling the cut must not leave its head.
  const shown = ctx.redactor.redactAndCut(detail, MAX_PROVIDER_MESSAGE);
  const providerCode =
    fields.code === undefined ? undefined : ctx.redactor.redactAndCut(fields.code, MAX_PROVIDER_CODE);
  // A used-up quota comes as a 429 too, but it is a billing state that no retry fixes.
  const quota = status === 429 && fields.code === 'insufficient_quota';
  const kind = kindForStatus(status);
  const retryAfterMs = kind === 'rate_limited' ? retryAfterFromHeaders(headers, ctx.nowMs) : undefined;
  const images = ctx.images ?? 0;
  const hint =
    (quota
      ? " (the account's quota is used up: no retry helps until the plan or billing at the provider allows more)"
      : statusHint(status, ctx, retryAfterMs, headers)) +
    (kind === 'status' && status < 500 && images > 0
      ? ` (the request carried ${images} image${images === 1 ? '' : 's'}: the model may not accept image input)`
      : '');
  return new LlmError(kind, `${ctx.provider}: HTTP ${status}${shown ? `: ${shown}` : ''}${hint}`, {
    provider: ctx.provider,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(providerCode === undefined ? {} : { providerCode }),
  });
}

/** What a status means for the caller, beyond the provider's own words. */
function statusHint(status: number, ctx: ErrorContext, retryAfterMs: number | undefined, headers: Headers): string {
  if (status >= 300 && status < 400) {
    const location = headers.get('location');
    const to = location === null ? '' : ` to ${ctx.redactor.redactAndCut(location, 300)}`;
    return (
      ` (the endpoint redirected${to}; redirects are not followed, so the API key and the request are` +
      ' never sent to another address: set the base URL to where the API now is)'
    );
  }
  if (status === 401 || status === 403) {
    const key = ctx.apiKey;
    if (key === undefined) return '';
    const from = key.source === undefined ? '' : ` from ${key.source}`;
    const what = status === 401 ? 'was not accepted' : 'is not allowed to use this model or endpoint';
    if (!key.sent)
      return ` (no API key was sent${key.source === undefined ? '' : `; set ${key.source}`}: the endpoint requires one)`;
    return ` (the API key${from} ${what}: check the key and the base URL)`;
  }
  if (status === 404 && ctx.model !== undefined) {
    const at = ctx.endpoint === undefined ? '' : ` at ${ctx.endpoint}`;
    return ` (model '${ctx.model}'${at}: check the model name and the base URL)`;
  }
  if (status === 429 && retryAfterMs !== undefined && retryAfterMs >= 1000)
    return ` (the provider asked to wait ${Math.ceil(retryAfterMs / 1000)} s before retrying)`;
  return '';
}

/** An error body shown as text: an HTML page's tags and scripts removed, whitespace collapsed. */
export function plainText(body: string): string {
  const text = body.trim();
  if (!text.startsWith('<')) return text;
  return text
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The `invalid_response` error of a 2xx body that is not what was asked for (e.g. a proxy's HTML
 * page): it names the endpoint and the content type and quotes the body's head as plain text.
 */
export function unreadableBody(res: Response, text: string, ctx: ErrorContext, what: string): LlmError {
  const type = ctx.redactor.redactAndCut(res.headers.get('content-type') ?? 'none', MAX_PROVIDER_CODE);
  const shown = ctx.redactor.redactAndCut(plainText(text).replace(/\s+/g, ' '), 200);
  const where = ctx.endpoint === undefined ? '' : ` from ${ctx.endpoint}`;
  return new LlmError(
    'invalid_response',
    `${ctx.provider}: the HTTP ${res.status} answer${where} is ${what} (content-type: ${type})` +
      `${shown ? `: ${shown}` : ''}; ${CHECK_BASE_URL}`,
    { provider: ctx.provider, status: res.status },
  );
}

/** The hint of an answer that is not the API's: another server may be at the configured URL. */
const CHECK_BASE_URL = 'check the base URL (a proxy, a login page or another server may have answered)';

/**
 * The `invalid_response` error of a 2xx JSON body that is not an answer of the API (`{"hello":
 * "world"}` from another server at the base URL): it names the endpoint, what is missing and the
 * body's top-level keys, and says to check the base URL.
 */
export function notAnAnswer(ctx: ErrorContext, status: number, what: string, body: unknown): LlmError {
  const where = ctx.endpoint === undefined ? '' : ` from ${ctx.endpoint}`;
  const shape =
    Array.isArray(body) || typeof body !== 'object' || body === null
      ? ` (${Array.isArray(body) ? 'an array' : body === null ? 'null' : `a ${typeof body}`})`
      : ` (its keys: ${ctx.redactor.redactAndCut(Object.keys(body).join(', ') || 'none', 200)})`;
  return new LlmError(
    'invalid_response',
    `${ctx.provider}: the HTTP ${status} answer${where} ${what}${shape}; ${CHECK_BASE_URL}`,
    { provider: ctx.provider, status },
  );
}

/** Why an internal abort fired, so the error kind can be told apart from the caller's cancel. */
export type AbortCause = 'cancelled' | 'timeout';

/**
 * Maps a thrown fetch or body-read failure to a typed error: the caller's abort is `cancelled`,
 * a deadline is `timeout`, anything else is `transport`. The cause is re-created from the
 * scrubbed message so no secret survives in it. `timeoutNote` says which deadline fired.
 */
export function errorFromFailure(
  e: unknown,
  cause: AbortCause | undefined,
  what: string,
  ctx: ErrorContext,
  timeoutNote?: string,
): LlmError {
  if (LlmError.isLlmError(e)) return e;
  const raw = e instanceof Error ? `${e.message}${causeMessage(e)}` : String(e);
  const message = ctx.redactor.redactAndCut(raw, MAX_PROVIDER_MESSAGE);
  if (cause === 'cancelled')
    return new LlmError('cancelled', `${ctx.provider}: ${what} was cancelled`, { provider: ctx.provider });
  if (cause === 'timeout')
    return new LlmError('timeout', `${ctx.provider}: ${what} timed out${timeoutNote ? ` (${timeoutNote})` : ''}`, {
      provider: ctx.provider,
    });
  const failure = systemFailure(e);
  const permanent = failure.code !== undefined ? isPermanentCode(failure.code) : failure.any && onBadPort(ctx);
  // A connection nobody accepted, or a host name that does not resolve, names the base URL it was
  // for, so the person sees what to change.
  const named = failure.code === 'ECONNREFUSED' || failure.code === 'ENOTFOUND';
  const where = named && ctx.baseUrl !== undefined ? `; the base URL is ${ctx.baseUrl}` : '';
  return new LlmError('transport', `${ctx.provider}: ${what} failed: ${message}${where}`, {
    provider: ctx.provider,
    ...(permanent ? { permanent: true } : {}),
    cause: new Error(message),
  });
}

/**
 * The system error code of a fetch failure (`ENOTFOUND`, `ECONNREFUSED`, `ERR_INVALID_URL`,
 * `CERT_HAS_EXPIRED`, …: on the error or its `cause`), and whether it is a fetch failure with a
 * cause at all (`any`; fetch's refusal of a port carries a cause with no code).
 */
function systemFailure(e: unknown): { readonly code: string | undefined; readonly any: boolean } {
  const codeOf = (v: unknown): string | undefined => {
    const code = (v as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' ? code : undefined;
  };
  const cause = (e as { cause?: unknown } | null | undefined)?.cause;
  return { code: codeOf(cause) ?? codeOf(e), any: cause instanceof Error };
}

/**
 * Codes of failures the same request meets again however often it is tried: the host name does
 * not resolve (`ENOTFOUND`: NXDOMAIN; a failing resolver is `EAI_AGAIN`, which may pass), the URL
 * is not one, or the server's certificate is refused (expired, self-signed, for another name).
 */
function isPermanentCode(code: string): boolean {
  return (
    code === 'ENOTFOUND' ||
    code === 'ERR_INVALID_URL' ||
    code === 'ERR_TLS_CERT_ALTNAME_INVALID' ||
    /^(?:CERT_|UNABLE_TO_(?:GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE|DECRYPT_CERT_SIGNATURE)|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|ERR_SSL_)/.test(
      code,
    )
  );
}

/**
 * The ports the Fetch standard blocks ("bad ports": those of other protocols). fetch refuses a URL
 * on one before connecting, with a cause that has no system code.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Whether the call's URL is on a port fetch never calls (see {@link BAD_PORTS}). */
function onBadPort(ctx: ErrorContext): boolean {
  const url = ctx.endpoint ?? ctx.baseUrl;
  if (url === undefined) return false;
  try {
    const port = new URL(url).port;
    return port !== '' && BAD_PORTS.has(Number(port));
  } catch {
    return false;
  }
}

function causeMessage(e: Error): string {
  const c = (e as { cause?: unknown }).cause;
  return c instanceof Error && c.message ? ` (${c.message})` : '';
}
