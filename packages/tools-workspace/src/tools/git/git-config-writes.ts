/**
 * `git` keeps off the agent's configuration as the file tools do (`assertWritable`): the
 * workspace's `a3s.config.json`, its `.a3s/` folder (`config.json`, `instructions.md`, `agents/`,
 * `skills/`), and the same in any subfolder, where a session opened on that subfolder applies
 * them. A checkout of an older commit, a stash that puts a changed or untracked configuration
 * back or takes it away, or a worktree that writes a copy of one would hand later sessions other
 * permission rules, hooks and MCP servers than the person running the agent set, whatever the
 * call's own rules (YOLO included). Before such an operation runs, the files it would change
 * (`git-changes.ts`) are held to those paths; one refuses the whole operation.
 *
 * Each path is judged as written, in Unicode's composed form, and in its compatibility form (a
 * long `ſ` is an `s` to a file system that folds letter case), by the file tools' own checks
 * (letter case as they take it), both from the workspace and from the repository's top folder.
 */
import { PermissionDeniedError, type ToolContext } from '@a3s-code/core';
import {
  isNestedConfigPath,
  isProtectedPath,
  isRootConfigPath,
  PROTECTED_DIR,
  ROOT_CONFIG_FILES,
} from '../../paths/normalize.js';
import type { ChangedFile } from './git-changes.js';
import type { GitArgs } from './git-schema.js';

/** The spellings of `rel` a file system may take for the same name. */
function spellings(rel: string): string[] {
  if (/^[\x00-\x7f]*$/.test(rel)) return [rel];
  return [...new Set([rel, rel.normalize('NFC'), rel.normalize('NFKC')])];
}

/** Why `rel` (relative to the workspace or the repository) is the agent's configuration, or `undefined`. */
export function configWhy(rel: string): string | undefined {
  if (rel === '..' || rel.startsWith('../')) return undefined;
  for (const spelled of spellings(rel)) {
    if (isProtectedPath(spelled))
      return `inside the private ${PROTECTED_DIR}/ folder (the agent's configuration, instructions, agents and skills, and the session's state)`;
    if (isRootConfigPath(spelled))
      return "the workspace's configuration file (its permission rules, hooks and MCP servers apply to later sessions)";
    if (isNestedConfigPath(spelled))
      return `an agent configuration in a subfolder (an ${ROOT_CONFIG_FILES.join(', ')} or something in a ${PROTECTED_DIR}/ folder: a session opened on that subfolder applies its permission rules, hooks and MCP servers)`;
  }
  return undefined;
}

/**
 * Refuses (`PERMISSION_DENIED`, before anything runs) an operation whose `changed` files include
 * the agent's configuration at any depth, naming the first such file and why it is kept.
 */
export async function refuseConfigWrites(
  ctx: ToolContext,
  args: GitArgs,
  changed: readonly ChangedFile[],
): Promise<void> {
  const kept = changed
    .map((file) => ({ file, why: configWhy(file.workspace) ?? configWhy(file.repo) }))
    .filter((k): k is { file: ChangedFile; why: string } => k.why !== undefined);
  const first = kept[0];
  if (first === undefined) return;
  const path = first.file.workspace.startsWith('../') ? first.file.repo : first.file.workspace;
  const hidden = ctx.workspace.readDenied;
  const shown = hidden !== undefined && (await hidden(path)) !== undefined ? 'a file this session may not read' : path;
  const more = kept.length > 1 ? ` (and ${kept.length - 1} more such file${kept.length > 2 ? 's' : ''})` : '';
  throw new PermissionDeniedError(
    'git',
    `git ${args.operation}${args.action === undefined ? '' : ` ${args.action}`} would change ${shown}${more}, ${first.why}, which tools may not change (the person running the agent edits it); nothing was changed`,
  );
}
