/**
 * MCP servers joining a session as a new capability generation. The preparation steps start a
 * session-private server (`mcp.start`: a real process; undone by removing the server, which ends
 * its whole process group) and check that its tools were discovered onto the session's staged
 * surface (`mcp.discover`); the session's catalog then validates the whole projection and
 * publishes it. A run in progress keeps the generation it pinned; the next run sees the server.
 */
import type { PreparationStep } from '@a3s-code/core';
import { McpConnectionError } from './errors.js';
import type { McpSources } from './mcp-sources.js';
import { MCP_TOOL_PREFIX } from './tool-names.js';

/** Options of {@link mcpServerSteps}. */
export interface McpServerStepOptions {
  /** Step id prefix (`<prefix>.start`, `<prefix>.discover`). Default `mcp`. */
  readonly prefix?: string;
  /** Steps that must finish before the server starts. */
  readonly after?: readonly string[];
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * The steps that add the session-private server `name` to `sources` (validated by
 * `addMcpServer` before any process starts). Pass them to a session catalog's `prepare`, alone or
 * with other steps.
 */
export function mcpServerSteps(
  sources: McpSources,
  name: string,
  config: unknown,
  options: McpServerStepOptions = {},
): PreparationStep[] {
  const prefix = options.prefix ?? 'mcp';
  return [
    {
      id: `${prefix}.start`,
      ...(options.after ? { after: options.after } : {}),
      run: async (ctx) => {
        // Registered first: a server that fails to start (or is cancelled while starting) is removed too.
        ctx.onRollback(() => sources.removeMcpServer(name).then(() => undefined));
        const started = sources.addMcpServer(name, config);
        started.catch(() => undefined);
        await abortable(started, ctx.signal);
      },
    },
    {
      id: `${prefix}.discover`,
      after: [`${prefix}.start`],
      run: () => {
        const status = sources.status().find((s) => s.name === name && s.source === 'private');
        if (status?.state !== 'connected')
          throw new McpConnectionError(
            name,
            `is ${status?.state ?? 'gone'} after start-up`,
            undefined,
            status?.stderrTail,
          );
        const own = `${MCP_TOOL_PREFIX}${name}__`;
        const listed = sources.toolNames().filter((t) => t.startsWith(own)).length;
        if (listed !== status.toolCount)
          throw new McpConnectionError(name, `listed ${status.toolCount} tool(s), but ${listed} reached the surface`);
      },
    },
  ];
}
