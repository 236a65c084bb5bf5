/**
 * `@a3s-code/tools-resource/eval`: the persistent interpreter (`eval`). Importing it starts no
 * process: the session's kernel factory opens on the first `eval` call, and each language's
 * kernel starts on its first cell, inside the conversation's isolation sandbox when the host
 * provides a lookup that finds one (`evalToolPackWith({ sandbox })`), on the host otherwise.
 */
export { evalToolPack, evalToolPackWith, EVAL_TOOL_PACK_VERSION } from './eval/pack.js';
export {
  EVAL_RESOURCE,
  EVAL_INACTIVITY_MS,
  EVAL_MAX_OUTPUT_CHARS,
  EVAL_MEMORY_ENV,
  EVAL_MEMORY_LIMIT_MB,
  evalResource,
  evalResourceWith,
  openEvalResource,
  resolveInterpreter,
} from './eval/eval-resource.js';
export type { EvalCellOptions, EvalResource, EvalResourceOptions, EvalRun } from './eval/eval-resource.js';
export type { BridgeReply, CellImage, CellResult, EvalLanguage } from './eval/kernel-types.js';
export { placeOf } from './eval/sandbox.js';
export type {
  EvalSandbox,
  EvalSandboxLookup,
  KernelLaunch,
  SandboxedCommand,
  SandboxLookupContext,
} from './eval/sandbox.js';
export { EvalToolError } from './eval/eval-errors.js';
export type { EvalToolErrorCode } from './eval/eval-errors.js';
export { evalTool } from './eval/eval-tool.js';
export type { EvalArgs } from './eval/eval-tool.js';
