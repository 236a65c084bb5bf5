/**
 * A typed failure of one search engine, and the mapping of `WebError`s onto engine failure kinds.
 */
import { A3sError } from '@a3s-code/core';
import type { EngineFailureKind } from './search-types.js';
import { WebError } from './web-errors.js';

/** An engine attempt failed. `code` is `SEARCH_ENGINE_<KIND>`. */
export class SearchEngineError extends A3sError {
  readonly engine: string;
  readonly kind: EngineFailureKind;
  /** The server's `Retry-After`, in ms. */
  readonly retryAfterMs: number | undefined;
  constructor(engine: string, kind: EngineFailureKind, message: string, retryAfterMs?: number, cause?: unknown) {
    super(`SEARCH_ENGINE_${kind.toUpperCase()}`, `${engine}: ${message}`, {
      details: { engine, kind, ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }) },
      ...(cause === undefined ? {} : { cause }),
    });
    this.engine = engine;
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Turns whatever an engine threw into a {@link SearchEngineError}. */
export function toEngineError(engine: string, error: unknown): SearchEngineError {
  if (error instanceof SearchEngineError) return error;
  if (error instanceof WebError) {
    const s = error.status;
    const kind: EngineFailureKind =
      s === 401 || s === 403 ? 'permission' : s === 402 ? 'quota' : error.kind === 'invalid' ? 'parse' : error.kind;
    return new SearchEngineError(engine, kind, error.message, error.retryAfterMs, error);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SearchEngineError(engine, 'parse', message, undefined, error);
}
