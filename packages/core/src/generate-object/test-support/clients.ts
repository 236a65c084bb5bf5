/**
 * Test support for generate_object: scripted clients with chosen capabilities, hand-driven
 * clients for stream edge cases, and a tool context that records emitted output.
 */
import type { LlmCapabilities, LlmClient, LlmRequest, LlmResponse, LlmStreamEvent } from '../../llm/llm-client.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../../llm/scripted-llm-client.js';
import { createToolContext } from '../../testing/tool-context.js';
import type { ToolContext } from '../../tools/tool-context.js';

/** The seed's sentiment schema. */
export const SENTIMENT_SCHEMA = {
  type: 'object',
  required: ['sentiment', 'confidence'],
  properties: {
    sentiment: { type: 'string', enum: ['positive', 'negative', 'neutral'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
} as const;

/** Every capability off; spread overrides on top. */
export const NO_CAPS: LlmCapabilities = {
  forcedToolChoice: false,
  strictJsonSchema: false,
  jsonMode: false,
  nonStreaming: false,
  reasoning: false,
  parallelToolCalls: false,
};

/** A ScriptedLlmClient seen through the given capabilities; `script.requests` records requests. */
export function scripted(
  turns: ScriptedTurn[],
  caps: Partial<LlmCapabilities> = { forcedToolChoice: true, strictJsonSchema: true, jsonMode: true },
) {
  const script = new ScriptedLlmClient(turns);
  const client: LlmClient = {
    provider: 'scripted',
    model: 'scripted',
    capabilities: { ...NO_CAPS, ...caps },
    stream: (r) => script.stream(r),
  };
  return { script, client };
}

/** A client whose stream is the given generator; `complete` optional. Records requests. */
export function handDriven(
  stream: (req: LlmRequest, call: number) => AsyncGenerator<LlmStreamEvent>,
  caps: Partial<LlmCapabilities> = {},
  complete?: (req: LlmRequest) => Promise<LlmResponse>,
) {
  const requests: LlmRequest[] = [];
  let streams = 0;
  let completes = 0;
  const client: LlmClient = {
    provider: 'hand',
    model: 'hand',
    capabilities: { ...NO_CAPS, ...caps },
    stream: (r) => {
      requests.push(r);
      return stream(r, streams++);
    },
    ...(complete === undefined
      ? {}
      : {
          complete: (r: LlmRequest) => {
            requests.push(r);
            completes++;
            return complete(r);
          },
        }),
  };
  return { client, requests, counts: () => ({ streams, completes }) };
}

/** A tool context for direct calls in tests; `emitted` collects `emitOutput` text. */
export function toolContext(signal: AbortSignal = new AbortController().signal): {
  ctx: ToolContext;
  emitted: string[];
} {
  const ctx = createToolContext({ toolName: 'generate_object', callId: 'call-1', signal });
  return { ctx, emitted: ctx.deltas };
}
