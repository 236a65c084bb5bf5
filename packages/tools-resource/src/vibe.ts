/**
 * `@a3s-code/tools-resource/vibe`: background workers the agent conducts (`vibe_spawn`,
 * `vibe_send`, `vibe_wait`, `vibe_kill`, `vibe_list`). Importing it starts nothing: the roster
 * opens on the first `vibe_*` call, and each worker is a run of the session's worker port.
 */
export {
  createVibe,
  createVibeToolPack,
  vibeToolPack,
  VIBE_TOOL_PACK_NAME,
  VIBE_TOOL_PACK_VERSION,
} from './vibe/pack.js';
export type { Vibe, VibeToolPackOptions } from './vibe/pack.js';
export { VIBE_RESOURCE, vibeResource } from './vibe/vibe-resource.js';
export { VIBE_MODE_RESOURCE, VibeModeSwitch } from './vibe/vibe-mode.js';
export { VibeRoster } from './vibe/roster.js';
export { VIBE_MAX_WORKERS, VIBE_TIERS, VIBE_TOOL_NAMES } from './vibe/vibe-types.js';
export type { VibeRosterOptions, VibeTier, VibeWorkerStatus, VibeWorkerView } from './vibe/vibe-types.js';
export { VibeError } from './vibe/vibe-errors.js';
export type { VibeErrorCode } from './vibe/vibe-errors.js';
export { createVibeTools } from './vibe/vibe-tools.js';
export type { VibeKillArgs, VibeSendArgs, VibeSpawnArgs, VibeWaitArgs } from './vibe/vibe-tools.js';
