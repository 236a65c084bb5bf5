/**
 * A client's usage report made safe to count and record: every count a finite, non-negative
 * integer no larger than `Number.MAX_SAFE_INTEGER` (a fraction rounded; a negative, non-finite or
 * non-number value counts as 0, an optional one as absent). A client is untrusted: a bad count
 * must neither lower the budget's spending nor make the turn's `model.turn` fact unrecordable.
 */
import type { LlmUsage } from './llm-client.js';

function count(v: unknown): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return undefined;
  return Math.min(Math.round(v), Number.MAX_SAFE_INTEGER);
}

/** `usage` with every count checked (see the module comment). */
export function normalizeUsage(usage: LlmUsage): LlmUsage {
  const cached = count(usage.cachedInputTokens);
  const reasoning = count(usage.reasoningTokens);
  return {
    inputTokens: count(usage.inputTokens) ?? 0,
    outputTokens: count(usage.outputTokens) ?? 0,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}
