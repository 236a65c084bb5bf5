/**
 * Workspace trust. A folder's `a3s.config.json` (or `.a3s/config.json`) comes with the folder: a
 * cloned repository's config can start MCP servers (commands) or connect to remote ones, run
 * hooks and required checks (shell commands), let tools run without asking, point a provider
 * at another address (which would receive the API key from the environment), choose the model
 * (a `scripted:` one is turns written in the folder) or add to what the model is told. Before
 * the CLI lets a config file do any of that, the person says
 * they trust the folder: once, with `--trust-workspace`, remembered per folder and per content of
 * its config file (a changed file asks again). A config file that does none of it needs no trust.
 * The folder's agent files (`.a3s/agents/*.md`) that name their own model need the same trust (a
 * delegation to one calls that model with your key), and their content is part of what is
 * remembered.
 * The record is `trusted-workspaces.json` in `$A3S_HOME` (default `~/.a3s`). What needs trust is
 * the SDK's `trustNeeds`; an agent the CLI creates after this check passed is told to use the file
 * (`workspaceConfig: true`).
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
import { basename, dirname, join } from 'node:path';
import { findConfigFile, loadCodeConfig, WORKSPACE_AGENT_DIR } from '@a3s-code/core';
import {
  type FolderAgentNeed,
  folderAgentNeeds,
  parseMcpServers,
  trustNeeds,
  WorkspaceUntrustedError,
} from '@a3s-code/sdk';
import { UsageError } from './errors.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

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
 * Refuses (a `UsageError`, exit 2) to go on in `workspace` when its config file, or one of its
 * agent files naming its own model (`.a3s/agents/*.md`, see `folderAgentNeeds`), needs trust that
 * was not given: `trust` (`--trust-workspace`), or a yes to `ask` where someone can answer, gives
 * it and records it. Returns at once when nothing in the folder needs trust.
 * `uses`, when given, are the only top-level keys of the file the command acts on (`a3s tools`
 * starts MCP servers and lists agents and skills, but calls no model): what the other keys would
 * do needs no trust for it, nor do the agent files' models.
 * Returns a warning to show when the trust was given but could not be remembered (a read-only
 * `$A3S_HOME`): the folder is trusted for this process only.
 */
export async function checkWorkspaceTrust(
  workspace: string,
  trust: boolean,
  env: Readonly<Record<string, string | undefined>>,
  ask?: (what: string) => Promise<boolean>,
  modelFlag?: string,
  uses?: readonly string[],
): Promise<string | undefined> {
  const file = await findConfigFile(workspace);
  let needs: string[] = [];
  if (file !== undefined) {
    // A config file with a mistake is reported as such (naming the key, line and column) first.
    const loaded = await loadCodeConfig(file);
    parseMcpServers(loaded.mcpServers);
    const chosen = {
      ...(modelFlag === undefined ? {} : { flag: modelFlag }),
      ...(env.A3S_MODEL ? { env: env.A3S_MODEL } : {}),
    };
    const used =
      uses === undefined ? loaded : Object.fromEntries(Object.entries(loaded).filter(([k]) => uses.includes(k)));
    needs = trustNeeds(used, chosen);
  }
  // Their only need is the model they name: a command acting on fewer keys than a session calls no model.
  const agents = uses === undefined ? folderAgentNeeds(workspace) : [];
  if (needs.length === 0 && agents.length === 0) return undefined;
  const folder = realpathSync(workspace);
  // Trust is for this content of the files: a changed one asks again.
  const digest = trustDigest(file, agents);
  const path = recordPath(env);
  const { record, problem } = readRecord(path);
  // A record that cannot be read trusts nothing, and is never written over: it holds other folders' trust.
  const damaged =
    problem === undefined
      ? ''
      : `\n(the trust record ${path} ${problem}, so no folder is trusted until it is mended or moved aside)`;
  if (record.workspaces[folder]?.config_sha256 === digest) return undefined;
  const many = (needs.length > 0 && file !== undefined ? 1 : 0) + agents.length > 1;
  const changed =
    record.workspaces[folder] === undefined ? '' : ` (${many ? 'they' : 'it'} changed since you trusted this folder)`;
  const subject = [
    ...(needs.length > 0 && file !== undefined ? [file] : []),
    ...(agents.length > 0 ? [`the agent files in ${join(folder, WORKSPACE_AGENT_DIR)}`] : []),
  ].join(' and ');
  const lines = [...needs, ...agents.map((a) => a.need)];
  const what = `${subject}${changed} would:\n${lines.map((n) => `  - ${n}`).join('\n')}`;
  if (!trust && ask !== undefined) {
    if (!(await ask(`${what}${damaged}`)))
      throw new WorkspaceUntrustedError(
        `${subject}: not trusted, so nothing was started and nothing of ${many ? 'them' : 'it'} was used. To work in this folder, trust it (answer y, or run again with --trust-workspace), or move ${many ? 'these files' : 'the file'} aside.`,
      );
  } else if (!trust) {
    throw new WorkspaceUntrustedError(
      `${what}\nRead ${many ? 'them' : 'it'}; if you trust this folder, run again with --trust-workspace (a3s serve: session/open with "trustWorkspace": true); remembered for this folder until these files change.${damaged}`,
    );
  }
  if (problem !== undefined) throw new UsageError(damagedRecord(path, problem));
  // The person trusted the folder: a record that cannot be written (a read-only home) only means
  // the trust is not remembered, and the next run asks again.
  const failure = saveTrust(folder, digest, path, record);
  return failure === undefined
    ? undefined
    : `warning: ${folder} is trusted for this run only: the trust could not be remembered in ${path} (${failure}), so the next run needs it again; set A3S_HOME to a folder you can write to (default ~/.a3s) to have it remembered`;
}

/**
 * The digest a folder's trust is recorded with: the sha256 of its config file, and, when agent
 * files need trust too, of each of them (name and content) after it, so that a changed, added or
 * removed one asks again. A folder with only a config file keeps the digest of that file alone.
 */
function trustDigest(file: string | undefined, agents: readonly FolderAgentNeed[]): string {
  const hash = createHash('sha256');
  if (file !== undefined) hash.update(readFileSync(file));
  for (const a of agents) hash.update(`\0${basename(a.file)}\0`).update(readFileSync(a.file));
  return hash.digest('hex');
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
  if (problem !== undefined) throw new UsageError(damagedRecord(path, problem));
  const failure = saveTrust(folder, digest, path, record);
  if (failure !== undefined)
    throw new UsageError(
      `A3S_HOME: cannot record the trust of this folder in ${path} (${failure}); set A3S_HOME to a folder you can write to (default ~/.a3s)`,
    );
}

/** Why the trust record at `path`, damaged as `problem` says, is not written over. */
function damagedRecord(path: string, problem: string): string {
  return `A3S_HOME: cannot record the trust of this folder: ${path} ${problem}, and writing a new record would lose the folders it trusts; mend it, or move it aside to start a new one; nothing was changed`;
}

/** Writes `record` with `folder` trusted at `digest` to `path`; returns why it could not (an error code), if so. */
function saveTrust(folder: string, digest: string, path: string, record: TrustRecord): string | undefined {
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
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
  return undefined;
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
