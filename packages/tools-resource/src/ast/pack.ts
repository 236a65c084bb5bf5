/**
 * The ast tool pack: `ast_grep` (read), `ast_edit` and `resolve` (write), all requiring the
 * session's ast resource, which opens on the first call of one of them.
 */
import { defineToolPack, type ToolPack } from '@a3s-code/core';
import { astEditTool } from './ast-edit-tool.js';
import { astGrepTool } from './ast-grep-tool.js';
import { astResource } from './ast-resource.js';
import { resolveTool } from './resolve-tool.js';

/** Version of the pack (the package version). */
export const AST_TOOL_PACK_VERSION = '0.1.0';

/** The ast pack the SDK registers by default. */
export const astToolPack: ToolPack = defineToolPack({
  name: '@a3s-code/tools-resource/ast',
  version: AST_TOOL_PACK_VERSION,
  tools: [astGrepTool, astEditTool, resolveTool],
  resources: [astResource],
});
