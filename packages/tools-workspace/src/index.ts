/**
 * `@a3s-code/tools-workspace`: the `WorkspaceServices` backends and the workspace tool pack.
 */
export * from './errors.js';
export { LocalWorkspace } from './local/local-workspace.js';
export type { LocalWorkspaceOptions, OptionalLocalService } from './local/local-workspace.js';
export type { LocalSearchEngine } from './local/local-search.js';
export { MemoryWorkspace } from './memory/memory-workspace.js';
export type { MemoryWorkspaceOptions } from './memory/memory-workspace.js';
export { normalizeWorkspacePath, isProtectedPath, PROTECTED_DIR } from './paths/normalize.js';
export { comparePaths } from './search/path-order.js';
export { isFastSearch } from './search/search-types.js';
export type { FastWorkspaceSearch, GrepFileCount } from './search/search-types.js';
export { JsSearch } from './search/js-search.js';
