import { describe, expect, it } from 'vitest';
import { RecordingEventSink, ScriptedLlmClient } from '../testing/index.js';
import { collectResponse } from './collect-response.js';
import { GovernedLlmClient } from './governed-llm-client.js';
import { LlmBudget } from './llm-budget.js';
import type { LlmClient, LlmRequest, LlmStreamEvent } from './llm-client.js';

const req: LlmRequest = { system: [], messages: [{ role: 'user', content: 'hi' }], tools: [] };

/** A provider whose every call uses `tokens` after `delayMs`, counting the calls open at once. */
function provider(tokens: number | ((request: LlmRequest) => number), delayMs = 20) {
  const seen = { served: 0, open: 0, mostOpen: 0 };
  const client: LlmClient = {
    provider: 'counting',
    model: 'm',
    capabilities: new ScriptedLlmClient([]).capabilities,
    async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
      seen.served++;
      seen.open++;
      seen.mostOpen = Math.max(seen.mostOpen, seen.open);
      try {
        await new Promise((r) => setTimeout(r, delayMs));
        yield { type: 'text_delta', delta: 'ok' };
        const used = typeof tokens === 'number' ? tokens : tokens(request);
        yield { type: 'usage', usage: { inputTokens: used, outputTokens: 0 } };
        yield { type: 'finish', reason: 'stop' };
      } finally {
        seen.open--;
      }
    },
  };
  return { client, seen };
}

function governed(inner: LlmClient, budget: LlmBudget, signal = new AbortController().signal) {
  return new GovernedLlmClient(inner, { signal, events: new RecordingEventSink(), budget });
}

async function settleAll(client: LlmClient, n: number, request: LlmRequest = req) {
  return Promise.allSettled(Array.from({ length: n }, () => collectResponse(client.stream(request))));
}

describe('LlmBudget: calls in flight count against the token cap', () => {
  it('20 calls started at once overshoot a token cap by one call at most, not by 19', async () => {
    const { client: inner, seen } = provider(1000);
    const budget = new LlmBudget({ maxTokens: 1500 });
    const results = await settleAll(governed(inner, budget), 20);
    expect(seen.served).toBe(2);
    expect(budget.used.tokens).toBe(2000);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(18);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: 'BUDGET_EXHAUSTED',
        message: "budget 'llm_tokens' exhausted: 2000 of 1500 used",
        details: { budget: 'llm_tokens', used: 2000, limit: 1500 },
      });
  });

  it('calls larger than any call so far are expected at their own size, not at the earlier calls', async () => {
    // A first small call (10 tokens), then 20 sub-agents at once whose requests are ~1000 tokens each.
    const big: LlmRequest = { ...req, system: ['x'.repeat(4000)] };
    const { client: inner, seen } = provider((r) => (r.system.length > 0 ? 1000 : 10));
    const budget = new LlmBudget({ maxTokens: 1500 });
    const client = governed(inner, budget);
    await collectResponse(client.stream(req));
    const results = await settleAll(client, 20, big);
    expect(seen.mostOpen).toBe(1);
    expect(budget.used.tokens).toBe(2010);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });

  it('calls whose usage ran past their size scale what the next ones are expected to use', async () => {
    // Requests of ~101 and ~201 tokens by their size use 5 times that (a language of short tokens).
    const ask = (chars: number): LlmRequest => ({ ...req, messages: [{ role: 'user', content: 'y'.repeat(chars) }] });
    const { client: inner, seen } = provider((r) => (r.messages[0]!.content.length > 400 ? 1000 : 500));
    const budget = new LlmBudget({ maxTokens: 4000 });
    const client = governed(inner, budget);
    await collectResponse(client.stream(ask(400)));
    // Each larger call is expected at ~996 (201 x 500/101), not at the 500 seen so far: three fit
    // beside each other, not six; then one more alone, under the cap, and the cap is reached.
    const results = await settleAll(client, 6, ask(800));
    expect(seen.mostOpen).toBe(3);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(budget.used.tokens).toBe(4500);
  });

  it('with room under the cap, calls still run side by side', async () => {
    const { client: inner, seen } = provider(1000);
    const budget = new LlmBudget({ maxTokens: 100_000 });
    const client = governed(inner, budget);
    await collectResponse(client.stream(req));
    const results = await settleAll(client, 10);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(seen.mostOpen).toBe(10);
  });

  it('near the cap only as many start as the largest call so far leaves room for; the rest wait, then are refused', async () => {
    const { client: inner, seen } = provider(1000);
    const budget = new LlmBudget({ maxTokens: 4000 });
    const client = governed(inner, budget);
    await collectResponse(client.stream(req));
    const results = await settleAll(client, 5);
    // 1000 recorded: three more calls of 1000 fit beside each other, a fourth would not; once they
    // end the cap is reached, and the waiting calls are refused.
    expect(seen.mostOpen).toBe(3);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(budget.used.tokens).toBe(4000);
  });

  it('a call waiting for room ends CANCELLED when its own signal aborts; the call in flight goes on', async () => {
    const { client: inner, seen } = provider(1000, 200);
    const budget = new LlmBudget({ maxTokens: 1500 });
    const client = governed(inner, budget);
    const first = collectResponse(client.stream(req));
    const waiting = new AbortController();
    const second = collectResponse(client.stream({ ...req, signal: waiting.signal }));
    setTimeout(() => waiting.abort('user'), 20);
    await expect(second).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(seen.served).toBe(1);
    await expect(first).resolves.toMatchObject({ text: 'ok' });
  });

  it('a consumer that holds a finished stream open does not hold up the next call', async () => {
    const { client: inner, seen } = provider(1000, 5);
    const budget = new LlmBudget({ maxTokens: 100_000 });
    const client = governed(inner, budget);
    const held = client.stream(req)[Symbol.asyncIterator]();
    for (;;) {
      const next = await held.next();
      if (next.done || next.value.type === 'finish') break;
    }
    // Never read to its end: the provider's stream is still open, but its call is counted.
    await expect(collectResponse(client.stream(req))).resolves.toMatchObject({ text: 'ok' });
    expect(seen.served).toBe(2);
    await held.return?.();
  });

  it('the call cap holds for calls started at once', async () => {
    const { client: inner, seen } = provider(10);
    const budget = new LlmBudget({ maxCalls: 3 });
    const results = await settleAll(governed(inner, budget), 10);
    expect(seen.served).toBe(3);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(7);
  });
});
