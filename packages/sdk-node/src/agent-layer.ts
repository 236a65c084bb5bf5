/**
 * The configuration a session starts from, per workspace folder: the SDK's defaults (the file
 * session store), then the folder's config file (`a3s.config.json` or `.a3s/config.json`, found
 * with core's `findConfigFile`, in a git repository in a folder above too, its rules then anchored
 * at its own folder) unless the agent was created from a file or with
 * `workspaceConfig: false`, then the agent's own configuration. Each distinct file gets one core
 * `Agent` and one agent-global MCP manager, built on first use and kept for the agent's life.
 * Unless the agent trusts the folders (`workspaceConfig: true`), a file that needs trust (see
 * {@link trustNeeds}) is refused before anything in it is built or started, and so is a session
 * on a folder whose `.a3s/agents` files name their own model (see {@link folderAgentNeeds}), also
 * with `workspaceConfig: false`.
 */
import { join, resolve } from 'node:path';
import {
  Agent as CoreAgent,
  configFolderOf,
  findConfigFile,
  loadCodeConfig,
  mergeLayers,
  normalizeLayer,
  rebaseConfig,
  type CodeConfig,
  WORKSPACE_AGENT_DIR,
} from '@a3s-code/core';
import type { McpManager } from '@a3s-code/mcp';
import { providerModelResolver } from '@a3s-code/providers';
import { AgentClosedError, WorkspaceUntrustedError } from './errors.js';
import { startGlobalMcp, validateMcpServers } from './mcp.js';
import { type FolderAgentNeed, folderAgentNeeds, trustNeeds } from './workspace-trust-needs.js';

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
  /**
   * Set when the file's only need of trust is its `model` and the folder is not trusted: a
   * session that names no model of its own (and so would use the file's) is refused.
   */
  readonly modelNeed: string | undefined;
}

/** A file that needs trust not given: nothing of it was built or started. */
interface Refused {
  readonly file: string;
  /** Its needs besides its `model`. */
  readonly needs: readonly string[];
  readonly modelNeed: string | undefined;
}

/**
 * How a folder's config file is used: not looked for (`off`), merged as it is (`trusted`), or
 * merged only when it needs no trust (`checked`, the default).
 */
export type WorkspaceConfigMode = 'off' | 'trusted' | 'checked';

/** Builds and caches the layers of one agent. */
export class AgentLayers {
  readonly #agentConfig: CodeConfig;
  readonly #mode: WorkspaceConfigMode;
  readonly #agentModel: boolean;
  readonly #layers = new Map<string, Promise<AgentLayer | Refused>>();
  #closed = false;

  /**
   * `agentConfig` is the agent's configuration without SDK-only keys (its `env` included);
   * `mode` says how the per-folder file is used; `agentModel`: the agent names its model, so a
   * file's `model` is not used and needs no trust.
   */
  constructor(agentConfig: CodeConfig, mode: WorkspaceConfigMode, agentModel: boolean) {
    this.#agentConfig = agentConfig;
    this.#mode = mode;
    this.#agentModel = agentModel;
  }

  /**
   * The layer for a session on the workspace folder `root`; `AGENT_CLOSED` once {@link close} was
   * called; `WORKSPACE_UNTRUSTED` when the folder's file needs trust not given (`modelChosen`: the
   * caller uses a model of its own, or none, so the file's `model` does not count), or, when
   * `folderAgents` (the session may delegate), when one of the folder's `.a3s/agents` files names
   * its own model and the agent does not trust the folders (`workspaceConfig: true`): whatever
   * `workspaceConfig: false` leaves out, those files are not the config file, and core loads them
   * for every session on the folder.
   */
  async for(root: string, modelChosen: boolean, folderAgents = false): Promise<AgentLayer> {
    // A session racing `agent.close()` must not start the global MCP servers again.
    if (this.#closed) throw new AgentClosedError();
    const file = this.#mode === 'off' ? undefined : await findConfigFile(root);
    // A file found in a folder above `root` is read with its rules anchored at its own folder.
    const above = file !== undefined && configFolderOf(file) !== resolve(root);
    const key = file === undefined ? '' : above ? `${file}\0above` : file;
    let layer = this.#layers.get(key);
    if (layer === undefined) {
      const building = this.#build(file, above);
      this.#layers.set(key, building);
      // A failed or refused file is read again by the next session (it may have been mended).
      const forget = () => this.#layers.get(key) === building && this.#layers.delete(key);
      building.then((l) => 'core' in l || forget(), forget);
      layer = building;
    }
    const built = await layer;
    // Read for every session (never cached): a file changed since is weighed as it is now.
    const agents = folderAgents && this.#mode !== 'trusted' ? folderAgentNeeds(root) : [];
    const modelNeeds = modelChosen || built.modelNeed === undefined ? [] : [built.modelNeed];
    if (!('core' in built)) throw untrusted(root, built.file, [...modelNeeds, ...built.needs], agents);
    const fileNeeds = built.file === undefined ? [] : modelNeeds;
    if (fileNeeds.length > 0 || agents.length > 0) throw untrusted(root, built.file, fileNeeds, agents);
    return built;
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
    await Promise.all(
      layers.map((l) => (l.status === 'fulfilled' && 'core' in l.value ? l.value.mcp?.close() : undefined)),
    );
  }

  async #build(file: string | undefined, above: boolean): Promise<AgentLayer | Refused> {
    let merged = normalizeLayer(SDK_DEFAULTS, 'SDK defaults');
    let fileModel: string | undefined;
    let fileVibe: CodeConfig['vibe'];
    let modelNeed: string | undefined;
    if (file !== undefined) {
      const read = await loadCodeConfig(file);
      const loaded = above ? rebaseConfig(read, configFolderOf(file), file) : read;
      const { model, vibe, ...fromFile } = loaded;
      // A file with a mistake is reported as such (naming the key) before its trust is weighed.
      validateMcpServers(fromFile.mcpServers, file);
      const layer = normalizeLayer(fromFile, `config file ${file}`);
      if (this.#mode === 'checked') {
        // Weighed on the very object merged below, never on a second read of the file.
        const env = this.#agentConfig.env ?? process.env;
        const needs = trustNeeds({ ...loaded, model: undefined });
        modelNeed = trustNeeds(
          { model },
          {
            ...(this.#agentModel ? { flag: 'agent' } : {}),
            ...(env.A3S_MODEL ? { env: env.A3S_MODEL } : {}),
          },
        )[0];
        if (needs.length > 0) return { file, needs, modelNeed };
      }
      fileModel = typeof model === 'string' ? model : undefined;
      fileVibe = vibe;
      merged = mergeLayers(merged, layer);
    }
    merged = mergeLayers(merged, normalizeLayer(this.#agentConfig, 'agent configuration'));
    const core = await CoreAgent.create(merged);
    const mcp = await startGlobalMcp(validateMcpServers(merged.mcpServers));
    return { file, fileModel, fileVibe, config: merged, core, mcp, modelNeed };
  }
}

/**
 * The refusal of the config file `file` (its `needs`) and of the folder's agent files naming a
 * model (`agents`), each need on a line of its own.
 */
function untrusted(
  root: string,
  file: string | undefined,
  needs: readonly string[],
  agents: readonly FolderAgentNeed[],
): WorkspaceUntrustedError {
  const list = (lines: readonly string[]) => lines.map((n) => `  - ${n}\n`).join('');
  const agentLines = agents.map((a) => a.need);
  const parts: string[] = [];
  if (file !== undefined && needs.length > 0)
    parts.push(
      `the workspace's config file ${file} needs the folder to be trusted; it would:\n${list(needs)}` +
        'Nothing in it was used or started. Read it: to use it (only for a folder you trust), pass `workspaceConfig: true` to Agent.create; to ignore it, pass `workspaceConfig: false`.',
    );
  if (agents.length > 0)
    parts.push(
      `the workspace's agent files (${join(root, WORKSPACE_AGENT_DIR)}) need the folder to be trusted; they would:\n${list(agentLines)}` +
        "Nothing was started and no model was called. Read them: to use them (only for a folder you trust), pass `workspaceConfig: true` to Agent.create (which uses the folder's config file too); `workspaceConfig: false` does not make them trusted, nor does creating the agent from a config path (create it from a configuration object with `workspaceConfig: true` instead). Without their `model` line such agents use the session's model and need no trust.",
    );
  return new WorkspaceUntrustedError(parts.join('\n'), {
    file: file !== undefined && needs.length > 0 ? file : (agents[0]?.file ?? root),
    needs: [...needs, ...agentLines],
  });
}
