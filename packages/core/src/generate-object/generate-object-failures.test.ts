import { describe, expect, it } from 'vitest';
import type { LlmCapabilities, LlmRequest, LlmResponse } from '../llm/llm-client.js';
import { LlmError } from '../llm/llm-error.js';
import { generateObject } from './generate-object.js';
import { createGenerateObjectTool } from './generate-object-tool.js';
import { handDriven, SENTIMENT_SCHEMA, scripted, toolContext } from './test-support/clients.js';

// generate_object under deadlines, cancellation, provider failures and streams that end oddly.

const PROMPT = '分类: "这个产品太棒了！"';
const VALID = { sentiment: 'positive', confidence: 0.95 };
type Caps = Partial<LlmCapabilities>;
const TOOL_ONLY: Caps = { forcedToolChoice: true };
const JSON_ONLY: Caps = { jsonMode: true };

describe('deadline, cancellation and provider failures (GENOBJ-04)', () => {
  it('GENOBJ-04: timeout_ms bounds generation; each request carries the remaining budget', async () => {
    const { script, client } = scripted([{ delay_ms: 3_000, text: JSON.stringify(VALID) }], {});
    const started = Date.now();
    const r = await generateObject(client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, timeout_ms: 1000 });
    expect(r).toMatchObject({ ok: false, errorKind: 'timeout' });
    // Well before the model's 3 s answer; the slack is for a loaded machine.
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(script.requests[0]!.timeoutMs).toBeLessThanOrEqual(1000);
  });

  it('GENOBJ-04: repairs run under the same deadline and never extend it', async () => {
    const bad = { delay_ms: 600, tool_calls: [{ name: 'result', args: {} }] };
    const { script, client } = scripted([bad, bad, bad], TOOL_ONLY);
    const started = Date.now();
    const r = await generateObject(client, {
      schema: SENTIMENT_SCHEMA,
      prompt: PROMPT,
      mode: 'tool',
      timeout_ms: 1000,
      max_repair_attempts: 5,
    });
    expect(r).toMatchObject({ ok: false, errorKind: 'timeout' });
    // Three answers of 600 ms would take 1.8 s; the slack is for a loaded machine.
    expect(Date.now() - started).toBeLessThan(1_750);
    expect(script.requests).toHaveLength(2);
    expect(script.requests[1]!.timeoutMs).toBeLessThan(500);
  });

  it("the caller's signal cancels generation", async () => {
    const { client } = scripted([{ delay_ms: 5_000, text: '{}' }], {});
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const r = await generateObject(client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT }, { signal: ac.signal });
    expect(r).toMatchObject({ ok: false, errorKind: 'cancelled' });
  });

  it('a typed provider failure is reported with its kind and a non-zero exit code', async () => {
    const tool = createGenerateObjectTool(scripted([{ error: { kind: 'rate_limited', retry_after_ms: 20 } }]).client);
    const res = await tool.execute({ schema: SENTIMENT_SCHEMA, prompt: PROMPT } as never, toolContext().ctx);
    expect(res.exitCode).toBe(1);
    expect(JSON.parse(res.output).error.kind).toBe('rate_limited');
  });

  it('without a configured model the tool fails with no_model', async () => {
    const tool = createGenerateObjectTool(() => undefined);
    const res = await tool.execute({ schema: SENTIMENT_SCHEMA, prompt: PROMPT } as never, toolContext().ctx);
    expect(res).toMatchObject({ exitCode: 1, metadata: { error_kind: 'no_model' } });
  });
});

describe('streamed values (GENOBJ-21, 22)', () => {
  const text = JSON.stringify(VALID);
  async function* deltas(pieces: string[], end: 'finish' | 'none' | 'cut') {
    for (const p of pieces) yield { type: 'text_delta' as const, delta: p };
    if (end === 'cut') throw new LlmError('transport', 'connection reset');
    if (end === 'finish') yield { type: 'finish' as const, reason: 'stop' as const };
  }
  /** A non-streaming call that answers the valid value, counting `tokens` each way. */
  const completes =
    (tokens = 0) =>
    async (): Promise<LlmResponse> => ({
      text,
      reasoning: '',
      toolCalls: [],
      usage: { inputTokens: tokens, outputTokens: tokens },
      finishReason: 'stop',
    });

  it('GENOBJ-21: accepts a complete valid value from an endpoint that never sends a final event', async () => {
    const { client } = handDriven(() => deltas([text.slice(0, 9), text.slice(9)], 'none'), JSON_ONLY);
    expect(await generateObject(client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'json' })).toMatchObject({
      ok: true,
      object: VALID,
    });
  });

  it('GENOBJ-21: a stream cut after a complete valid value is accepted; cut inside the value it fails typed', async () => {
    const whole = handDriven(() => deltas([text], 'cut'), JSON_ONLY);
    expect(
      await generateObject(whole.client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'json' }),
    ).toMatchObject({ ok: true, object: VALID });
    const half = handDriven(() => deltas([text.slice(0, 20)], 'cut'), JSON_ONLY);
    const r = await generateObject(half.client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'json' });
    expect(r).toMatchObject({ ok: false, errorKind: 'transport' });
    expect(JSON.stringify(r)).not.toContain('"object"');
  });

  it('GENOBJ-22: a distinct non-streaming transport is tried once after a retryable stream failure', async () => {
    const h = handDriven(() => deltas([], 'cut'), { jsonMode: true, nonStreaming: true }, completes(5));
    expect(await generateObject(h.client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'json' })).toMatchObject({
      ok: true,
      object: VALID,
      usage: { inputTokens: 5, outputTokens: 5 },
    });
    expect(h.counts()).toEqual({ streams: 1, completes: 1 });
  });

  it('GENOBJ-22: without a distinct transport the same failure is not re-run under another method name', async () => {
    const h = handDriven(() => deltas([], 'cut'), { jsonMode: true, nonStreaming: false }, completes());
    expect(await generateObject(h.client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'json' })).toMatchObject({
      ok: false,
      errorKind: 'transport',
    });
    expect(h.counts()).toEqual({ streams: 1, completes: 0 });
  });

  it('GENOBJ-22: a rate limit is not re-run through the non-streaming call (it would fail the same way)', async () => {
    const h = handDriven(
      async function* () {
        yield* [];
        throw new LlmError('rate_limited', '429', { retryAfterMs: 10 });
      },
      { jsonMode: true, nonStreaming: true },
      completes(),
    );
    expect(await generateObject(h.client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'json' })).toMatchObject({
      ok: false,
      errorKind: 'rate_limited',
    });
    expect(h.counts()).toEqual({ streams: 1, completes: 0 });
  });

  it('malformed tool-argument JSON from the provider is repaired like any invalid output', async () => {
    let calls = 0;
    const h = handDriven(async function* (_req: LlmRequest) {
      calls++;
      yield { type: 'tool_call_start', index: 0, id: `c${calls}`, name: 'result' };
      if (calls === 1) {
        yield { type: 'tool_call_delta', index: 0, id: 'c1', argsDelta: '{"sentiment": "pos' };
        throw new LlmError('invalid_response', "tool call 'result' (c1): arguments are not valid JSON", {
          providerCode: 'malformed_tool_arguments',
        });
      }
      yield { type: 'tool_call_delta', index: 0, id: 'c2', argsDelta: text };
      yield { type: 'tool_call_end', index: 0, call: { id: 'c2', name: 'result', args: VALID } };
      yield { type: 'finish', reason: 'tool_calls' };
    }, TOOL_ONLY);
    const r = await generateObject(h.client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'tool' });
    expect(r).toMatchObject({ ok: true, attempts: 2, object: VALID });
    expect(h.requests[1]!.messages.at(-1)!.content).toContain('the tool arguments were not valid JSON');
  });
});
