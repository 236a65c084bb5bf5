/**
 * The SDK's memory helpers: `session.remember(...)` and `session.recall(...)` are one host call of
 * the session's `remember` / `recall` tool each — the same governed kernel as the model's calls —
 * over the session's memory store (`.a3s/memory/` by default, or the store passed as `memory`).
 */
import type { MemoryRecord } from '@a3s-code/core';
import type { HostCall } from './direct-tools.js';
import { checkOptionsArg } from './arguments.js';
import { DirectToolError } from './errors.js';
import { errorCodeOf, toToolResult } from './tool-result.js';

/** Options of `session.remember`. */
export interface RememberOptions {
  /** Labels to recall it by (up to 16). */
  readonly tags?: readonly string[];
  /** Replaces the memory stored under this key. */
  readonly key?: string;
}

/** Options of `session.recall`. */
export interface RecallOptions {
  /** Only memories with all these tags. */
  readonly tags?: readonly string[];
  /** Most memories to return, 1..50. Default 10. */
  readonly limit?: number;
}

/** A memory as the tools report it. */
export type RecalledMemory = Pick<MemoryRecord, 'id' | 'content' | 'tags' | 'key' | 'updatedAtMs'>;

interface ToolMemory {
  readonly id: string;
  readonly content: string;
  readonly tags: readonly string[];
  readonly key?: string;
  readonly updated_at_ms: number;
}

function fromTool(m: ToolMemory): RecalledMemory {
  return {
    id: m.id,
    content: m.content,
    tags: m.tags,
    ...(m.key === undefined ? {} : { key: m.key }),
    updatedAtMs: m.updated_at_ms,
  };
}

async function memoryCall(call: HostCall, tool: string, args: Record<string, unknown>): Promise<string> {
  const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
  const r = await call(tool, given);
  if (!r.ok) throw new DirectToolError(tool, toToolResult(r), errorCodeOf(r));
  return r.output;
}

/** Remembers `content` (durable when this resolves). @throws DirectToolError when the session has no memory store or the input is refused. */
export async function remember(call: HostCall, content: string, given?: RememberOptions): Promise<RecalledMemory> {
  const options = checkOptionsArg(given, 'session.remember', ['tags', 'key']);
  const out = await memoryCall(call, 'remember', { content, tags: options.tags, key: options.key });
  return fromTool((JSON.parse(out) as { remembered: ToolMemory }).remembered);
}

/** Memories matching `query` (any of its words), best first; without a query, the newest. */
export async function recall(call: HostCall, query?: string, given?: RecallOptions): Promise<RecalledMemory[]> {
  const options = checkOptionsArg(given, 'session.recall', ['tags', 'limit']);
  const out = await memoryCall(call, 'recall', { query, tags: options.tags, limit: options.limit });
  return (JSON.parse(out) as { memories: ToolMemory[] }).memories.map(fromTool);
}
