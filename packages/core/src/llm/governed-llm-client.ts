/**
 * The LLM invoker: the one boundary every provider call of a run passes — turns,
 * compaction, `generate_object` and its repair, sub-agents. It implements `LlmClient` itself, so
 * whatever takes a client can be handed the governed one. Before each call: cancellation and the
 * hard budget caps (`BUDGET_EXHAUSTED`, never an ungoverned fallback), with the calls in flight
 * counted against the token cap (a call they could push past it waits for one to end). During it: a cancel ends
 * the call at once (`CANCELLED`; a response whose `finish` came just ends) even when the client
 * keeps streaming, since a host's own client may not watch `request.signal`. After: usage recorded,
 * `budget_threshold_hit` on a soft cap. Typed, retryable failures are retried a bounded number of
 * times, honouring `retry_after_ms`, but only while nothing of the response has been delivered;
 * each retry is announced (`model_retry`), so a caller sees why nothing arrives meanwhile.
 */
import { BudgetExhaustedError, CancelledError } from '../errors/tool-errors.js';
import type { EventSink } from '../events/agent-event.js';
import { linkSignals } from '../invoker/link-signals.js';
import type {
  LlmCallObserver,
  LlmCapabilities,
  LlmClient,
  LlmForkIdentity,
  LlmRequest,
  LlmRetryNotice,
  LlmStreamEvent,
  LlmUsage,
} from './llm-client.js';
import type { LlmBudget } from './llm-budget.js';
import { abortableSleep } from './abortable-sleep.js';
import { untilAborted } from './abortable-stream.js';
import { LlmError } from './llm-error.js';
import { normalizeUsage } from './usage-count.js';

/** Retry settings of the LLM invoker. */
export interface LlmRetryOptions {
  /** Extra attempts after the first, `0..10`. Default 2. */
  readonly maxRetries?: number;
  /** First backoff when the provider gave no `retry_after_ms`, in ms, `0..600000`. Default 250. */
  readonly baseDelayMs?: number;
  /** Longest wait between attempts, in ms, `0..3600000`. Default 30000. A provider's longer `retry_after_ms` ends the retries. */
  readonly maxDelayMs?: number;
}

/** What the invoker governs with: the run's signal, events and budget. */
export interface LlmGovernance {
  /** The run's cancellation; merged with each request's own signal. */
  readonly signal: AbortSignal;
  readonly events: EventSink;
  readonly budget?: LlmBudget;
  readonly retry?: LlmRetryOptions;
  /** Called with each call's usage (e.g. to sum a run's usage). */
  readonly onUsage?: (usage: LlmUsage) => void;
  /** Waits `ms` (or rejects when `signal` aborts). Default: a timer. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A client whose every call is governed; see the module comment. */
export class GovernedLlmClient implements LlmClient {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_GovernedLlmClient`; people read `GovernedLlmClient`.
    Object.defineProperty(this, 'name', { value: 'GovernedLlmClient' });
  }
  readonly provider: string;
  readonly model: string;
  readonly capabilities: LlmCapabilities;
  /**
   * A fork of the inner client under the same governance (signal, budget, events), present only
   * when the inner client can fork.
   */
  readonly fork?: (identity: LlmForkIdentity) => LlmClient;

  constructor(
    private readonly inner: LlmClient,
    private readonly governance: LlmGovernance,
  ) {
    this.provider = inner.provider;
    this.model = inner.model;
    this.capabilities = inner.capabilities;
    if (typeof inner.fork === 'function')
      this.fork = (identity) => new GovernedLlmClient(inner.fork!(identity), governance);
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    const g = this.governance;
    const linked = linkSignals(request.signal ? [g.signal, request.signal] : [g.signal]);
    const signal = linked.signal;
    const maxRetries = g.retry?.maxRetries ?? 2;
    try {
      for (let attempt = 0; ; attempt++) {
        if (signal.aborted) throw new CancelledError('model call', signal.reason);
        const admission = await g.budget?.admit(signal, expectedTokens(request)).catch(() => {
          throw new CancelledError('model call', signal.reason);
        });
        if (admission?.admitted === false) {
          const { budget, used, limit } = admission.exhausted;
          throw new BudgetExhaustedError(budget, used, limit);
        }
        if (admission?.soft) g.events.emit({ kind: 'budgetThresholdHit', payload: { ...admission.soft } });
        let delivered = false;
        let finished = false;
        // The tokens this attempt reported: the call's place in flight ends with them.
        let tokens: number | undefined;
        try {
          // Raced against the signal: a client that does not stop on it is not waited for (a
          // response whose `finish` came is whole, and ends there; any other is cancelled).
          const events = untilAborted(
            iterable(this.inner.stream({ ...request, signal }, this.observer), this.provider),
            signal,
            () => new CancelledError('model call', signal.reason),
            () => finished,
          );
          for await (const raw of events) {
            // The inner client is untrusted: its counts are checked before they are counted.
            const ev: LlmStreamEvent = raw.type === 'usage' ? { type: 'usage', usage: normalizeUsage(raw.usage) } : raw;
            if (ev.type === 'usage') {
              this.recordUsage(ev.usage);
              tokens = (tokens ?? 0) + ev.usage.inputTokens + ev.usage.outputTokens;
            }
            if (ev.type === 'finish') {
              finished = true;
              // Counted and done: calls waiting for room need not wait for the consumer to read on.
              if (tokens !== undefined) admission?.release(tokens);
            }
            delivered = true;
            yield ev;
          }
          return;
        } catch (e) {
          admission?.release(tokens);
          if (signal.aborted) throw new CancelledError('model call', signal.reason);
          // A client that retried on its own and gave up is not retried again (no 3 × 3 requests).
          if (delivered || !LlmError.isLlmError(e) || !e.retryable || attempt >= maxRetries || (e.attempts ?? 1) > 1)
            throw e;
          const delay = this.delayFor(e, attempt);
          // A provider that asks for a longer wait than the ceiling is not asked again sooner: reported.
          if (delay === undefined) throw e;
          this.announce({ attempt: attempt + 1, maxAttempts: maxRetries + 1, delayMs: delay, error: e });
          await (g.sleep ?? sleep)(delay, signal).catch(() => {
            throw new CancelledError('model call', signal.reason);
          });
        } finally {
          // Also when the consumer stops reading (`return()`): the call is no longer in flight.
          admission?.release(tokens);
        }
      }
    } finally {
      linked.dispose();
    }
  }

  /** Hears the inner client's own retries: each is announced as this client's are. */
  private readonly observer: LlmCallObserver = { retrying: (notice) => this.announce(notice) };

  private announce(n: LlmRetryNotice): void {
    this.governance.events.emit({
      kind: 'modelRetry',
      payload: {
        attempt: n.attempt,
        max_attempts: n.maxAttempts,
        delay_ms: n.delayMs,
        code: n.error.code,
        message: n.error.message,
      },
    });
  }

  private recordUsage(usage: LlmUsage): void {
    this.governance.onUsage?.(usage);
    const soft = this.governance.budget?.record(usage);
    if (soft) this.governance.events.emit({ kind: 'budgetThresholdHit', payload: { ...soft } });
  }

  /** The wait before the next attempt, or `undefined` when the provider asked for more than `maxDelayMs`. */
  private delayFor(e: LlmError, attempt: number): number | undefined {
    const r = this.governance.retry ?? {};
    const max = r.maxDelayMs ?? 30_000;
    if (e.retryAfterMs !== undefined && e.retryAfterMs > max) return undefined;
    const wanted = e.retryAfterMs ?? (r.baseDelayMs ?? 250) * 2 ** attempt;
    return Math.min(max, Math.max(0, wanted));
  }
}

/**
 * What a request is expected to use, roughly: 4 characters a token of what it sends (system,
 * messages, tool calls, tool schemas), plus the output it allows when it names a bound.
 */
function expectedTokens(request: LlmRequest): number {
  try {
    let chars = 0;
    for (const s of request.system) chars += s.length;
    for (const m of request.messages) {
      chars += m.content.length;
      if (m.role === 'assistant')
        for (const c of m.toolCalls ?? []) chars += c.name.length + (JSON.stringify(c.args)?.length ?? 0);
    }
    chars += JSON.stringify(request.tools)?.length ?? 0;
    return Math.ceil(chars / 4) + (request.maxOutputTokens ?? 0);
  } catch {
    // A request that cannot be measured (a cyclic argument): expected as the calls before it were.
    return 0;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return abortableSleep(ms, signal, () => signal.reason);
}

/**
 * What a model client's `stream()` returned, checked: a host's own client that returns something
 * else (a promise, a number) fails naming the contract, not with a JavaScript iteration error.
 */
function iterable(stream: unknown, provider: string): AsyncIterable<LlmStreamEvent> | Iterable<LlmStreamEvent> {
  const s = stream as Partial<AsyncIterable<LlmStreamEvent> & Iterable<LlmStreamEvent>> | null | undefined;
  // An array of events (a sync iterable) is read as `for await` always read it.
  if (
    typeof s?.[Symbol.asyncIterator] === 'function' ||
    (typeof s?.[Symbol.iterator] === 'function' && typeof s !== 'string')
  )
    return s as AsyncIterable<LlmStreamEvent> | Iterable<LlmStreamEvent>;
  const got =
    stream === null ? 'null' : typeof (stream as { then?: unknown })?.then === 'function' ? 'a promise' : typeof stream;
  throw new LlmError(
    'invalid_response',
    `${provider}: the model client's stream(request) returned ${got}; it must return an async iterable of stream events (an async generator)`,
    { provider },
  );
}
