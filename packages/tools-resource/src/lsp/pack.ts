/**
 * The lsp tool pack: `lsp` (read), `lsp_rename` (write), the diagnostics-on-write middleware,
 * and the session's language-server supervisor as the `resource.lsp` resource.
 */
import { defineToolPack, type ToolPack } from '@a3s-code/core';
import { diagnosticsOnWrite } from './diagnostics-on-write.js';
import { lspResource } from './lsp-resource.js';
import { lspTool } from './lsp-tool.js';
import { lspRenameTool } from './rename-tool.js';
import { warmOnRead } from './warm-on-read.js';

/** Version of the pack (the package version). */
export const LSP_TOOL_PACK_VERSION = '0.1.0';

/** The lsp pack the SDK registers by default. */
export const lspToolPack: ToolPack = defineToolPack({
  name: '@a3s-code/tools-resource/lsp',
  version: LSP_TOOL_PACK_VERSION,
  tools: [lspTool, lspRenameTool],
  middleware: [diagnosticsOnWrite, warmOnRead],
  resources: [lspResource],
});
