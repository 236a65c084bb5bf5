/**
 * Typed failures of the web tools. The kind is decided from typed
 * evidence only (the transport error, the status code, the deadline), never from page text.
 */
import { A3sError } from '@a3s-code/core';

/**
 * Why a web request failed: `transport` (I/O on request or body, HTTP 408, HTTP 5xx; retryable),
 * `rate_limited` (HTTP 429, with `retryAfterMs` when the server sent `Retry-After`), `timeout`
 * (the tool's deadline), `status` (any other HTTP error; not retryable), `cancelled`, `invalid`
 * (a URL or response the tool cannot use), `blocked` (the host is, or resolves to, a
 * private-network address and `allowPrivateNetwork` is off; not retryable).
 */
export type WebErrorKind = 'transport' | 'rate_limited' | 'timeout' | 'status' | 'cancelled' | 'invalid' | 'blocked';

/** Every {@link WebErrorKind}. */
export const WEB_ERROR_KINDS: readonly WebErrorKind[] = [
  'transport',
  'rate_limited',
  'timeout',
  'status',
  'cancelled',
  'invalid',
  'blocked',
];

/** What a `blocked` {@link WebError} refused. */
export interface BlockedTarget {
  /** The host of the refused hop, as written in the URL (IPv6 without brackets). */
  readonly host: string;
  /** The address that is internal (the host itself for an IP literal). */
  readonly address: string;
  /** The blocked range, e.g. `loopback (127.0.0.0/8)`. */
  readonly range: string;
  /** The option that allows it: `allowPrivateNetwork`. */
  readonly option: string;
}

/** What a {@link WebError} may carry besides its kind. */
export interface WebErrorInfo {
  /** The URL requested. */
  readonly url: string;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** Parsed `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number;
  /** With kind `blocked`: what was refused. */
  readonly blocked?: BlockedTarget;
  readonly cause?: unknown;
}

/** A failed web request. `code` is `WEB_<KIND>` (`WEB_RATE_LIMITED`, ...). */
export class WebError extends A3sError {
  readonly kind: WebErrorKind;
  /** HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** Parsed `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** `true` for `transport` and `rate_limited` (typed evidence that a retry may succeed). */
  readonly retryable: boolean;
  /** With kind `blocked`: the host, the internal address and the option that allows it. */
  readonly blocked: BlockedTarget | undefined;
  constructor(kind: WebErrorKind, message: string, info: WebErrorInfo) {
    super(`WEB_${kind.toUpperCase()}`, message, {
      details: {
        kind,
        url: info.url,
        ...(info.status === undefined ? {} : { status: info.status }),
        ...(info.retryAfterMs === undefined ? {} : { retry_after_ms: info.retryAfterMs }),
        ...(info.blocked === undefined
          ? {}
          : {
              host: info.blocked.host,
              address: info.blocked.address,
              range: info.blocked.range,
              option: info.blocked.option,
            }),
      },
      ...(info.cause === undefined ? {} : { cause: info.cause }),
    });
    this.kind = kind;
    this.status = info.status;
    this.retryAfterMs = info.retryAfterMs;
    this.retryable = kind === 'transport' || kind === 'rate_limited';
    this.blocked = info.blocked;
  }
}

/** The kind of an HTTP error status. */
export function kindOfStatus(status: number): WebErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'transport';
  return 'status';
}
