/** The eval pack: the `eval` tool (exec tier) and the session's kernel factory, opened on first use. */
import { defineToolPack, type ToolPack } from '@a3s-code/core';
import { type EvalResourceOptions, evalResource, evalResourceWith } from './eval-resource.js';
import { evalTool } from './eval-tool.js';

/** Version of the pack (the package version). */
export const EVAL_TOOL_PACK_VERSION = '0.1.0';

/** The eval pack: `eval` and its kernel factory. */
export const evalToolPack: ToolPack = defineToolPack({
  name: '@a3s-code/tools-resource/eval',
  version: EVAL_TOOL_PACK_VERSION,
  tools: [evalTool],
  resources: [evalResource],
});

/**
 * The eval pack with options for its kernel factory, e.g. the lookup of the conversation's
 * isolation sandbox (`evalToolPackWith({ sandbox })`). It has the default pack's name, so a host
 * registering it replaces the default.
 */
export function evalToolPackWith(options: Omit<EvalResourceOptions, 'sessionId' | 'ranBefore' | 'runOwner'>): ToolPack {
  return defineToolPack({
    name: evalToolPack.name,
    version: EVAL_TOOL_PACK_VERSION,
    tools: [evalTool],
    resources: [evalResourceWith(options)],
  });
}
