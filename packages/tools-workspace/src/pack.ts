/**
 * The workspace tool pack: the nine tools with their tiers, scheduling capabilities and the
 * workspace capabilities each requires. A session registers each tool only when its workspace
 * declares what the tool `requires`: a `MemoryWorkspace` gets the file tools and
 * `grep`/`glob`, never `bash` or `git`.
 */
import { defineToolPack, type Tool, type ToolPack, type WorkspaceServices } from '@a3s-code/core';
import { bashTool } from './tools/bash/bash-tool.js';
import { editTool } from './tools/edit/edit-tool.js';
import { gitTool } from './tools/git/git-tool.js';
import { globTool } from './tools/glob/glob-tool.js';
import { grepTool } from './tools/grep/grep-tool.js';
import { lsTool } from './tools/ls/ls-tool.js';
import { patchTool } from './tools/patch/patch-tool.js';
import { readTool } from './tools/read/read-tool.js';
import { writeTool } from './tools/write/write-tool.js';

/** Version of the pack (the package version). */
export const WORKSPACE_TOOL_PACK_VERSION = '0.1.0';

/** Every workspace tool, in surface order. */
export const workspaceTools: readonly Tool[] = Object.freeze([
  readTool,
  writeTool,
  editTool,
  patchTool,
  grepTool,
  globTool,
  lsTool,
  bashTool,
  gitTool,
]);

/** The pack the SDK registers. */
export const workspaceToolPack: ToolPack = defineToolPack({
  name: '@a3s-code/tools-workspace',
  version: WORKSPACE_TOOL_PACK_VERSION,
  tools: workspaceTools,
});

/** The tools of the pack a workspace can serve: those whose `requires` it declares. */
export function toolsFor(workspace: Pick<WorkspaceServices, 'capabilities'>): Tool[] {
  const have = workspace.capabilities as ReadonlySet<string>;
  return workspaceTools.filter((t) => (t.requires ?? []).every((cap) => have.has(cap)));
}
