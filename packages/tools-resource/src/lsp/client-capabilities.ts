/**
 * What the client tells a language server it can do (`initialize`): workspace configuration and
 * folders, edits as document changes, saves, progress, and the answers the `lsp` operations ask for.
 */
export const CLIENT_CAPABILITIES = {
  workspace: { configuration: true, workspaceFolders: true, workspaceEdit: { documentChanges: true } },
  textDocument: {
    synchronization: { didSave: true },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    hover: { contentFormat: ['plaintext', 'markdown'] },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: false },
    codeAction: {
      codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } },
    },
  },
  window: { workDoneProgress: true },
} as const;
