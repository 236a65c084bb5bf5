/**
 * `@a3s-code/tools-resource/lsp`: code intelligence from real language servers (`lsp`,
 * `lsp_rename`) and diagnostics on every write. Importing it starts no server and loads no
 * JSON-RPC code: `vscode-jsonrpc` loads when the first server starts, and a server starts only
 * when a file needs it and both its root marker and its binary are present.
 */
export { lspToolPack, LSP_TOOL_PACK_VERSION } from './lsp/pack.js';
export { LSP_RESOURCE, lspResource, openLspResource } from './lsp/lsp-resource.js';
export type { LspResource, LspResourceOptions } from './lsp/lsp-resource.js';
export { LspSupervisor } from './lsp/supervisor.js';
export type { Availability, ServedClient, ServerState } from './lsp/supervisor.js';
export type { CallHold, ServerLaunch } from './lsp/server-hold.js';
export { LspClient } from './lsp/client.js';
export { DIAGNOSTICS_CAP_MS, DIAGNOSTICS_QUIET_MS } from './lsp/document-diagnostics.js';
export { PROJECT_LOAD_CAP_MS, ProjectLoad } from './lsp/project-load.js';
export type { LoadLog } from './lsp/project-load.js';
export { LSP_SERVERS, lspServers, serverById, serverForPath } from './lsp/servers.js';
export type { LspServersOptions, ServerCommand, ServerSpec } from './lsp/servers.js';
export { LspError } from './lsp/lsp-errors.js';
export type { LspErrorCode } from './lsp/lsp-errors.js';
export { DiagnosticsLedger, ledgerKey } from './lsp/ledger.js';
export { diagnosticsOnWrite, DIAGNOSTICS_ON_WRITE_TOOLS } from './lsp/diagnostics-on-write.js';
export { warmOnRead } from './lsp/warm-on-read.js';
export { lspTool, LSP_OPERATIONS } from './lsp/lsp-tool.js';
export type { LspArgs } from './lsp/lsp-tool.js';
export { lspRenameTool } from './lsp/rename-tool.js';
export type { LspRenameArgs } from './lsp/rename-tool.js';
export type {
  LspDiagnostic,
  LspLocation,
  LspPosition,
  LspRange,
  LspTextEdit,
  LspWorkspaceEdit,
} from './lsp/protocol.js';
