/**
 * The configuration a session starts from, per workspace folder: the SDK's defaults (the file
 * session store), then the folder's config file (`a3s.config.json` or `.a3s/config.json`, found
 * with core's `findConfigFile`) unless the agent was created from a file or with
 * `workspaceConfig: false`, then the agent's own configuration. Each distinct file gets one core
 * `Agent` and one agent-global MCP manager, built on first use and kept for the agent's life.
 */
import {
  Agent as CoreAgent,
  findConfigFile,
  loadCodeConfig,
  mergeLayers,
  normalizeLayer,
  type CodeConfig,
} from '@a3s-code/core';
import type { McpManager } from '@a3s-code/mcp';
import { providerModelResolver } from '@a3s-code/providers';
import { AgentClosedError } from './errors.js';
import { startGlobalMcp, validateMcpServers } from './mcp.js';

/**
 * The SDK's defaults, below every other layer: sessions save to the file session store, and
 * `provider/model` names (sub-agents naming their own model) resolve through `@a3s-code/providers`.
 */
export const SDK_DEFAULTS: CodeConfig = Object.freeze({
  sessionStore: 'file' as const,
  modelResolver: providerModelResolver,
});

/** One configuration layer, ready to build sessions. */
export interface AgentLayer {
  /** The config file merged in, if any. */
  readonly file: string | undefined;
  /** The `model` the file names (resolved by the SDK, below the agent's and the options'). */
  readonly fileModel: string | undefined;
  /** The `vibe` setting the file names (tier models anchored at the file's folder), below the agent's and the options'. */
  readonly fileVibe: CodeConfig['vibe'];
  /** Defaults, file and agent configuration merged (without `model` and `vibe`: the SDK resolves them). */
  readonly config: CodeConfig;
  readonly core: CoreAgent;
  /** The agent-global MCP manager of this layer's `mcpServers`, when it has any. */
  readonly mcp: McpManager | undefined;
}

/** Builds and caches the layers of one agent. */
export class AgentLayers {
  readonly #agentConfig: CodeConfig;
  readonly #lookup: boolean;
  readonly #layers = new Map<string, Promise<AgentLayer>>();
  #closed = false;

  /** `agentConfig` is the agent's configuration without SDK-only keys; `lookup` enables the per-folder file. */
  constructor(agentConfig: CodeConfig, lookup: boolean) {
    this.#agentConfig = agentConfig;
    this.#lookup = lookup;
  }

  /** The layer for a session on the workspace folder `root`; `AGENT_CLOSED` once {@link close} was called. */
  async for(root: string): Promise<AgentLayer> {
    // A session racing `agent.close()` must not start the global MCP servers again.
    if (this.#closed) throw new AgentClosedError();
    const file = this.#lookup ? await findConfigFile(root) : undefined;
    const key = file ?? '';
    let layer = this.#layers.get(key);
    if (layer === undefined) {
      layer = this.#build(file);
      this.#layers.set(key, layer);
      layer.catch(() => this.#layers.delete(key));
    }
    return layer;
  }

  /** Validates the agent's configuration (no I/O): a bad key is a `SESSION_CONFIGURATION` error naming its path. */
  async validate(): Promise<void> {
    await CoreAgent.create(
      mergeLayers(
        normalizeLayer(SDK_DEFAULTS, 'SDK defaults'),
        normalizeLayer(this.#agentConfig, 'agent configuration'),
      ),
    );
  }

  /** Closes every agent-global MCP manager. */
  async close(): Promise<void> {
    this.#closed = true;
    const layers = await Promise.allSettled([...this.#layers.values()]);
    this.#layers.clear();
    await Promise.all(layers.map((l) => (l.status === 'fulfilled' ? l.value.mcp?.close() : undefined)));
  }

  async #build(file: string | undefined): Promise<AgentLayer> {
    let merged = normalizeLayer(SDK_DEFAULTS, 'SDK defaults');
    let fileModel: string | undefined;
    let fileVibe: CodeConfig['vibe'];
    if (file !== undefined) {
      const { model, vibe, ...fromFile } = await loadCodeConfig(file);
      validateMcpServers(fromFile.mcpServers, file);
      fileModel = typeof model === 'string' ? model : undefined;
      fileVibe = vibe;
      merged = mergeLayers(merged, normalizeLayer(fromFile, `config file ${file}`));
    }
    merged = mergeLayers(merged, normalizeLayer(this.#agentConfig, 'agent configuration'));
    const core = await CoreAgent.create(merged);
    const mcp = await startGlobalMcp(validateMcpServers(merged.mcpServers));
    return { file, fileModel, fileVibe, config: merged, core, mcp };
  }
}
