/**
 * `McpSources`: a session's ordered MCP sources — the agent-global manager, the inherited
 * managers the host passed in, and the session's own private manager — assembled in that order.
 * A server name defined in a later source shadows the same name in earlier
 * ones, inside this session only; removing the private server exposes the inherited one again.
 * Only the private manager can change; siblings each have their own;
 * a sub-agent gets the same ordered sources, read-only, plus a private manager of its own.
 */
import type { Tool } from '@a3s-code/core';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { McpOwnershipError, McpServerUnavailableError } from './errors.js';
import { McpManager, type McpManagerOptions } from './mcp-manager.js';
import type { McpSource } from './mcp-source.js';
import type {
  McpPromptInfo,
  McpResourceInfo,
  McpServerStatus,
  McpSessionServerStatus,
  McpSourceTier,
} from './server-status.js';

/** Options of {@link McpSources}. */
export interface McpSourcesOptions {
  /** The agent-global source (pass `manager.view()`; never the manager itself). */
  readonly global?: McpSource;
  /** Sources the host passes in session options, in order; read-only. */
  readonly inherited?: readonly McpSource[];
  /** Options of the private manager this object creates and owns. */
  readonly private?: McpManagerOptions;
}

interface Layer {
  readonly tier: McpSourceTier;
  readonly source: McpSource;
}

/** The ordered sources of one session (or sub-agent). */
export class McpSources {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_McpSources`; people read `McpSources`.
    Object.defineProperty(this, 'name', { value: 'McpSources' });
  }
  readonly #global: McpSource | undefined;
  readonly #inherited: readonly McpSource[];
  readonly #private: McpManager;
  readonly #layers: readonly Layer[];
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: (() => void)[] = [];
  #cache: { tools: readonly Tool[]; byName: ReadonlyMap<string, Tool> } | undefined;

  constructor(options: McpSourcesOptions = {}) {
    this.#global = options.global;
    this.#inherited = Object.freeze([...(options.inherited ?? [])]);
    this.#private = new McpManager({ label: 'private', ...options.private });
    const layers: Layer[] = [];
    if (this.#global !== undefined) layers.push({ tier: 'global', source: this.#global });
    for (const source of this.#inherited) layers.push({ tier: 'inherited', source });
    layers.push({ tier: 'private', source: this.#private });
    this.#layers = Object.freeze(layers);
    for (const { source } of layers) this.#unsubscribe.push(source.onChange(() => this.#changed()));
  }

  /** The session's own manager, read-only to everyone else (siblings never see it). */
  get privateManager(): McpManager {
    return this.#private;
  }

  /** Live `add_mcp_server`: adds to the private manager only. */
  addMcpServer(name: string, config: unknown): Promise<McpServerStatus> {
    return this.#private.addServer(name, config);
  }

  /**
   * Live `remove_mcp_server`: removes from the private manager only. A name that exists only in
   * the global or an inherited source is refused with `MCP_OWNERSHIP`. Returns
   * `false` when the name is unknown everywhere.
   */
  async removeMcpServer(name: string): Promise<boolean> {
    if (this.#private.has(name)) return this.#private.removeServer(name);
    const owner = this.#layers.find((l) => l.tier !== 'private' && l.source.serverNames().includes(name));
    if (owner !== undefined) {
      throw new McpOwnershipError(
        name,
        `belongs to the ${owner.tier} source '${owner.source.label}'; a session can remove only the servers it added`,
      );
    }
    return false;
  }

  /** The assembled surface: global → inherited → private, later server names shadowing earlier ones. */
  tools(): readonly Tool[] {
    return this.#assemble().tools;
  }

  /** Surface names, in surface order. */
  toolNames(): readonly string[] {
    return this.tools().map((t) => t.name);
  }

  /** The tool named `name` on this surface. */
  tool(name: string): Tool | undefined {
    return this.#assemble().byName.get(name);
  }

  /** `mcpStatus()`: every server of every source (state, tool count, last error, stderr tail), with its tier and whether it is shadowed. */
  mcpStatus(): readonly McpSessionServerStatus[] {
    return this.status();
  }

  /** Same as {@link mcpStatus}. */
  status(): readonly McpSessionServerStatus[] {
    const out: McpSessionServerStatus[] = [];
    this.#layers.forEach((layer, i) => {
      for (const s of layer.source.status()) {
        const later = this.#layers.slice(i + 1).filter((l) => l.source.serverNames().includes(s.name));
        const by = later[later.length - 1]?.tier;
        out.push(Object.freeze({ ...s, source: layer.tier, ...(by === undefined ? {} : { shadowedBy: by }) }));
      }
    });
    return out;
  }

  /** Resources of the servers on the surface (shadowed servers excluded). */
  resources(): readonly McpResourceInfo[] {
    return this.#effective((l) => l.source.resources());
  }

  /** Prompts of the servers on the surface (shadowed servers excluded). */
  prompts(): readonly McpPromptInfo[] {
    return this.#effective((l) => l.source.prompts());
  }

  /** Reads a resource of the effective server named `server`. */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.#owner(server).readResource(server, uri, signal);
  }

  /** Gets a prompt of the effective server named `server`. */
  async getPrompt(
    server: string,
    name: string,
    args?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    return this.#owner(server).getPrompt(server, name, args, signal);
  }

  /** Calls `listener` after any source changes; returns its remover. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Sources for a delegated child agent: the same ordered sources, every one read-only
   * (this session's private manager becomes the child's last inherited source), and a new
   * private manager that the child owns. Closing the child never touches these managers.
   */
  delegate(options: { readonly private?: McpManagerOptions } = {}): McpSources {
    return new McpSources({
      ...(this.#global === undefined ? {} : { global: this.#global }),
      inherited: [...this.#inherited, this.#private.view()],
      ...(options.private === undefined ? {} : { private: options.private }),
    });
  }

  /**
   * Closes the private manager (killing its servers) and detaches from the other sources, which
   * it does not own. Listeners hear one last change, so a mirror (`syncMcpTools`) drops the
   * private servers' tools.
   */
  async close(): Promise<void> {
    const detach = this.#unsubscribe.splice(0);
    for (const u of detach) u();
    await this.#private.close();
    if (detach.length > 0) this.#changed();
    else this.#cache = undefined;
  }

  #winners(): Map<string, Layer> {
    const winner = new Map<string, Layer>();
    for (const layer of this.#layers) for (const name of layer.source.serverNames()) winner.set(name, layer);
    return winner;
  }

  #effective<T extends { readonly server: string }>(pick: (l: Layer) => readonly T[]): T[] {
    const winner = this.#winners();
    return this.#layers.flatMap((l) => pick(l).filter((item) => winner.get(item.server) === l));
  }

  #owner(server: string): McpSource {
    const layer = this.#winners().get(server);
    if (layer === undefined) throw new McpServerUnavailableError(server, 'not configured in this session');
    return layer.source;
  }

  #assemble(): { tools: readonly Tool[]; byName: ReadonlyMap<string, Tool> } {
    if (this.#cache !== undefined) return this.#cache;
    const winner = this.#winners();
    const byName = new Map<string, Tool>();
    for (const [server, layer] of winner) for (const tool of layer.source.toolsOf(server)) byName.set(tool.name, tool);
    this.#cache = { tools: Object.freeze([...byName.values()]), byName };
    return this.#cache;
  }

  #changed(): void {
    this.#cache = undefined;
    for (const l of [...this.#listeners]) l();
  }
}
