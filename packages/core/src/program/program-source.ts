/**
 * Where a program's script comes from: inline `source`, or a workspace-relative `.js`
 * or `.mjs` `path` read through the workspace (which also refuses symlink escapes). Absolute
 * paths, `..` segments, other extensions and the runtime's own state folders under `.a3s/` are
 * refused before any I/O.
 */
import { STATE_FOLDER_NAME, STATE_SUBFOLDERS } from '../store/state-folder.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import { PROGRAM_LIMITS } from './program-args.js';
import { ProgramInvalidError } from './program-errors.js';

/** A script ready to run. */
export interface ProgramScript {
  readonly source: string;
  /** Name in stack traces: `program.js` for inline source, else the normalised path. */
  readonly file: string;
  /** Evaluate as an ES module. */
  readonly module: boolean;
}

const MODULE_SYNTAX = /^\s*(export\s|import\s*[\w{*])/m;

/** Checks a workspace-relative script path and returns it normalised (`/` separators, no `./`). */
export function checkScriptPath(path: string): string {
  const p = path.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p))
    throw new ProgramInvalidError('path', `must be relative to the workspace, got '${path}'`);
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  if (parts.includes('..'))
    throw new ProgramInvalidError('path', `must stay inside the workspace (no '..'), got '${path}'`);
  if (!/\.(m?js)$/.test(p)) throw new ProgramInvalidError('path', `must end in .js or .mjs, got '${path}'`);
  if (parts[0]?.toLowerCase() === STATE_FOLDER_NAME && STATE_SUBFOLDERS.includes(parts[1]?.toLowerCase() ?? ''))
    throw new ProgramInvalidError(
      'path',
      `must be outside the runtime's own state (${STATE_SUBFOLDERS.map((f) => `${STATE_FOLDER_NAME}/${f}/`).join(', ')}), got '${path}'`,
    );
  return parts.join('/');
}

/** Resolves the script of a call. */
export async function loadProgramScript(
  args: { readonly source?: string | undefined; readonly path?: string | undefined },
  workspace: WorkspaceServices,
  signal: AbortSignal,
): Promise<ProgramScript> {
  if (args.source !== undefined)
    return { source: args.source, file: 'program.js', module: MODULE_SYNTAX.test(args.source) };
  if (args.path === undefined) throw new ProgramInvalidError('source', 'give exactly one of source or path');
  const path = checkScriptPath(args.path);
  const fs = workspace.fs;
  if (fs === undefined || !workspace.capabilities.has('fs.read'))
    throw new ProgramInvalidError('path', 'this workspace cannot read files (no fs.read); pass the script as source');
  const stat = await fs.stat(path, { signal });
  if (stat === undefined || stat.kind !== 'file')
    throw new ProgramInvalidError('path', `no such file in the workspace: '${path}'`);
  if (stat.size > PROGRAM_LIMITS.maxSourceBytes)
    throw new ProgramInvalidError(
      'path',
      `the script is ${stat.size} bytes; at most ${PROGRAM_LIMITS.maxSourceBytes} allowed`,
    );
  const source = new TextDecoder('utf-8', { fatal: false }).decode(await fs.readFile(path, { signal }));
  return { source, file: path, module: path.endsWith('.mjs') || MODULE_SYNTAX.test(source) };
}
