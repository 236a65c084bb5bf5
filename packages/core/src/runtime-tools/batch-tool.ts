/**
 * The `batch` runtime tool: runs up to 32 calls through the caller's
 * scoped invoker, so every inner call is governed like the caller's own. The calls fan out (at
 * most 16 at once) only when every one is read-only and idempotent for its args; otherwise they
 * run in order. Failed items are listed by index and the orchestration itself completes.
 */
import type { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ToolInvocationResult } from '../invoker/invocation-types.js';
import { markTrustedOrchestrator } from '../invoker/trust.js';
import { lazyZod } from '../tools/zod-loader.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** Limits of `batch`. */
export const BATCH_LIMITS = Object.freeze({ maxCalls: 32, maxParallel: 16 });

const batchInput = lazyZod((z) =>
  z
    .object({
      calls: z
        .array(
          z
            .object({
              tool: z.string().min(1).describe('Name of a tool on the current surface.'),
              args: z.record(z.string(), z.unknown()).default({}).describe('Arguments of that tool.'),
            })
            .strict(),
        )
        .min(1)
        .max(BATCH_LIMITS.maxCalls)
        .describe(`1..${BATCH_LIMITS.maxCalls} calls, results returned in the same order.`),
    })
    .strict(),
);

/** The arguments of `batch`. */
export type BatchArgs = z.output<ReturnType<typeof batchInput>>;

/** One item of a batch result (`metadata.batch.results`). */
export interface BatchItemResult {
  readonly index: number;
  readonly tool: string;
  readonly ok: boolean;
  readonly exit_code: number;
  readonly error_kind: string | null;
  readonly output: string;
}

async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  if (limit <= 1) {
    for (let i = 0; i < items.length; i++) out[i] = await fn(items[i] as T, i);
    return out;
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const DESCRIPTION = `Run up to ${BATCH_LIMITS.maxCalls} tool calls in one step. Read-only, idempotent calls run in parallel (at most ${BATCH_LIMITS.maxParallel} at once); if any call may change something, all run in order. Every call is checked like a direct call. The result lists each call's outcome in order and the indices of failed calls; retry only those.`;

async function runBatch(args: BatchArgs, ctx: ToolContext): Promise<ToolResult> {
  const { calls } = args;
  const parallel = calls.every((c) => {
    const caps = ctx.invoker.capabilitiesOf(c.tool, c.args);
    return caps?.readOnly && caps.idempotent;
  });
  const results = await mapLimit(
    calls,
    parallel ? BATCH_LIMITS.maxParallel : 1,
    (c, i): Promise<ToolInvocationResult> => ctx.invoker.invoke(c.tool, c.args, { id: `${ctx.callId}.${i}` }),
  );
  const items: BatchItemResult[] = results.map((r, i) => ({
    index: i,
    tool: r.name,
    ok: r.ok,
    exit_code: r.exitCode,
    error_kind: r.errorKind ?? null,
    output: r.output,
  }));
  const failed = items.filter((r) => !r.ok).map((r) => r.index);
  const summary = { completed: true, parallel, failed, results: items };
  return {
    output: JSON.stringify(summary),
    exitCode: 0,
    metadata: { batch: { completed: true, parallel, failed, count: items.length } },
  };
}

/** Creates the `batch` tool. */
export function createBatchTool(): Tool<BatchArgs> {
  const tool = defineTool({
    name: 'batch',
    description: DESCRIPTION,
    tier: 'read',
    inputJsonSchema: toolJsonSchemas.batch,
    plainInput: true,
    input: () => batchInput(),
    capabilities: { outputType: 'json' },
    execute: runBatch,
  });
  return markTrustedOrchestrator(tool);
}
