/**
 * Lists what a connected MCP server offers: every page of its tools, its resources and its
 * prompts, each only when the server declares the capability.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolSpec } from '@modelcontextprotocol/sdk/types.js';
import type { McpPromptInfo, McpResourceInfo } from './server-status.js';

/** A server's catalog; `resources`/`prompts` are `undefined` when the server has no such capability. */
export interface McpCatalog {
  readonly specs: readonly McpToolSpec[];
  readonly resources: readonly McpResourceInfo[] | undefined;
  readonly prompts: readonly McpPromptInfo[] | undefined;
}

/** Lists the catalog of `server` through `client`; `timeoutMs` bounds each request. */
export async function listCatalog(client: Client, server: string, timeoutMs?: number): Promise<McpCatalog> {
  const opts = timeoutMs === undefined ? undefined : { timeout: timeoutMs };
  const caps = client.getServerCapabilities() ?? {};
  const specs: McpToolSpec[] = [];
  if (caps.tools !== undefined) {
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, opts);
      specs.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  let resources: readonly McpResourceInfo[] | undefined;
  if (caps.resources !== undefined) {
    const listed = (await client.listResources(undefined, opts)).resources;
    resources = Object.freeze(
      listed.map((r) =>
        Object.freeze({
          server,
          uri: r.uri,
          name: r.name,
          ...(r.description === undefined ? {} : { description: r.description }),
          ...(r.mimeType === undefined ? {} : { mimeType: r.mimeType }),
        }),
      ),
    );
  }
  let prompts: readonly McpPromptInfo[] | undefined;
  if (caps.prompts !== undefined) {
    const listed = (await client.listPrompts(undefined, opts)).prompts;
    prompts = Object.freeze(
      listed.map((p) =>
        Object.freeze({
          server,
          name: p.name,
          ...(p.description === undefined ? {} : { description: p.description }),
          arguments: Object.freeze([...(p.arguments ?? [])]),
        }),
      ),
    );
  }
  return { specs, resources, prompts };
}
