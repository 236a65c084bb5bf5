/**
 * Bridges one MCP tool onto core's `Tool` contract. The tier comes from the server's annotations
 * (`readOnlyHint` → `read`, `destructiveHint` → `write`, otherwise `exec`); a tool not declared
 * read-only is treated as mutating and serial (`maxParallelism: 1`), because "unknown" must not
 * fan out. Cancellation and timeouts reach the server as `notifications/cancelled` through the
 * SDK's request options (an `AbortSignal` and a `timeout`). Around a call of such a tool the
 * workspace is looked at before and after, as around a shell command, and the files that changed
 * are reported: a lookup that changed nothing is no change for the completion gate, and one that
 * did is a change of those files (a workspace too large to look at stays a change of unknown paths).
 */
import {
  CancelledError,
  changesBetween,
  SNAPSHOT_TIMEOUT_MS,
  snapshotWorkspaceWithin,
  type JsonSchema,
  type Tool,
  type ToolCapabilities,
  type ToolContext,
  type ToolResult,
  type ToolTier,
} from '@a3s-code/core';
import type { CallToolResult, Tool as McpToolSpec } from '@modelcontextprotocol/sdk/types.js';
import { mcpCapability } from './server-name.js';
import { withoutPatterns } from './schema-patterns.js';
import { convertCallResult, type McpArtifactStore } from './tool-result.js';

/** Default timeout of a bridged call when neither the server entry nor the kernel sets one, ms. */
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 120_000;

/** What a bridged tool calls: one server connection. */
export interface McpToolCaller {
  /** The server's configured name. */
  readonly server: string;
  /** Calls `tools/call`; rejects with a typed error (closed, unavailable, timeout, request). */
  callTool(
    tool: string,
    args: Readonly<Record<string, unknown>>,
    options: { readonly signal: AbortSignal; readonly timeoutMs: number },
  ): Promise<CallToolResult | { readonly toolResult: unknown }>;
}

/** Options of {@link bridgeMcpTool}. */
export interface BridgeOptions {
  /** The surface name (`mcp__<server>__<tool>`). */
  readonly name: string;
  /** Per-call timeout from the server entry, ms; becomes the tool's `timeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Store for images, audio and blobs when the call's context has none (`ctx.artifacts`, the
   * kernel's store, is used whenever present).
   */
  readonly artifacts?: McpArtifactStore;
}

/** The tier an MCP tool's annotations give. */
export function tierFromAnnotations(annotations: McpToolSpec['annotations']): ToolTier {
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.destructiveHint === true) return 'write';
  return 'exec';
}

/** Scheduling capabilities from annotations: only a declared read-only tool is parallel-safe. */
export function capabilitiesFromAnnotations(annotations: McpToolSpec['annotations']): Partial<ToolCapabilities> {
  const readOnly = annotations?.readOnlyHint === true;
  return {
    readOnly,
    idempotent: readOnly || annotations?.idempotentHint === true,
    resumable: readOnly,
    cancelSafe: readOnly,
    maxParallelism: readOnly ? 16 : 1,
    outputType: 'text',
  };
}

function inputSchemaOf(spec: McpToolSpec): JsonSchema {
  const schema = { ...(withoutPatterns(spec.inputSchema) as Record<string, unknown>) };
  // Arguments are always an object; a server that omits `type` still means one.
  if (schema.type === undefined) schema.type = 'object';
  delete schema.$schema;
  return schema as JsonSchema;
}

/** A core `Tool` that runs `spec` on `caller`'s server. */
export function bridgeMcpTool(
  caller: McpToolCaller,
  spec: McpToolSpec,
  options: BridgeOptions,
): Tool<Record<string, unknown>> {
  const timeoutMs = options.timeoutMs;
  const description =
    spec.description ??
    spec.title ??
    spec.annotations?.title ??
    `Tool '${spec.name}' of MCP server '${caller.server}'.`;
  const capabilities = capabilitiesFromAnnotations(spec.annotations);
  const readOnly = capabilities.readOnly === true;
  return Object.freeze({
    name: options.name,
    description,
    inputSchema: inputSchemaOf(spec),
    tier: tierFromAnnotations(spec.annotations),
    capabilities: Object.freeze(capabilities),
    // On a session's surface only while its server serves (the capability the server drives).
    requires: Object.freeze([mcpCapability(caller.server)]),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      if (ctx.signal.aborted) throw new CancelledError(`call of '${options.name}'`, ctx.signal.reason);
      const looked = !readOnly && ctx.workspace.fs !== undefined;
      const deadline = timeoutMs ?? DEFAULT_MCP_TOOL_TIMEOUT_MS;
      // Each look at the workspace is bounded (the one before by half the call's timeout at most):
      // a stuck listing is given up and leaves the changes unknown, it does not hold the call.
      const first = looked
        ? await snapshotWorkspaceWithin(ctx.workspace, ctx.signal, Math.min(SNAPSHOT_TIMEOUT_MS, deadline / 2))
        : undefined;
      const before = first?.snapshot;
      const result = await caller.callTool(spec.name, args ?? {}, { signal: ctx.signal, timeoutMs: deadline });
      const second = before ? await snapshotWorkspaceWithin(ctx.workspace, ctx.signal) : undefined;
      const after = second?.snapshot;
      const changed = changesBetween(before, after) ?? undefined;
      const snapshotNote = first?.note ?? second?.note;
      // The session's store (the kernel's, through the context) wins; the manager's option is
      // the fallback for a context built without one.
      const artifacts: McpArtifactStore | undefined =
        (ctx.artifacts as ToolContext['artifacts'] | undefined) ?? options.artifacts;
      const converted = await convertCallResult(result, {
        server: caller.server,
        tool: spec.name,
        toolName: options.name,
        callId: ctx.callId,
        ...(artifacts === undefined ? {} : { artifacts }),
      });
      if (snapshotNote !== undefined)
        return {
          ...converted,
          output: converted.output === '' ? snapshotNote : `${converted.output}\n${snapshotNote}`,
        };
      if (changed === undefined) return converted;
      const paths = [...changed.created, ...changed.modified, ...changed.deleted].sort();
      return { ...converted, metadata: { ...converted.metadata, changed_files: changed, changed_paths: paths } };
    },
  });
}
