/**
 * `McpSource`: the read-only face of a manager. A session sees the agent-global manager and the
 * managers its host passes in (and a sub-agent sees its parent's) only through this interface:
 * it can list and call, never add, remove or close.
 */
import type { Tool } from '@a3s-code/core';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpPromptInfo, McpResourceInfo, McpServerStatus } from './server-status.js';

/** A read-only source of MCP capabilities. */
export interface McpSource {
  /** Name for diagnostics (`global`, `host:ci`, ...). */
  readonly label: string;
  /** Configured server names, in the order they were added. */
  serverNames(): readonly string[];
  /** Bridged tools of connected servers, cached: no I/O. */
  tools(): readonly Tool[];
  /** Tools of one server (empty when it is unknown or not connected). */
  toolsOf(server: string): readonly Tool[];
  /** Resources of connected servers. */
  resources(): readonly McpResourceInfo[];
  /** Prompts of connected servers. */
  prompts(): readonly McpPromptInfo[];
  /** Status of every configured server. */
  status(): readonly McpServerStatus[];
  /** Reads a resource of one server. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  /** Gets a prompt of one server. */
  getPrompt(
    server: string,
    name: string,
    args?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult>;
  /** Calls `listener` after every change of servers, tools, resources, prompts or states; returns its remover. */
  onChange(listener: () => void): () => void;
}
