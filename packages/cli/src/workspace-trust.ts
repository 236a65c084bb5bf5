/**
 * Workspace trust. A folder's `a3s.config.json` (or `.a3s/config.json`) comes with the folder: a
 * cloned repository's config can start MCP servers (commands) or connect to remote ones, run
 * hooks and required checks (shell commands), let tools run without asking, point a provider
 * at another address (which would receive the API key from the environment), choose the model
 * (a `scripted:` one is turns written in the folder) or add to what the model is told. Before
 * the CLI lets a config file do any of that, the person says
 * they trust the folder: once, with `--trust-workspace`, remembered per folder and per content of
 * its config file (a changed file asks again). A config file that does none of it needs no trust.
 * The record is `trusted-workspaces.json` in `$A3S_HOME` (default `~/.a3s`).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { findConfigFile, loadCodeConfig, terminalText } from '@a3s-code/core';
import { parseMcpServers } from '@a3s-code/sdk';
import { UsageError, WorkspaceUntrustedError } from './errors.js';

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

/** Whose model a session uses without the config file: `--model`, else `A3S_MODEL`. */
export interface ChosenModel {
  /** `--model` (or a session's own `model`): the config file's model is then not used. */
  readonly flag?: string;
  /** `A3S_MODEL`, which the config file's model outranks. */
  readonly env?: string;
}

/**
 * What a config file would make happen that needs the folder to be trusted, one line each: what
 * runs, what the model is told, and which model (at which address, with which key) is called.
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

/** Where the trust record lives. */
function recordPath(env: Readonly<Record<string, string | undefined>>): string {
  return join(env.A3S_HOME || join(homedir(), '.a3s'), 'trusted-workspaces.json');
}

interface TrustRecord {
  readonly version: 1;
  readonly workspaces: Record<string, { readonly config_sha256: string; readonly trusted_at: string }>;
}

/** The record at `path`: none yet is an empty one; one that cannot be read says why (`problem`). */
function readRecord(path: string): { readonly record: TrustRecord; readonly problem?: string } {
  const empty: TrustRecord = { version: 1, workspaces: {} };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // None yet (its folder missing, or a file in the way): nothing to keep, and writing says why it cannot.
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { record: empty }
      : { record: empty, problem: `cannot be read (${code ?? 'error'})` };
  }
  try {
    const r = JSON.parse(text) as TrustRecord;
    if (isObj(r) && r.version === 1 && isObj(r.workspaces)) return { record: r };
    return { record: empty, problem: 'is not a trust record of version 1 ({"version": 1, "workspaces": {...}})' };
  } catch (e) {
    return { record: empty, problem: `is not valid JSON (${(e as Error).message})` };
  }
}

/**
 * Refuses (a `UsageError`, exit 2) to go on in `workspace` when its config file needs trust that
 * was not given: `trust` (`--trust-workspace`), or a yes to `ask` where someone can answer, gives
 * it and records it. Returns at once when the folder has no config file or the file needs none.
 * `uses`, when given, are the only top-level keys of the file the command acts on (`a3s tools`
 * starts MCP servers and lists agents and skills, but calls no model): what the other keys would
 * do needs no trust for it.
 */
export async function checkWorkspaceTrust(
  workspace: string,
  trust: boolean,
  env: Readonly<Record<string, string | undefined>>,
  ask?: (what: string) => Promise<boolean>,
  modelFlag?: string,
  uses?: readonly string[],
): Promise<void> {
  const file = await findConfigFile(workspace);
  if (file === undefined) return;
  // A config file with a mistake is reported as such (naming the key, line and column) first.
  const loaded = await loadCodeConfig(file);
  parseMcpServers(loaded.mcpServers);
  const chosen = {
    ...(modelFlag === undefined ? {} : { flag: modelFlag }),
    ...(env.A3S_MODEL ? { env: env.A3S_MODEL } : {}),
  };
  const used =
    uses === undefined ? loaded : Object.fromEntries(Object.entries(loaded).filter(([k]) => uses.includes(k)));
  const needs = trustNeeds(used, chosen);
  if (needs.length === 0) return;
  const folder = realpathSync(workspace);
  // Trust is for this content of the file: a changed file asks again.
  const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
  const path = recordPath(env);
  const { record, problem } = readRecord(path);
  // A record that cannot be read trusts nothing, and is never written over: it holds other folders' trust.
  const damaged =
    problem === undefined
      ? ''
      : `\n(the trust record ${path} ${problem}, so no folder is trusted until it is mended or moved aside)`;
  if (record.workspaces[folder]?.config_sha256 === digest) return;
  const changed = record.workspaces[folder] === undefined ? '' : ' (it changed since you trusted this folder)';
  const what = `${file}${changed} would:\n${needs.map((n) => `  - ${n}`).join('\n')}`;
  if (!trust && ask !== undefined) {
    if (!(await ask(`${what}${damaged}`)))
      throw new WorkspaceUntrustedError(`${file}: not trusted, so nothing was started; it was not used`);
  } else if (!trust) {
    throw new WorkspaceUntrustedError(
      `${what}\nRead it; if you trust this folder, run again with --trust-workspace (a3s serve: session/open with "trustWorkspace": true); remembered for this folder until the file changes.${damaged}`,
    );
  }
  writeTrust(folder, digest, path, record, problem);
}

/**
 * Records that the person trusts `workspace` with its config file `file` as it is now (`a3s init`
 * wrote it with the model they chose). Throws a `UsageError` saying why when it cannot.
 */
export function recordTrust(workspace: string, file: string, env: Readonly<Record<string, string | undefined>>): void {
  const path = recordPath(env);
  const { record, problem } = readRecord(path);
  const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
  writeTrust(realpathSync(workspace), digest, path, record, problem);
}

function writeTrust(folder: string, digest: string, path: string, record: TrustRecord, problem?: string): void {
  if (problem !== undefined)
    throw new UsageError(
      `A3S_HOME: cannot record the trust of this folder: ${path} ${problem}, and writing a new record would lose the folders it trusts; mend it, or move it aside to start a new one; nothing was changed`,
    );
  const workspaces = {
    ...record.workspaces,
    [folder]: { config_sha256: digest, trusted_at: new Date().toISOString() },
  };
  const temp = `${path}.${process.pid}.tmp`;
  try {
    makeFolder(dirname(path));
    writeFileSync(temp, `${JSON.stringify({ version: 1, workspaces }, null, 2)}\n`);
    renameSync(temp, path);
  } catch (e) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The folder is not there, or is a file: no temporary file was left.
    }
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `A3S_HOME: cannot record the trust of this folder in ${path} (${code ?? (e as Error).message}); set A3S_HOME to a folder you can write to (default ~/.a3s)`,
    );
  }
}

/**
 * Creates `dir` and the folders above it that are missing, one at a time (Node's recursive
 * `mkdir` loops forever under `/proc`). A file in the way is `ENOTDIR`.
 */
function makeFolder(dir: string): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error(`'${dir}' is not a folder`), { code: 'ENOTDIR' });
    return;
  }
  const parent = dirname(dir);
  if (parent !== dir) makeFolder(parent);
  mkdirSync(dir);
}
