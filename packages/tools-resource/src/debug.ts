/**
 * `@a3s-code/tools-resource/debug`: the `debug` tool over the Debug Adapter Protocol (debugpy,
 * delve, lldb-dap, dart). Importing it starts nothing: the supervisor opens on the first `debug`
 * call, and an adapter starts on `launch` or `attach`.
 */
export { debugToolPack, DEBUG_TOOL_PACK_VERSION } from './debug/pack.js';
export { DEBUG_RESOURCE, DEBUG_SESSION_TTL_MS, debugResource, openDebugResource } from './debug/debug-resource.js';
export type { DebugResource, DebugResourceOptions } from './debug/debug-resource.js';
export { ADAPTER_IDS, adapterForProgram, debugpyCandidates, listAdapters, resolveAdapter } from './debug/adapters.js';
export type {
  AdapterAvailability,
  AdapterCommand,
  AdapterId,
  AdapterTransport,
  AttachTarget,
} from './debug/adapters.js';
export { DapConnection } from './debug/dap-connection.js';
export type { DapEvent } from './debug/dap-connection.js';
export { DebugSession } from './debug/debug-session.js';
export type { DebugState, ProcessHold } from './debug/debug-session.js';
export { DebugToolError } from './debug/debug-errors.js';
export type { DebugToolErrorCode } from './debug/debug-errors.js';
export {
  DEBUG_MAX_FRAMES,
  DEBUG_MAX_OUTPUT_CHARS,
  DEBUG_MAX_VALUE_CHARS,
  DEBUG_MAX_VARIABLES,
} from './debug/operations.js';
export { DEBUG_OPERATIONS, debugTool } from './debug/debug-tool.js';
export type { DebugArgs } from './debug/debug-tool.js';
