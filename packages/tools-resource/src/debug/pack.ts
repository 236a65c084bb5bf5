/** The debug pack: the `debug` tool (exec tier) and the session's debug supervisor, opened on first use. */
import { defineToolPack, type ToolPack } from '@a3s-code/core';
import { debugResource } from './debug-resource.js';
import { debugTool } from './debug-tool.js';

/** Version of the pack (the package version). */
export const DEBUG_TOOL_PACK_VERSION = '0.1.0';

/** The debug pack: `debug` and its supervisor. */
export const debugToolPack: ToolPack = defineToolPack({
  name: '@a3s-code/tools-resource/debug',
  version: DEBUG_TOOL_PACK_VERSION,
  tools: [debugTool],
  resources: [debugResource],
});
