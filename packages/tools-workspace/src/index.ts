/**
 * `@a3s-code/tools-workspace`: the `WorkspaceServices` backends and the workspace tool pack.
 */
export {
  WorkspaceConfigurationError,
  WorkspaceFileError,
  WorkspacePathError,
  WorkspaceProcessError,
  WorkspaceSearchError,
  type WorkspaceFileProblem,
  type WorkspacePathProblem,
} from './errors.js';
export { LocalWorkspace } from './local/local-workspace.js';
export type { LocalWorkspaceOptions, OptionalLocalService } from './local/local-workspace.js';
export type { LocalSearchEngine } from './local/local-search.js';
export { MemoryWorkspace } from './memory/memory-workspace.js';
export type { MemoryWorkspaceOptions } from './memory/memory-workspace.js';
export type { FastWorkspaceSearch, GrepFileCount, GrepPage, GrepPosition } from './search/search-types.js';
export { JsSearch } from './search/js-search.js';
export { workspaceToolPack, workspaceTools, toolsFor } from './pack.js';
export { readTool } from './tools/read/read-tool.js';
export { writeTool } from './tools/write/write-tool.js';
export { editTool, EditMatchError } from './tools/edit/edit-tool.js';
export { patchTool, PatchApplyError } from './tools/patch/patch-tool.js';
export { grepTool } from './tools/grep/grep-tool.js';
export { globTool } from './tools/glob/glob-tool.js';
export { lsTool } from './tools/ls/ls-tool.js';
export { bashTool } from './tools/bash/bash-tool.js';
export { gitTool } from './tools/git/git-tool.js';
export { GIT_OPERATIONS } from './tools/git/git-schema.js';
export type { GitOperation } from './tools/git/git-schema.js';
export { GitCommandError } from './tools/git/git-run.js';
export { S3Workspace, DEFAULT_MAX_SCAN_OBJECTS } from './s3/s3-workspace.js';
export type { S3WorkspaceOptions } from './s3/s3-workspace.js';
export type { S3Credentials } from './s3/sigv4.js';
export { ObjectStoreError } from './s3/object-store-error.js';
export type { JsSearchScanCap } from './search/js-search.js';
