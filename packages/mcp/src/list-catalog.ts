/**
 * Lists what a connected MCP server offers: the pages of its tools, its resources and its
 * prompts, each only when the server declares the capability. A server is untrusted: each tool is
 * checked on its own (one malformed tool is left out with its reason, never failing the listing),
 * and the listing stops at {@link MAX_LISTED_TOOLS} tools and {@link MAX_TOOL_PAGES} pages. Resources
 * and prompts are extras: a listing of them that fails, or an entry of the wrong shape, is told in
 * `problems` and never costs the server its tools.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolSpec } from '@modelcontextprotocol/sdk/types.js';
import { McpRequestError } from './errors.js';
import { loadSdkTypes } from './sdk-types.js';
import type { McpPromptInfo, McpResourceInfo } from './server-status.js';
import type { McpRejectedTool } from './tool-spec-check.js';

/** Most tools one server's listing is read for; the rest are left out (reported once). */
export const MAX_LISTED_TOOLS = 1000;

/** Most pages of `tools/list` one listing reads; a server that pages on past it fails the listing. */
export const MAX_TOOL_PAGES = 100;

/** A server's catalog; `resources`/`prompts` are `undefined` when the server has no such capability. */
export interface McpCatalog {
  readonly specs: readonly McpToolSpec[];
  /** Listed tools that are not MCP tools (wrong shape), and those past {@link MAX_LISTED_TOOLS}. */
  readonly malformed: readonly McpRejectedTool[];
  readonly resources: readonly McpResourceInfo[] | undefined;
  readonly prompts: readonly McpPromptInfo[] | undefined;
  /** Why resources or prompts (or some of them) are missing: their listing failed or had malformed entries. */
  readonly problems: readonly string[];
}

/** Lists the catalog of `server` through `client`; `timeoutMs` bounds each request. */
export async function listCatalog(client: Client, server: string, timeoutMs?: number): Promise<McpCatalog> {
  const opts = timeoutMs === undefined ? undefined : { timeout: timeoutMs };
  const caps = client.getServerCapabilities() ?? {};
  const specs: McpToolSpec[] = [];
  const malformed: McpRejectedTool[] = [];
  if (caps.tools !== undefined) await listTools(client, server, opts, specs, malformed);
  const problems: string[] = [];
  let resources: readonly McpResourceInfo[] | undefined;
  if (caps.resources !== undefined) {
    const { ResourceSchema } = await loadSdkTypes();
    const listed = await listOthers(client, 'resources/list', 'resources', ResourceSchema, opts, problems);
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
    const { PromptSchema } = await loadSdkTypes();
    const listed = await listOthers(client, 'prompts/list', 'prompts', PromptSchema, opts, problems);
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
  return { specs, malformed, resources, prompts, problems };
}

/** The item schemas {@link listOthers} checks entries against. */
interface ItemSchema<T> {
  safeParse(raw: unknown): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}
interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

const issueText = (issue: Issue | undefined): string =>
  `${issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.')}: ${issue?.message ?? 'invalid'}`;

/**
 * Reads the pages of `resources/list` or `prompts/list`. Tools are what a server is for: a
 * listing of resources or prompts that fails (an error, a timeout, the wrong shape) leaves them
 * empty and is told in `problems`, and a malformed entry is left out on its own; only a lost
 * connection fails the whole listing.
 */
async function listOthers<T>(
  client: Client,
  method: 'resources/list' | 'prompts/list',
  key: 'resources' | 'prompts',
  schema: ItemSchema<T>,
  opts: { timeout: number } | undefined,
  problems: string[],
): Promise<T[]> {
  const { ErrorCode, McpError, PaginatedResultSchema } = await loadSdkTypes();
  const items: T[] = [];
  let dropped = 0;
  let firstIssue: string | undefined;
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  try {
    for (let pages = 0; ; pages++) {
      if (pages === MAX_TOOL_PAGES) {
        problems.push(
          `${method}: the ${key} come in more than ${MAX_TOOL_PAGES} pages; the first ${MAX_TOOL_PAGES} were read`,
        );
        break;
      }
      const page = await client.request(
        { method, params: cursor === undefined ? {} : { cursor } },
        PaginatedResultSchema,
        opts,
      );
      const raw = (page as Record<string, unknown>)[key];
      if (!Array.isArray(raw)) throw new Error(`the answer has the wrong shape: ${key}: expected array`);
      for (const [i, entry] of raw.entries()) {
        if (items.length === MAX_LISTED_TOOLS) {
          problems.push(`${method}: more than ${MAX_LISTED_TOOLS} ${key}; the rest were not read`);
          return items;
        }
        const parsed = schema.safeParse(entry);
        if (parsed.success) items.push(parsed.data);
        else {
          dropped++;
          firstIssue ??= `${key}.${i}.${issueText(parsed.error.issues[0])}`;
        }
      }
      cursor = page.nextCursor;
      if (cursor === undefined || seenCursors.has(cursor)) break;
      seenCursors.add(cursor);
    }
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) throw error;
    problems.push(`${method} failed, so it offers none: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  } finally {
    if (dropped > 0) problems.push(`${method}: ${dropped} malformed ${key} left out (first: ${firstIssue})`);
  }
  return items;
}

function shortName(name: unknown): string {
  const text = typeof name === 'string' ? name : (JSON.stringify(name) ?? String(name));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Reads the pages of `tools/list` into `specs` (each tool checked against the MCP tool shape on
 * its own; a malformed one goes to `malformed`). The SDK's `listTools` is not used: it fails the
 * whole page for one malformed tool, and compiles each tool's `outputSchema` (a server's regular
 * expressions and references) in this process.
 */
async function listTools(
  client: Client,
  server: string,
  opts: { timeout: number } | undefined,
  specs: McpToolSpec[],
  malformed: McpRejectedTool[],
): Promise<void> {
  const { PaginatedResultSchema, ToolSchema } = await loadSdkTypes();
  const seenCursors = new Set<string>();
  let listed = 0;
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages === MAX_TOOL_PAGES)
      throw new McpRequestError(
        server,
        'tools/list',
        -1,
        `the tools come in more than ${MAX_TOOL_PAGES} pages; the most read is ${MAX_TOOL_PAGES}`,
      );
    const page = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      PaginatedResultSchema,
      opts,
    );
    const tools = (page as { tools?: unknown }).tools;
    if (!Array.isArray(tools))
      throw new McpRequestError(server, 'tools/list', -1, 'the answer has the wrong shape: tools: expected array');
    for (const raw of tools) {
      if (listed === MAX_LISTED_TOOLS) {
        malformed.push({
          tool: shortName((raw as { name?: unknown } | null)?.name),
          reason: `the server lists more than ${MAX_LISTED_TOOLS} tools; this one and those after it were not read`,
        });
        return;
      }
      listed++;
      const parsed = ToolSchema.safeParse(raw);
      if (parsed.success) specs.push(parsed.data);
      else {
        const issue = parsed.error.issues[0];
        const path = issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
        malformed.push({
          tool: shortName((raw as { name?: unknown } | null)?.name),
          reason: `it is not an MCP tool: ${path}: ${issue?.message ?? 'invalid'}`,
        });
      }
    }
    cursor = page.nextCursor;
    if (cursor === undefined) return;
    if (seenCursors.has(cursor))
      throw new McpRequestError(
        server,
        'tools/list',
        -1,
        `the server sent the cursor ${JSON.stringify(cursor.slice(0, 100))} a second time; its pages would never end`,
      );
    seenCursors.add(cursor);
  }
}
