/**
 * The body of a 2xx answer to a streaming request, told apart by its first bytes rather than by
 * its `content-type` (proxies get that wrong): server-sent events; one whole JSON document (a
 * server that ignored `stream: true`, or a gateway's JSON error with status 200); or something
 * that is neither, such as a proxy's HTML login page, which fails `invalid_response` quoting its
 * head, instead of being retried as a stream that "ended early".
 */
import { LlmError, type LlmResponse, type LlmStreamEvent } from '@a3s-code/core';
import { bodyOf, boundedText, type CallScope, JSON_BODY_MAX_BYTES, overLimit } from './http-call.js';
import { errorFromFailure, type ErrorContext, unreadableBody } from './provider-errors.js';
import { readSseEvents, SseLimitError, type SseEvent } from './sse-parser.js';

/** One part of a streamed body: an SSE event, or the whole body as one JSON document. */
export type StreamPart =
  | { readonly kind: 'event'; readonly event: SseEvent }
  | { readonly kind: 'json'; readonly body: unknown };

/** Characters of a body's head looked at to tell what it is. */
const SNIFF_CHARS = 16;

/**
 * Reads a 2xx body as {@link StreamPart}s under the scope's idle deadline (re-armed only on
 * progress; keep-alive traffic does not count). Every failure is a typed {@link LlmError}.
 */
export async function* streamBodyOf(
  res: Response,
  scope: CallScope,
  idleMs: number,
  ctx: ErrorContext,
): AsyncGenerator<StreamPart> {
  const body = bodyOf(res);
  if (body === null)
    throw new LlmError('invalid_response', `${ctx.provider}: response has no body`, { provider: ctx.provider });
  const source = body[Symbol.asyncIterator]();
  const fail = (e: unknown) => {
    if (e instanceof SseLimitError) return overLimit(ctx, e.message);
    return errorFromFailure(e, scope.cause, 'reading the response stream', ctx, scope.timeoutNote);
  };
  try {
    scope.arm(idleMs);
    const head: Uint8Array[] = [];
    let headText = '';
    try {
      // Blank chunks before the first byte of content are keep-alive padding: dropped, not progress.
      while (headText.length < SNIFF_CHARS && !/[\r\n]/.test(headText)) {
        const next = await source.next();
        if (next.done) break;
        const text = new TextDecoder().decode(next.value);
        if (head.length === 0 && text.trim() === '') continue;
        head.push(next.value);
        headText = new TextDecoder().decode(concat(head)).trimStart();
        scope.arm(idleMs);
      }
    } catch (e) {
      throw fail(e);
    }
    const rest = replay(head, source);
    const looks = classify(headText);
    if (looks === 'json') {
      let text: string;
      try {
        const read = await boundedText(rest, JSON_BODY_MAX_BYTES, () => scope.arm(idleMs));
        if (read.cut) throw overLimit(ctx, `the response body ran past ${JSON_BODY_MAX_BYTES} bytes`);
        text = read.text;
      } catch (e) {
        throw fail(e);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw unreadableBody(res, text, ctx, 'neither an event stream nor JSON');
      }
      yield { kind: 'json', body: parsed };
      return;
    }
    if (looks === 'other') {
      let text = headText;
      try {
        text = (await boundedText(rest, 4096, () => undefined)).text;
      } catch {
        // The head already read is quoted.
      }
      throw unreadableBody(res, text, ctx, 'neither an event stream nor JSON');
    }
    try {
      const onChunk = (progress: boolean): void => {
        if (progress) scope.arm(idleMs);
      };
      for await (const event of readSseEvents(rest, onChunk)) yield { kind: 'event', event };
    } catch (e) {
      throw fail(e);
    }
  } finally {
    // Stops the body when the reader stops early (a closed stream, an error): the socket is released.
    await source.return?.().catch(() => undefined);
  }
}

/**
 * True when a stream event gives the answer something: text, reasoning or tool-call arguments
 * that are not empty, a reasoning block, a tool call's start or end, or the end of the response.
 * Only these re-arm a model call's idle deadline; usage figures alone, repeated or not, do not.
 */
export function givesContent(ev: LlmStreamEvent): boolean {
  switch (ev.type) {
    case 'text_delta':
    case 'reasoning_delta':
      return ev.delta !== '';
    case 'tool_call_delta':
      return ev.argsDelta !== '';
    case 'usage':
      return false;
    default:
      return true;
  }
}

/** The stream events of a whole response (a server that answered a streaming request in one JSON body). */
export function responseEvents(response: LlmResponse): LlmStreamEvent[] {
  const out: LlmStreamEvent[] = [];
  if (response.reasoning !== '') out.push({ type: 'reasoning_delta', delta: response.reasoning });
  for (const block of response.reasoningBlocks ?? []) out.push({ type: 'reasoning_block', block });
  if (response.text !== '') out.push({ type: 'text_delta', delta: response.text });
  response.toolCalls.forEach((call, index) => {
    out.push({ type: 'tool_call_start', index, id: call.id, name: call.name });
    out.push({ type: 'tool_call_end', index, call });
  });
  out.push({ type: 'usage', usage: response.usage });
  out.push({ type: 'finish', reason: response.finishReason });
  return out;
}

function classify(head: string): 'json' | 'sse' | 'other' {
  if (head === '') return 'sse';
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  if (head.startsWith(':')) return 'sse';
  // The first line's field name (a partial one at the very end of a short body).
  const field = /^[^:\r\n]*/.exec(head)?.[0] ?? '';
  const rest = head.slice(field.length);
  if (rest === '' && ['data', 'event', 'id', 'retry'].some((f) => f.startsWith(field))) return 'sse';
  return ['data', 'event', 'id', 'retry'].includes(field) ? 'sse' : 'other';
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

async function* replay(head: readonly Uint8Array[], source: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* head;
  for (;;) {
    const next = await source.next();
    if (next.done) return;
    yield next.value;
  }
}
