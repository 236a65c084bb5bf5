/**
 * The agent's configuration in the workspace's subfolders. A session opened on a subfolder reads
 * its `a3s.config.json` (else `.a3s/config.json`), `.a3s/instructions.md`, `.a3s/agents/` and
 * `.a3s/skills/`: their permission rules, hooks, MCP servers, model and instructions apply to
 * it. A command a rule allows without asking is held to them as to the root's (see
 * `protected-writes.ts`): those that exist are read-only for it, and what it creates is removed
 * after it. They may be at any depth, so every folder of the workspace is looked at, before and
 * after each such command (see `folder-walk.ts`; the look after a command is shared with the
 * check of nested repositories' settings).
 *
 * Cost: the first search of a workspace lists every folder; a later one `lstat`s each folder and
 * lists again only those changed. For 18,600 folders holding 200,000 entries, on two cores under
 * a load of 17: the first search took 4 s, each later one 0.4 s. Over
 * {@link NESTED_CONFIG_FOLDER_LIMIT} folders the search fails and the command is not run (fail
 * closed). Symbolic links, `.git` and `node_modules` folders are not followed, and a `.a3s` folder
 * is not searched below its configuration entries.
 */
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import { FOLDER_WALK_LIMIT, isStateName, walkFolders } from './folder-walk.js';

/** Most folders a search looks at before it fails (and the command is not run). */
export const NESTED_CONFIG_FOLDER_LIMIT = FOLDER_WALK_LIMIT;

const held = new WeakSet<PermissionPolicy>();

/** Marks `policy` as holding its commands to the agent's configuration in every subfolder. */
export function holdNestedConfigs(policy: PermissionPolicy): void {
  held.add(policy);
}

/** True when `policy` holds its commands to the agent's configuration in every subfolder. */
export function holdsNestedConfigs(policy: PermissionPolicy): boolean {
  return held.has(policy);
}

/**
 * The agent's configuration entries below `root` (a real, absolute folder path), as absolute
 * paths: each `a3s.config.json` in a subfolder, and in each subfolder's `.a3s` its configuration
 * entries (the `.a3s` itself where it is not a folder). Throws `RangeError` over `limit` folders.
 * With `since` (a `process.hrtime.bigint()` reading), a look through the folders begun since is
 * used if there is one.
 */
export async function nestedConfigs(
  root: string,
  limit = NESTED_CONFIG_FOLDER_LIMIT,
  since?: bigint,
): Promise<string[]> {
  const base = root.replace(/\/+$/, '');
  const walk = await walkFolders(base, since, limit);
  const found: string[] = [];
  for (const [rel, folder] of walk) {
    // The root's own configuration and `.a3s` are held by the rules of `protected-writes.ts`.
    if (rel === '' || folder.configs.length === 0) continue;
    // In a subfolder's `.a3s` only its own configuration entries count, not what is below them.
    const parts = rel.split('/');
    const state = parts.findIndex(isStateName);
    if (state !== -1 && (state === 0 || state !== parts.length - 1)) continue;
    for (const name of folder.configs) found.push(`${base}/${rel}/${name}`);
  }
  return found.sort();
}
