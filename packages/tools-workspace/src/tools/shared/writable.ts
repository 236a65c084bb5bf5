/** Refuses write targets before any I/O: the lexical checks plus the protected `.a3s` folder. */
import type { ToolContext } from '@a3s-code/core';
import { assertWritable, normalizeWorkspacePath } from '../../paths/normalize.js';

/** Throws `WORKSPACE_PATH` (naming `field`) when `path` may not be written. */
export function assertWritableArg(ctx: ToolContext, path: string, field: string): void {
  assertWritable(normalizeWorkspacePath(path, { root: ctx.workspace.root, field }), field, path);
}
