/** Refuses write targets before any I/O: the lexical checks plus the protected `.a3s` folder. */
import { refusedBeforeChange, type ToolContext } from '@a3s-code/core';
import { WorkspaceFileError, WorkspacePathError } from '../../errors.js';
import { assertWritable, normalizeWorkspacePath } from '../../paths/normalize.js';

/**
 * Throws `WORKSPACE_PATH` (naming `field`) when `path` may not be written. The tools call it
 * before any I/O, so such a refusal changed nothing and is marked so for the completion gate.
 */
export function assertWritableArg(ctx: ToolContext, path: string, field: string): void {
  try {
    assertWritable(normalizeWorkspacePath(path, { root: ctx.workspace.root, field }), field, path);
  } catch (error) {
    throw error instanceof WorkspacePathError ? refusedBeforeChange(error) : error;
  }
  // A path that may be written but ends in `/` names a folder: a file of that name is not what was meant.
  if (path.endsWith('/'))
    throw refusedBeforeChange(
      new WorkspaceFileError(
        path,
        'is_directory',
        `${field} ends in "/", which names a directory, so nothing was written; allowed: the path of a file (no trailing "/")`,
      ),
    );
}
