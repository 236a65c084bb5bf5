import { describe, expect, it, vi } from 'vitest';
import { RecordingEventSink, ScriptedLlmClient } from '../testing/index.js';
import { collectResponse } from './collect-response.js';
import { GovernedLlmClient, type LlmGovernance } from './governed-llm-client.js';
import { LlmBudget } from './llm-budget.js';
import type { LlmClient, LlmRequest, LlmStreamEvent } from './llm-client.js';
import { LlmError } from './llm-error.js';

const req: LlmRequest = { system: [], messages: [{ role: 'user', content: 'hi' }], tools: [] };
function governed(inner: LlmClient, g: Partial<LlmGovernance> = {}) {
  const events = new RecordingEventSink();
  const controller = new AbortController();
  const client = new GovernedLlmClient(inner, { signal: controller.signal, events, ...g });
  return { client, events, controller };
}
const usage = (n: number) => ({ input_tokens: n, output_tokens: 0 });

describe('GovernedLlmClient (the LLM invoker)', () => {
  it('LLM-02/LLM-06: a hard call cap refuses the next call before the provider sees it', async () => {
    const inner = new ScriptedLlmClient([{ text: 'a' }, { text: 'b' }]);
    const { client } = governed(inner, { budget: new LlmBudget({ maxCalls: 1 }) });
    await collectResponse(client.stream(req));
    await expect(collectResponse(client.stream(req))).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(inner.requests).toHaveLength(1);
  });

  it('LLM-03/LLM-07: usage is recorded after each call; a soft token cap emits budget_threshold_hit once, a hard one stops', async () => {
    const inner = new ScriptedLlmClient([
      { text: 'a', usage: usage(60) },
      { text: 'b', usage: usage(60) },
      { text: 'c', usage: usage(60) },
    ]);
    const budget = new LlmBudget({ softTokens: 50, maxTokens: 100 });
    const seen: number[] = [];
    const { client, events } = governed(inner, { budget, onUsage: (u) => seen.push(u.inputTokens) });
    await collectResponse(client.stream(req));
    await collectResponse(client.stream(req));
    expect(seen).toEqual([60, 60]);
    expect(events.events.filter((e) => e.kind === 'budgetThresholdHit').map((e) => e.payload)).toEqual([
      { budget: 'llm_tokens', used: 60, limit: 50 },
    ]);
    await expect(collectResponse(client.stream(req))).rejects.toThrow(/budget 'llm_tokens' exhausted: 120 of 100 used/);
    expect(inner.requests).toHaveLength(2);
  });

  it('LLM-02: a cancelled run makes no provider call', async () => {
    const inner = new ScriptedLlmClient([{ text: 'a' }]);
    const { client, controller } = governed(inner);
    controller.abort('stop');
    await expect(collectResponse(client.stream(req))).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(inner.requests).toHaveLength(0);
  });

  it('a client that ignores the signal is not waited for: the call ends CANCELLED at once and its stream is asked to stop', async () => {
    let stopped = false;
    let pending: (() => void) | undefined;
    const inner: LlmClient = {
      provider: 'deaf',
      model: 'm',
      capabilities: new ScriptedLlmClient([]).capabilities,
      async *stream() {
        try {
          yield { type: 'text_delta', delta: 'a' };
          // Never settles by itself, whatever the signal says.
          await new Promise<void>((r) => (pending = r));
          yield { type: 'text_delta', delta: 'b' };
        } finally {
          stopped = true;
        }
      },
    };
    const { client, controller } = governed(inner);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of client.stream(req)) if (ev.type === 'text_delta') seen.push(ev.delta);
    })();
    await vi.waitFor(() => expect(pending).toBeDefined());
    controller.abort('stop');
    await expect(reading).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(seen).toEqual(['a']);
    // The abandoned generator stops at its next step; nothing more reaches the reader.
    pending!();
    await vi.waitFor(() => expect(stopped).toBe(true));
    expect(seen).toEqual(['a']);
  }, 5_000);

  it('a rate limit asking for a longer wait than maxDelayMs is reported at once, not retried sooner', async () => {
    const inner = new ScriptedLlmClient([
      { error: { kind: 'rate_limited', retry_after_ms: 86_400_000 } },
      { text: 'ok' },
    ]);
    const waits: number[] = [];
    const { client } = governed(inner, { sleep: async (ms) => void waits.push(ms), retry: { maxDelayMs: 30_000 } });
    await expect(collectResponse(client.stream(req))).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 86_400_000,
    });
    expect(waits).toEqual([]);
    expect(inner.requests).toHaveLength(1);
  });

  it('LLM-03: an untrusted client with negative or fractional usage is recorded as safe counts', async () => {
    const inner: LlmClient = {
      provider: 'hostile',
      model: 'm',
      capabilities: new ScriptedLlmClient([]).capabilities,
      async *stream() {
        yield { type: 'text_delta', delta: 'hi' } satisfies LlmStreamEvent;
        yield { type: 'usage', usage: { inputTokens: -100, outputTokens: 2.4, cachedInputTokens: Number.NaN } };
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const seen: unknown[] = [];
    const { client } = governed(inner, { budget: new LlmBudget({ maxTokens: 10 }), onUsage: (u) => seen.push(u) });
    const response = await collectResponse(client.stream(req));
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 2 });
    expect(seen).toEqual([{ inputTokens: 0, outputTokens: 2 }]);
  });

  it('retries a rate limit after retry_after_ms, a bounded number of times', async () => {
    const inner = new ScriptedLlmClient([{ error: { kind: 'rate_limited', retry_after_ms: 40 } }, { text: 'ok' }]);
    const waits: number[] = [];
    const { client } = governed(inner, { sleep: async (ms) => void waits.push(ms) });
    expect((await collectResponse(client.stream(req))).text).toBe('ok');
    expect(waits).toEqual([40]);
    const failing = new ScriptedLlmClient(Array.from({ length: 5 }, () => ({ error: { kind: 'transport' as const } })));
    const g2 = governed(failing, { retry: { maxRetries: 2, baseDelayMs: 10 }, sleep: async () => undefined });
    await expect(collectResponse(g2.client.stream(req))).rejects.toMatchObject({ code: 'LLM_TRANSPORT' });
    expect(failing.requests).toHaveLength(3);
  });

  it('announces each retry (model_retry: the failed attempt, the wait, why), never the last failure', async () => {
    const failing = new ScriptedLlmClient(Array.from({ length: 5 }, () => ({ error: { kind: 'transport' as const } })));
    const { client, events } = governed(failing, {
      retry: { maxRetries: 2, baseDelayMs: 10 },
      sleep: async () => undefined,
    });
    await expect(collectResponse(client.stream(req))).rejects.toMatchObject({ code: 'LLM_TRANSPORT' });
    const retries = events.payloads('modelRetry');
    expect(retries.map((r) => [r.attempt, r.max_attempts, r.delay_ms, r.code])).toEqual([
      [1, 3, 10, 'LLM_TRANSPORT'],
      [2, 3, 20, 'LLM_TRANSPORT'],
    ]);
    expect(retries[0]!.message).toMatch(/\S/);
    const once = governed(new ScriptedLlmClient([{ text: 'ok' }]));
    await collectResponse(once.client.stream(req));
    expect(once.events.payloads('modelRetry')).toEqual([]);
  });

  it('a model client whose stream() returns no async iterable fails naming the contract', async () => {
    for (const [value, got] of [
      [42, 'number'],
      [Promise.resolve([]), 'a promise'],
      [null, 'null'],
    ] as const) {
      const inner = { provider: 'custom', model: 'm', capabilities: {}, stream: () => value } as unknown as LlmClient;
      const { client } = governed(inner);
      const e = await collectResponse(client.stream(req)).catch((x: unknown) => x);
      expect(e).toMatchObject({ kind: 'invalid_response' });
      expect(String((e as Error).message)).toBe(
        `custom: the model client's stream(request) returned ${got}; it must return an async iterable of stream events (an async generator)`,
      );
    }
  });

  it('waits for real between attempts and honours the delay', async () => {
    const inner = new ScriptedLlmClient([{ error: { kind: 'rate_limited', retry_after_ms: 60 } }, { text: 'ok' }]);
    const { client } = governed(inner);
    const t0 = Date.now();
    await collectResponse(client.stream(req));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it('never retries a non-retryable status or a response that already delivered output', async () => {
    const bad = new ScriptedLlmClient([{ error: { kind: 'status', status: 400 } }, { text: 'unused' }]);
    await expect(collectResponse(governed(bad).client.stream(req))).rejects.toMatchObject({
      code: 'LLM_STATUS',
      status: 400,
    });
    expect(bad.requests).toHaveLength(1);
    let calls = 0;
    const midStream: LlmClient = {
      provider: 'test',
      model: 'm',
      capabilities: bad.capabilities,
      async *stream(): AsyncIterable<LlmStreamEvent> {
        calls++;
        yield { type: 'text_delta', delta: 'partial' };
        throw new LlmError('transport', 'connection reset', { provider: 'test' });
      },
    };
    await expect(
      collectResponse(governed(midStream, { sleep: async () => undefined }).client.stream(req)),
    ).rejects.toMatchObject({ code: 'LLM_TRANSPORT' });
    expect(calls).toBe(1);
  });

  it('LLM-02/LLM-04: interrupting during a backoff wait cancels the call', async () => {
    const inner = new ScriptedLlmClient([{ error: { kind: 'rate_limited', retry_after_ms: 5000 } }, { text: 'ok' }]);
    const { client, controller } = governed(inner);
    setTimeout(() => controller.abort('user'), 30);
    const t0 = Date.now();
    await expect(collectResponse(client.stream(req))).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('rejects bad budget limits naming the field', () => {
    expect(() => new LlmBudget({ maxTokens: 0 })).toThrow(/budget.maxTokens: must be an integer from 1/);
    expect(() => new LlmBudget({ maxCalls: 2, softCalls: 5 })).toThrow(/budget.softCalls/);
  });
});
