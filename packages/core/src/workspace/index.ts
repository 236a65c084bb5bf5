export { WORKSPACE_CAPABILITIES, isWorkspaceCapability } from './capabilities.js';
export type { WorkspaceCapability, WorkspaceServiceCapability } from './capabilities.js';
export { emptyWorkspace } from './workspace-services.js';
export { findHostOutputs, isHostOutputNow, type HostOutputFile } from './host-outputs.js';
export {
  changedFiles,
  changesBetween,
  MAX_SNAPSHOT_FILES,
  SNAPSHOT_TIMEOUT_MS,
  snapshotWorkspace,
  snapshotWorkspaceWithin,
} from './workspace-snapshot.js';
export type { BoundedWorkspaceSnapshot, WorkspaceFileChanges, WorkspaceSnapshot } from './workspace-snapshot.js';
export type {
  CapturedStream,
  WorkspaceBackgroundProcess,
  WorkspaceCallOptions,
  WorkspaceFileIdentity,
  WorkspaceWriteOptions,
  WorkspaceDirEntry,
  WorkspaceExec,
  DeniedWrites,
  ExecHiding,
  HeldProcessCommand,
  ProcessCommand,
  WorkspaceExecRequest,
  WorkspaceExecResult,
  WorkspaceFileSystem,
  WorkspaceGit,
  WorkspaceGlobRequest,
  WorkspaceGrepMatch,
  WorkspaceGrepRequest,
  WorkspaceScanReport,
  WorkspaceSearch,
  WorkspaceServices,
  WorkspaceStat,
} from './workspace-services.js';
