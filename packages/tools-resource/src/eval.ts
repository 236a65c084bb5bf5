/**
 * `@a3s-code/tools-resource/eval`: the persistent interpreter (`eval`). Importing it starts no
 * process: the session's kernel factory opens on the first `eval` call, and each language's
 * kernel starts on its first cell.
 */
export { evalToolPack, EVAL_TOOL_PACK_VERSION } from './eval/pack.js';
export {
  EVAL_RESOURCE,
  EVAL_INACTIVITY_MS,
  EVAL_MAX_OUTPUT_CHARS,
  evalResource,
  openEvalResource,
  resolveInterpreter,
} from './eval/eval-resource.js';
export type { EvalCellOptions, EvalResource, EvalResourceOptions, EvalRun } from './eval/eval-resource.js';
export type { BridgeReply, CellImage, CellResult, EvalLanguage } from './eval/kernel-process.js';
export { EvalToolError } from './eval/eval-errors.js';
export type { EvalToolErrorCode } from './eval/eval-errors.js';
export { evalTool } from './eval/eval-tool.js';
export type { EvalArgs } from './eval/eval-tool.js';
