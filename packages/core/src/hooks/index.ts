export { commandDecision, hookFailure, runHookCommand } from './hook-command.js';
export type { CommandDecision, HookCommandRun } from './hook-command.js';
export {
  HookBlockedError,
  MAX_STOP_CONTINUATIONS,
  preCompactBlock,
  runPreCompactHooks,
  runPromptHooks,
  runStopHooks,
} from './session-hooks.js';
export type {
  HookDecision,
  PreCompactHandler,
  PreCompactInput,
  PromptSubmitHandler,
  PromptSubmitInput,
  SessionHooks,
  StopHandler,
  StopInput,
} from './session-hooks.js';
export { commandPostHook, commandPreHook, compileHooks, DEFAULT_HOOK_TIMEOUT_MS } from './command-hooks.js';
export type { CodeConfigHooks, CommandHookConfig } from './hook-options.js';
