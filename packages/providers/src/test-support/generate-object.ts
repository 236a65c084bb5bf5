/**
 * Test support for `generate_object` over the real clients: the seed's sentiment schema and a
 * tool context that records emitted output.
 */
import type { ToolContext } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';

/** The seed's sentiment schema. */
export const SENTIMENT_SCHEMA = {
  type: 'object',
  required: ['sentiment', 'confidence'],
  properties: {
    sentiment: { type: 'string', enum: ['positive', 'negative', 'neutral'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
} as const;

/** A tool context for direct calls in tests; `emitted` collects `emitOutput` text. */
export function toolContext(signal: AbortSignal = new AbortController().signal): {
  ctx: ToolContext;
  emitted: string[];
} {
  const ctx = createToolContext({ toolName: 'generate_object', callId: 'call-1', signal });
  return { ctx, emitted: ctx.deltas };
}
