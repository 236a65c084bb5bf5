/**
 * The typed failure of a provider call. Every client maps its transport and HTTP failures to one
 * of these kinds, so the LLM invoker can decide on retries without knowing the provider.
 */
import { A3sError } from '@a3s-code/effect';

/** What went wrong with a provider call. */
export type LlmErrorKind =
  /** The connection failed or broke (DNS, refused, reset, stream cut short). Retryable. */
  | 'transport'
  /** HTTP 429 or a provider's rate-limit error; `retryAfterMs` when the provider said. Retryable. */
  | 'rate_limited'
  /** No response (or no next chunk) within the deadline. Retryable. */
  | 'timeout'
  /** Any other non-success HTTP status (`status` holds it); 5xx are retryable, 4xx are not. */
  | 'status'
  /** The caller aborted the request. Never retried. */
  | 'cancelled'
  /** The response could not be understood (bad JSON, bad SSE, broken tool arguments). */
  | 'invalid_response';

/**
 * `providerCode` of the `invalid_response` error a client raises when streamed tool arguments do
 * not form one JSON object (`generate_object` repairs such a call instead of failing).
 */
export const MALFORMED_TOOL_ARGUMENTS = 'malformed_tool_arguments';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['transport', 'rate_limited', 'timeout']);

/** Options of an {@link LlmError}. */
export interface LlmErrorOptions {
  readonly provider?: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The provider's own error code or type, e.g. `insufficient_quota`. */
  readonly providerCode?: string;
  /** Requests the client made for this call before giving up, when it retried (2 or more). */
  readonly attempts?: number;
  /**
   * The failure cannot get better by trying the same request again (a host name that does not
   * resolve, a port fetch never calls, a certificate refused): never retried, whatever its kind.
   */
  readonly permanent?: boolean;
  readonly cause?: unknown;
}

/** A failed provider call. `code` is `LLM_<KIND>` (e.g. `LLM_RATE_LIMITED`), or `CANCELLED`. */
export class LlmError extends A3sError {
  readonly kind: LlmErrorKind;
  readonly provider: string | undefined;
  /** HTTP status, when there was a response. */
  readonly status: number | undefined;
  /** How long the provider asked to wait before retrying, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  readonly providerCode: string | undefined;
  /**
   * Requests the client already made for this call (it retried, then gave up), when it says so;
   * a caller that retries too should then not multiply the attempts.
   */
  readonly attempts: number | undefined;
  /** True when trying again cannot help (see {@link LlmErrorOptions.permanent}). */
  readonly permanent: boolean;

  constructor(kind: LlmErrorKind, message: string, options: LlmErrorOptions = {}) {
    super(kind === 'cancelled' ? 'CANCELLED' : `LLM_${kind.toUpperCase()}`, message, {
      cause: options.cause,
      details: {
        kind,
        provider: options.provider,
        status: options.status,
        retry_after_ms: options.retryAfterMs,
        provider_code: options.providerCode,
        ...(options.attempts === undefined ? {} : { attempts: options.attempts }),
        ...(options.permanent === true ? { permanent: true } : {}),
      },
    });
    this.kind = kind;
    this.provider = options.provider;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.providerCode = options.providerCode;
    this.attempts = options.attempts;
    this.permanent = options.permanent === true;
  }

  /**
   * True when trying the same request again may succeed (transport, rate limit, timeout, 5xx); not
   * for a used-up quota (`insufficient_quota`), which comes as a rate limit but is a billing state,
   * nor for a {@link permanent} failure.
   */
  get retryable(): boolean {
    if (this.permanent || this.providerCode === 'insufficient_quota') return false;
    return RETRYABLE.has(this.kind) || (this.kind === 'status' && this.status !== undefined && this.status >= 500);
  }

  /** True when `value` is an `LlmError` from any copy of core (brand check, then shape). */
  static isLlmError(value: unknown): value is LlmError {
    return (
      A3sError.isInstance(value) && typeof (value as { kind?: unknown }).kind === 'string' && 'retryAfterMs' in value
    );
  }
}
