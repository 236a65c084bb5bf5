export { createProgramTool } from './program-tool.js';
export type { ProgramToolOptions } from './program-tool.js';
export { PROGRAM_DEFAULT_DENIED_TOOLS, PROGRAM_LIMITS } from './program-args.js';
export type { ProgramArgs, ProgramLimits } from './program-args.js';
export {
  ProgramError,
  ProgramInvalidError,
  ProgramMemoryLimitError,
  ProgramRuntimeError,
  ProgramScriptChangedError,
  ProgramStackLimitError,
  ProgramSyntaxError,
  ProgramTimeoutError,
  ProgramToolCallLimitError,
} from './program-errors.js';
export type { ProgramErrorCode, ProgramErrorLocation, ProgramScriptChange } from './program-errors.js';
export type { ModelChange, ModelChangesOf } from './script-pins.js';
export type { ProgramCallRecord } from './ctx-bridge.js';
export type { ProgramRunStats } from './program-output.js';
