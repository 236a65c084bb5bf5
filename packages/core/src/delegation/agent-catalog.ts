/**
 * The agents a session can delegate to: built-ins, then `<dir>/.a3s/agents/*.md` and each
 * configured `agentDirs` folder, then agents given in configuration; a later definition with the
 * same name replaces an earlier one. Read once, when the session is built. An agent file must be a
 * regular file of at most 1 MiB (a larger one is refused naming it, never read into memory).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDefinitionFile } from '../config/definition-file.js';
import {
  BUILTIN_AGENTS,
  defineAgent,
  parseAgentFile,
  type AgentDefinition,
  type AgentDefinitionInput,
} from './agent-definition.js';

/** The `.a3s/agents` folder of a workspace. */
export const WORKSPACE_AGENT_DIR = '.a3s/agents';

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** The agents of the `.md` files in `dir`, in file-name order (`source`: each file's path). */
function agentsIn(dir: string): AgentDefinition[] {
  return markdownFiles(dir).map((file) => parseAgentFile(readDefinitionFile(file, dir, 'agents folder'), file));
}

/**
 * The agents a workspace folder brings in its `.a3s/agents/*.md` files, read and checked exactly
 * as a session reads them (each definition's `source` is its file), in file-name order; none when
 * the folder has no such files. A host can weigh them (e.g. one naming its own `model`) before
 * opening a session there.
 * @throws SessionConfigurationError naming a bad file's field, as a session would.
 */
export function workspaceAgentDefinitions(workspaceDir: string): readonly AgentDefinition[] {
  return agentsIn(join(workspaceDir, WORKSPACE_AGENT_DIR));
}

/** Loads every agent definition of a session. @throws SessionConfigurationError naming a bad file's field. */
export function loadAgentCatalog(
  workspaceDir: string,
  agentDirs: readonly string[],
  configured: readonly AgentDefinitionInput[] = [],
): ReadonlyMap<string, AgentDefinition> {
  const out = new Map<string, AgentDefinition>();
  for (const a of BUILTIN_AGENTS) out.set(a.name, a);
  for (const dir of [join(workspaceDir, WORKSPACE_AGENT_DIR), ...agentDirs]) {
    for (const def of agentsIn(dir)) out.set(def.name, def);
  }
  configured.forEach((a, i) => {
    const def = defineAgent(a, `agents[${i}]`);
    out.set(def.name, def);
  });
  return out;
}
