/**
 * What a workspace folder's config file (`a3s.config.json` or `.a3s/config.json`) would make a
 * session do that needs the folder to be trusted. The file comes with the folder: a cloned
 * repository's config can start MCP servers (commands) or connect to remote ones, run hooks and
 * required checks (shell commands), let tools run without asking, point a provider at another
 * address (which would receive the API key from the environment), choose the model (a
 * `scripted:` one is turns written in the folder) or add to what the model is told. A pure
 * function of the loaded file: the SDK refuses such a file unless the host trusts the folder
 * (`workspaceConfig: true`), and the CLI asks the person (`--trust-workspace`).
 */
import { basename } from 'node:path';
import { terminalText, WORKSPACE_AGENT_DIR, workspaceAgentDefinitions } from '@a3s-code/core';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const shown = (v: unknown): string => terminalText(String(v)).slice(0, 120);

/** The models a config file names outside its top-level `model`: its agents' and vibe tiers'. */
function namedModels(config: Obj, needs: string[]): void {
  if (Array.isArray(config.agents) && config.agents.length > 0) {
    const names = config.agents.map((a) => (isObj(a) ? shown(a.name) : '?')).join(', ');
    needs.push(`agents defines ${names}: the instructions, tools and model of agents the model may delegate to`);
  }
  const vibe = config.vibe;
  if (isObj(vibe) && isObj(vibe.tiers))
    for (const [tier, ref] of Object.entries(vibe.tiers))
      if (typeof ref === 'string')
        needs.push(`vibe.tiers.${shown(tier)} has vibe mode's ${shown(tier)} work done by ${shown(ref)}`);
}

/**
 * What the config file says the model is told, and where instructions come from: `system`,
 * `skillDirs`, `agentDirs`.
 */
function toldToModel(config: Obj, needs: string[]): void {
  if (Array.isArray(config.system) && config.system.length > 0)
    needs.push(
      `system adds ${config.system.length === 1 ? 'a line' : `${config.system.length} lines`} of its own to what the model is told`,
    );
  for (const key of ['skillDirs', 'agentDirs'] as const) {
    const dirs = config[key];
    if (Array.isArray(dirs) && dirs.length > 0)
      needs.push(
        `${key} has the model follow ${key === 'skillDirs' ? 'skills' : 'agent definitions'} from ${dirs.map(shown).join(', ')}`,
      );
  }
}

/** What runs: MCP servers, hooks and required checks. */
function runs(config: Obj, needs: string[]): void {
  if (isObj(config.mcpServers))
    for (const [name, s] of Object.entries(config.mcpServers))
      if (isObj(s) && typeof s.command === 'string') {
        const args = Array.isArray(s.args) ? ` ${s.args.map(String).join(' ')}` : '';
        needs.push(`mcpServers.${shown(name)} starts the command \`${shown(`${s.command}${args}`)}\``);
      } else if (isObj(s) && typeof s.url === 'string')
        needs.push(
          `mcpServers.${shown(name)} connects to ${shown(s.url)}${isObj(s.headers) ? ' with the headers it sets' : ''} and offers its tools to the model`,
        );
  if (isObj(config.hooks))
    for (const [event, list] of Object.entries(config.hooks))
      if (Array.isArray(list))
        list.forEach((h, i) => {
          if (isObj(h) && typeof h.command === 'string')
            needs.push(`hooks.${shown(event)}[${i}] runs \`${shown(h.command)}\``);
        });
  const gate = config.gate;
  if (isObj(gate) && Array.isArray(gate.requiredChecks))
    gate.requiredChecks.forEach((c, i) => {
      if (isObj(c) && typeof c.command === 'string')
        needs.push(`gate.requiredChecks[${i}] runs \`${shown(c.command)}\` in every verify call`);
    });
}

/** Whose model a session uses without the config file: the host's (or `--model`), else `A3S_MODEL`. */
export interface ChosenModel {
  /**
   * The model the host chose (`--model`, the agent's `model`, or a session's own `model`): the
   * config file's model is then not used, so it needs no trust.
   */
  readonly flag?: string;
  /** `A3S_MODEL`, which the config file's model outranks: the same model there needs no trust. */
  readonly env?: string;
}

/**
 * What a loaded config file would make happen that needs the folder to be trusted, one line
 * each: what runs (MCP server commands and remote servers, hooks, `gate.requiredChecks`), which
 * tool calls run without asking (`permissions.allow`, `permissions.defaultDecision: "allow"`),
 * what the model is told (`system`, `skillDirs`, `agentDirs`, `agents`), and which model is called
 * at which address with which key (`model` unless `chosen` names another, `vibe.tiers`,
 * `providers.<id>.baseUrl` / `headers` / `apiKeyEnv`). Empty for a file that needs no trust
 * (e.g. only `toolBudget`, `pricing`, `deny` / `ask` rules). Pass the object that will be used,
 * not a second read of the file.
 */
export function trustNeeds(config: unknown, chosen: ChosenModel = {}): string[] {
  if (!isObj(config)) return [];
  const needs: string[] = [];
  const model = config.model;
  if (typeof model === 'string' && chosen.flag === undefined && model !== chosen.env) {
    const instead = chosen.env === undefined ? '' : ` instead of A3S_MODEL (${shown(chosen.env)})`;
    needs.push(
      model.startsWith('scripted:')
        ? `model "${shown(model)}" has the turns written in that file drive the session${instead}, not a model you chose`
        : `model "${shown(model)}" chooses the model (and provider, with your key for it) your prompts and files are sent to${instead}`,
    );
  }
  namedModels(config, needs);
  toldToModel(config, needs);
  runs(config, needs);
  const p = config.permissions;
  if (isObj(p)) {
    if (Array.isArray(p.allow) && p.allow.length > 0)
      needs.push(`permissions.allow lets ${p.allow.map(shown).join(', ')} run without asking`);
    if (p.defaultDecision === 'allow')
      needs.push('permissions.defaultDecision "allow" lets every tool run without asking');
  }
  if (isObj(config.providers))
    for (const [id, settings] of Object.entries(config.providers))
      if (isObj(settings))
        for (const key of ['baseUrl', 'headers', 'apiKeyEnv'] as const)
          if (settings[key] !== undefined)
            needs.push(`providers.${shown(id)}.${key} changes where the model is called, or with which key`);
  return needs;
}

/** An agent file of a workspace folder that needs the folder to be trusted. */
export interface FolderAgentNeed {
  /** The file (`<folder>/.a3s/agents/<name>.md`). */
  readonly file: string;
  /** What it would make a session do, one line. */
  readonly need: string;
}

/**
 * The agent files a workspace folder brings (`.a3s/agents/*.md`, which every session there loads)
 * that name their own `model`: a delegation to such an agent calls that model, with the key
 * for its provider from the environment, a model the person never chose. One entry per file, in
 * file-name order; an agent file without `model` needs no trust (its instructions are text like
 * any file the model reads). The files are read with core's own reader.
 * @throws SessionConfigurationError naming a malformed file's field, as a session would.
 */
export function folderAgentNeeds(workspaceDir: string): FolderAgentNeed[] {
  return workspaceAgentDefinitions(workspaceDir).flatMap((def) =>
    def.model === undefined
      ? []
      : [
          {
            file: def.source,
            need: `${WORKSPACE_AGENT_DIR}/${shown(basename(def.source))} has the sub-agent '${shown(def.name)}' use model '${shown(def.model)}' (called with your key for that provider)`,
          },
        ],
  );
}
