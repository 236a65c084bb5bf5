/**
 * `McpManager`: owns a set of servers. The agent creates one from its configuration (the
 * agent-global manager); each session creates its own private one for live `addMcpServer` /
 * `removeMcpServer`. Only the owner holds the manager; everyone else gets its
 * read-only {@link McpManager.view}. Closing a manager closes (and kills) its servers only.
 */
import type { Tool } from '@a3s-code/core';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { parseMcpServerConfig, parseMcpServers } from './config.js';
import { McpClosedError, McpConfigError, McpServerUnavailableError } from './errors.js';
import type { McpSource } from './mcp-source.js';
import { McpServerConnection } from './server-connection.js';
import { assertServerName } from './server-name.js';
import type { McpPromptInfo, McpResourceInfo, McpServerStatus } from './server-status.js';
import type { McpArtifactStore } from './tool-result.js';

/** Options of {@link McpManager}. */
export interface McpManagerOptions {
  /** Name for diagnostics. Default `mcp`. */
  readonly label?: string;
  /**
   * Store for images, audio and blobs returned by tools, used only when a call's context has no
   * `artifacts` (the kernel's `ToolContext.artifacts` is used whenever present).
   */
  readonly artifacts?: McpArtifactStore;
  /** Identity sent in `initialize`. Default `{ name: 'a3s-code', version: '0.1.0' }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /**
   * Start-up deadline of servers whose entry sets no `connectTimeoutMs`: spawning (or reaching)
   * the server, `initialize` and the first listings, ms. Default 15000.
   */
  readonly connectTimeoutMs?: number;
  /** First delay before a crashed server is restarted, ms (doubles with each crash in a row). Default 200. */
  readonly restartBackoffMs?: number;
}

/** A manager that owns servers. */
export class McpManager implements McpSource {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_McpManager`; people read `McpManager`.
    Object.defineProperty(this, 'name', { value: 'McpManager' });
  }
  /** See {@link McpSource.label}. */
  readonly label: string;
  readonly #options: McpManagerOptions;
  readonly #servers = new Map<string, McpServerConnection>();
  readonly #listeners = new Set<() => void>();
  #view: McpSource | undefined;
  #closed = false;

  constructor(options: McpManagerOptions = {}) {
    this.label = options.label ?? 'mcp';
    this.#options = options;
  }

  /**
   * The agent-global manager: validates `mcpServers` (throwing `MCP_CONFIG` naming the key path
   * before any process starts), then starts every enabled server concurrently. A server that
   * fails to start stays in `status()` as `failed` with its error; the others are unaffected.
   */
  static async fromConfig(mcpServers: unknown, options: McpManagerOptions = {}): Promise<McpManager> {
    const config = parseMcpServers(mcpServers);
    const manager = new McpManager({ label: 'global', ...options });
    await Promise.all(
      Object.entries(config)
        .filter(([, entry]) => entry.enabled !== false)
        .map(([name, entry]) => manager.addServer(name, entry).catch(() => undefined)),
    );
    return manager;
  }

  /** True after {@link close}. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Adds and starts a server; resolves with its status once its tools are listed. Validation
   * errors (`MCP_CONFIG`) are thrown before any I/O. A start failure rejects with
   * `MCP_CONNECTION` and leaves the server in `status()` as `failed` (adding the same name again
   * replaces it). A name that is connected or connecting is refused.
   */
  async addServer(name: string, config: unknown): Promise<McpServerStatus> {
    if (this.#closed) throw new McpClosedError(`MCP manager '${this.label}'`);
    assertServerName(name, 'name');
    const entry = parseMcpServerConfig(config, `mcpServers.${name}`);
    const existing = this.#servers.get(name);
    if (existing !== undefined && existing.state !== 'failed' && existing.state !== 'closed') {
      throw new McpConfigError(
        `mcpServers.${name}`,
        `server '${name}' already exists in manager '${this.label}'; remove it first`,
      );
    }
    if (existing !== undefined) await existing.close();
    const connection = new McpServerConnection(name, entry, {
      onChange: () => this.#changed(),
      clientInfo: this.#options.clientInfo ?? { name: 'a3s-code', version: '0.1.0' },
      ...(this.#options.artifacts === undefined ? {} : { artifacts: this.#options.artifacts }),
      ...(this.#options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: this.#options.connectTimeoutMs }),
      ...(this.#options.restartBackoffMs === undefined ? {} : { restartBackoffMs: this.#options.restartBackoffMs }),
    });
    this.#servers.set(name, connection);
    await connection.start();
    return connection.status();
  }

  /** Restarts a server from its entry (after it failed or crashed). */
  async reconnect(name: string): Promise<McpServerStatus> {
    const existing = this.#servers.get(name);
    if (existing === undefined) throw new McpServerUnavailableError(name, 'not configured');
    await existing.close();
    this.#servers.delete(name);
    return this.addServer(name, existing.config);
  }

  /** Removes a server and kills its process group. Returns `false` when the name is unknown. */
  async removeServer(name: string): Promise<boolean> {
    const connection = this.#servers.get(name);
    if (connection === undefined) return false;
    this.#servers.delete(name);
    await connection.close();
    this.#changed();
    return true;
  }

  /** See {@link McpSource.serverNames}. */
  serverNames(): readonly string[] {
    return [...this.#servers.keys()];
  }

  /** True when `name` is configured here. */
  has(name: string): boolean {
    return this.#servers.has(name);
  }

  /** See {@link McpSource.tools}. */
  tools(): readonly Tool[] {
    return [...this.#servers.values()].flatMap((c) => c.tools());
  }

  /** See {@link McpSource.toolsOf}. */
  toolsOf(server: string): readonly Tool[] {
    return this.#servers.get(server)?.tools() ?? [];
  }

  /** See {@link McpSource.resources}. */
  resources(): readonly McpResourceInfo[] {
    return [...this.#servers.values()].flatMap((c) => c.resources());
  }

  /** See {@link McpSource.prompts}. */
  prompts(): readonly McpPromptInfo[] {
    return [...this.#servers.values()].flatMap((c) => c.prompts());
  }

  /** See {@link McpSource.status}. */
  status(): readonly McpServerStatus[] {
    return [...this.#servers.values()].map((c) => c.status());
  }

  /** See {@link McpSource.readResource}. */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.#get(server).readResource(uri, signal);
  }

  /** See {@link McpSource.getPrompt}. */
  async getPrompt(
    server: string,
    name: string,
    args?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.#get(server).getPrompt(name, args, signal);
  }

  /** See {@link McpSource.onChange}. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The read-only face of this manager, for everyone who must not own it. Always the same object. */
  view(): McpSource {
    this.#view ??= Object.freeze({
      label: this.label,
      serverNames: () => this.serverNames(),
      tools: () => this.tools(),
      toolsOf: (server: string) => this.toolsOf(server),
      resources: () => this.resources(),
      prompts: () => this.prompts(),
      status: () => this.status(),
      readResource: (server: string, uri: string, signal?: AbortSignal) => this.readResource(server, uri, signal),
      getPrompt: (server: string, name: string, args?: Readonly<Record<string, string>>, signal?: AbortSignal) =>
        this.getPrompt(server, name, args, signal),
      onChange: (listener: () => void) => this.onChange(listener),
    });
    return this.#view;
  }

  /** Closes every server (their process groups are gone when this resolves) and refuses new ones. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const all = [...this.#servers.values()];
    this.#servers.clear();
    await Promise.all(all.map((c) => c.close()));
    this.#changed();
  }

  #get(server: string): McpServerConnection {
    const c = this.#servers.get(server);
    if (c === undefined) throw new McpServerUnavailableError(server, `not configured in manager '${this.label}'`);
    return c;
  }

  #changed(): void {
    for (const l of [...this.#listeners]) l();
  }
}
