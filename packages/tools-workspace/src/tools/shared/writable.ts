/**
 * Refuses write targets and texts before any I/O: the lexical checks plus the protected `.a3s`
 * folder, and texts that cannot be written as UTF-8.
 */
import { InvalidToolArgsError, refusedBeforeChange, type ToolContext } from '@a3s-code/core';
import { WorkspaceFileError, WorkspacePathError } from '../../errors.js';
import { assertWritable, normalizeWorkspacePath } from '../../paths/normalize.js';
import { loneSurrogateAt } from '../../paths/byte-names.js';

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
  // A path that may be written but ends in `/`, `/.` or `/..` names a folder: a file of that name is not what was meant.
  if (/(?:^|\/)\.\.?$/.test(path))
    throw refusedBeforeChange(
      new WorkspaceFileError(
        path,
        'is_directory',
        `${field} ends in "${path.endsWith('..') ? '..' : '.'}", which names a directory, so nothing was written; allowed: the path of a file (its last part a file name)`,
      ),
    );
  if (path.endsWith('/'))
    throw refusedBeforeChange(
      new WorkspaceFileError(
        path,
        'is_directory',
        `${field} ends in "/", which names a directory, so nothing was written; allowed: the path of a file (no trailing "/")`,
      ),
    );
}

/**
 * Throws `INVALID_TOOL_ARGS` naming `field` when `text` holds half of a character (a lone surrogate,
 * e.g. an emoji cut in two): written as UTF-8 it would silently become U+FFFD.
 */
export function assertWholeCharacters(tool: string, field: string, text: string): void {
  const at = loneSurrogateAt(text);
  if (at < 0) return;
  throw new InvalidToolArgsError(tool, [
    {
      field: `args.${field}`,
      message: `holds half of a character (lone UTF-16 surrogate \\u${text.charCodeAt(at).toString(16)} at index ${at}), which cannot be written as UTF-8, so nothing was written; send whole characters`,
    },
  ]);
}
