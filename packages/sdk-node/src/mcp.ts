/**
 * MCP on SDK sessions. `mcpServers` of the agent's configuration (and of a workspace config file)
 * form the agent-global manager, started once, lazily, at the first session that needs it; the
 * `mcpServers` of a session's options and `session.addMcpServer` are the session's private
 * servers. Each session sees global → private through `@a3s-code/mcp`'s `McpSources`, attached
 * to its core session by `mcpToolSource` (a core `ToolSource`): each server is the session
 * resource `mcp.<server>` that its tools require, so they are on the surface while it serves and
 * tools discovered later join it. Private servers close with the session, global ones with the agent.
 */
import {
  CatalogPreparationError,
  SessionClosedError,
  type PrepareOptions,
  type SessionCapabilityCatalog,
  type ToolSource,
} from '@a3s-code/core';
import {
  McpConfigError,
  McpConnectionError,
  mcpServerSteps,
  McpManager,
  McpSources,
  mcpToolSource,
  parseMcpServers,
  type McpServerStatus,
  type McpServersConfig,
  type McpSource,
} from '@a3s-code/mcp';

/** A server that is not serving: what a host shows the user (`a3s` prints one line per warning). */
export interface McpWarning {
  /** The server's configured name. */
  readonly server: string;
  /** `failed` (did not start, or gave up after crashes), `crashed` or `restarting`; for a tool left out, the server's state. */
  readonly state: McpServerStatus['state'];
  /** Why, without the server's name: `starting \`npx\`: command not found (ENOENT)`. */
  readonly reason: string;
  /** The last lines of the server's stderr, when it wrote any. */
  readonly stderrTail?: string;
}

/**
 * The warnings of a set of statuses (`session.mcpStatus()`, `agent.mcpStatus(dir)`): one per
 * server that is `failed`, `crashed` or `restarting`, and one per tool a server listed that was
 * left out of the surface (its reason names the tool), in order. Shadowed servers are skipped.
 */
export function mcpWarnings(statuses: readonly (McpServerStatus & { readonly shadowedBy?: string })[]): McpWarning[] {
  return statuses
    .filter((s) => s.shadowedBy === undefined)
    .flatMap((s) => [
      ...(s.state === 'failed' || s.state === 'crashed' || s.state === 'restarting'
        ? [
            {
              server: s.name,
              state: s.state,
              reason: s.lastError ?? s.state,
              ...(s.stderrTail === undefined ? {} : { stderrTail: s.stderrTail }),
            },
          ]
        : []),
      ...(s.rejectedTools ?? []).map((r) => ({
        server: s.name,
        state: s.state,
        reason: `tool ${JSON.stringify(r.tool)} left out: ${r.reason}`,
      })),
    ]);
}

/**
 * Validates a `mcpServers` map with `@a3s-code/mcp`'s `parseMcpServers`. `where` (a config file)
 * is added to the message.
 * @throws McpConfigError (`MCP_CONFIG`) naming the key path, e.g. `mcpServers.fs.args[1]`.
 */
export function validateMcpServers(value: unknown, where?: string): McpServersConfig {
  try {
    return parseMcpServers(value, 'mcpServers');
  } catch (e) {
    if (where === undefined || !(e instanceof McpConfigError)) throw e;
    throw new McpConfigError(e.field, `${e.message.slice(e.field.length + 2)} (in ${where})`);
  }
}

/**
 * The session option `mcp` as read-only sources, in order: a manager is replaced by its `view()`,
 * so the session can list and call but never add, remove or close (tier 2).
 * @throws McpConfigError (`MCP_CONFIG`, field `mcp[i]`) for something that is not a source.
 */
export function inheritedSources(option: McpSource | readonly McpSource[] | undefined): McpSource[] {
  if (option === undefined) return [];
  const list: readonly unknown[] = Array.isArray(option) ? option : [option];
  return list.map((s, i) => {
    const candidate = s as Partial<McpManager> | null;
    if (typeof candidate?.view === 'function') return candidate.view();
    if (
      typeof candidate?.tools !== 'function' ||
      typeof candidate.serverNames !== 'function' ||
      typeof candidate.onChange !== 'function'
    ) {
      throw new McpConfigError(Array.isArray(option) ? `mcp[${i}]` : 'mcp', 'must be an McpManager or an McpSource');
    }
    return candidate as McpSource;
  });
}

/** Starts the agent-global manager of `servers` (a server that fails to start stays listed as `failed`). */
export async function startGlobalMcp(servers: McpServersConfig): Promise<McpManager | undefined> {
  if (Object.keys(servers).length === 0) return undefined;
  return McpManager.fromConfig(servers, { label: 'global' });
}

/** The MCP side of one session: its ordered sources and the tool source that mirrors them. */
export class SessionMcp {
  /** Global (read-only here) → private (owned by the session). */
  readonly sources: McpSources;
  #closed = false;

  private constructor(sources: McpSources) {
    this.sources = sources;
  }

  /**
   * Opens a session's sources over `global` and the host's `inherited` sources, and starts its
   * private `servers` (concurrently; a server that fails to start stays in `mcpStatus()` as
   * `failed`, like the global ones).
   */
  static async open(
    global: McpSource | undefined,
    servers: McpServersConfig,
    inherited: readonly McpSource[] = [],
  ): Promise<SessionMcp> {
    const sources = new McpSources({ ...(global === undefined ? {} : { global }), inherited });
    await Promise.all(
      Object.entries(servers)
        .filter(([, entry]) => entry.enabled !== false)
        .map(([name, entry]) => sources.addMcpServer(name, entry).catch(() => undefined)),
    );
    return new SessionMcp(sources);
  }

  /** The core `ToolSource` keeping a session in step with these sources (one resource `mcp.<server>` per server). */
  toolSource(): ToolSource {
    return mcpToolSource(this.sources);
  }

  /**
   * Adds and starts the private server `name` as a new generation of the session's catalog; a
   * server that could not be configured or started is reported by its own error (it was removed
   * again). After {@link close}: `SESSION_CLOSED`, like every other call on a closed session.
   */
  async addServer(
    session: { readonly catalog: SessionCapabilityCatalog; readonly sessionId: string },
    name: string,
    config: Readonly<Record<string, unknown>>,
    options: PrepareOptions,
  ): Promise<McpServerStatus> {
    if (this.#closed) throw new SessionClosedError(session.sessionId, 'session.addMcpServer');
    try {
      await session.catalog.prepare(mcpServerSteps(this.sources, name, config), options);
    } catch (e) {
      const cause = e instanceof CatalogPreparationError ? e.cause : undefined;
      if (!options.signal?.aborted && (cause instanceof McpConfigError || cause instanceof McpConnectionError))
        throw cause;
      throw e;
    }
    return this.sources.privateManager.status().find((s) => s.name === name) as McpServerStatus;
  }

  /** Closes the private servers (their process groups are gone when this resolves). */
  close(): Promise<void> {
    this.#closed = true;
    return this.sources.close();
  }
}
