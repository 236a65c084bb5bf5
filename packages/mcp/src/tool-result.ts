/**
 * Converts an MCP `tools/call` result into core's `ToolResult`: text content becomes the output;
 * images, audio and binary resources are stored as artifacts when an artifact store is given
 * (and described in metadata either way); structured content goes into metadata; `isError`
 * becomes a failed result (exit code 1).
 */
import { createHash } from 'node:crypto';
import type { ToolResult } from '@a3s-code/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A reference to a stored artifact (structurally core's `ArtifactRef`). */
export interface McpArtifactRef {
  readonly id: string;
  /** `artifact://<id>` or any URI the store uses. */
  readonly uri: string;
  readonly sizeBytes: number;
  readonly sha256: string;
}

/**
 * Where binary content (images, audio, blobs) goes. Structurally compatible with core's
 * `ArtifactStore`, so a session passes its own store. Content is the base64 text of the bytes.
 */
export interface McpArtifactStore {
  put(content: string, meta: { readonly toolName: string; readonly callId: string }): Promise<McpArtifactRef>;
}

/** One binary item of a result, as described in `metadata.media`. */
export interface McpMediaInfo {
  readonly kind: 'image' | 'audio' | 'blob';
  readonly mime_type: string;
  /** Decoded size in bytes. */
  readonly size_bytes: number;
  /** Hex SHA-256 of the decoded bytes. */
  readonly sha256: string;
  /** URI of the stored base64 text, when an artifact store was given. */
  readonly artifact?: string;
  /** For an embedded blob resource: its URI. */
  readonly uri?: string;
}

/** Identity of the call being converted. */
export interface ConvertContext {
  readonly server: string;
  readonly tool: string;
  readonly toolName: string;
  readonly callId: string;
  readonly artifacts?: McpArtifactStore;
}

async function media(
  kind: McpMediaInfo['kind'],
  base64: string,
  mime: string,
  ctx: ConvertContext,
  uri?: string,
): Promise<McpMediaInfo> {
  const bytes = Buffer.from(base64, 'base64');
  const info = {
    kind,
    mime_type: mime,
    size_bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(uri === undefined ? {} : { uri }),
  };
  if (ctx.artifacts === undefined) return info;
  const ref = await ctx.artifacts.put(base64, { toolName: ctx.toolName, callId: ctx.callId });
  return { ...info, artifact: ref.uri };
}

function describe(m: McpMediaInfo): string {
  const where = m.artifact === undefined ? `sha256 ${m.sha256.slice(0, 16)}, not stored` : m.artifact;
  return `[${m.kind} ${m.mime_type}, ${m.size_bytes} bytes${m.uri === undefined ? '' : ` from ${m.uri}`}: ${where}]`;
}

/** Converts one result. Never throws for a well-formed result. */
export async function convertCallResult(
  result: CallToolResult | { readonly toolResult: unknown },
  ctx: ConvertContext,
): Promise<ToolResult> {
  const base: Record<string, unknown> = { mcp_server: ctx.server, mcp_tool: ctx.tool };
  if ('toolResult' in result) {
    // Protocol 2024-10-07 servers answer with a bare `toolResult`.
    return {
      output: typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult),
      exitCode: 0,
      metadata: base,
    };
  }
  const parts: string[] = [];
  const mediaItems: McpMediaInfo[] = [];
  const links: { uri: string; name: string; mime_type?: string }[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image':
      case 'audio': {
        const m = await media(item.type, item.data, item.mimeType, ctx);
        mediaItems.push(m);
        parts.push(describe(m));
        break;
      }
      case 'resource_link':
        links.push({
          uri: item.uri,
          name: item.name,
          ...(item.mimeType === undefined ? {} : { mime_type: item.mimeType }),
        });
        parts.push(`[resource ${item.name}: ${item.uri}]`);
        break;
      case 'resource': {
        const r = item.resource;
        if ('text' in r && typeof r.text === 'string') parts.push(r.text);
        else if ('blob' in r && typeof r.blob === 'string') {
          const m = await media('blob', r.blob, r.mimeType ?? 'application/octet-stream', ctx, r.uri);
          mediaItems.push(m);
          parts.push(describe(m));
        }
        break;
      }
      default:
        parts.push(`[unsupported content: ${JSON.stringify((item as { type?: unknown }).type)}]`);
    }
  }
  const metadata: Record<string, unknown> = { ...base };
  if (result.structuredContent !== undefined) metadata.structured_content = result.structuredContent;
  if (mediaItems.length > 0) metadata.media = mediaItems;
  if (links.length > 0) metadata.resource_links = links;
  let output = parts.join('\n');
  if (output.length === 0 && result.structuredContent !== undefined) output = JSON.stringify(result.structuredContent);
  return { output, exitCode: result.isError === true ? 1 : 0, metadata };
}
