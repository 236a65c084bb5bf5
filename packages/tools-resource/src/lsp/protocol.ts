/** The few Language Server Protocol shapes the lsp pack reads (a subset of LSP 3.17). */

/** A zero-based position; `character` counts UTF-16 code units. */
export interface LspPosition {
  readonly line: number;
  readonly character: number;
}

/** A range of positions, end exclusive. */
export interface LspRange {
  readonly start: LspPosition;
  readonly end: LspPosition;
}

/** A location in a document. */
export interface LspLocation {
  readonly uri: string;
  readonly range: LspRange;
}

/** A location link (what `definition` may answer instead of locations). */
export interface LspLocationLink {
  readonly targetUri: string;
  readonly targetRange: LspRange;
  readonly targetSelectionRange: LspRange;
}

/** A diagnostic as published by a server. */
export interface LspDiagnostic {
  readonly range: LspRange;
  /** 1 error, 2 warning, 3 information, 4 hint. */
  readonly severity?: number;
  readonly code?: number | string;
  readonly source?: string;
  readonly message: string;
  /**
   * Set by this pack, never by a server: the diagnostic was computed from the file's own text
   * alone (a syntax error), so its message cannot quote another file.
   */
  readonly syntactic?: boolean;
}

/** A text edit. */
export interface LspTextEdit {
  readonly range: LspRange;
  readonly newText: string;
}

/** A workspace edit (the forms servers answer `rename` with). */
export interface LspWorkspaceEdit {
  readonly changes?: Record<string, readonly LspTextEdit[]>;
  readonly documentChanges?: readonly (
    | { readonly textDocument: { readonly uri: string }; readonly edits: readonly LspTextEdit[] }
    | { readonly kind: string }
  )[];
}

/** The severity names, by LSP severity number. */
export const SEVERITY_NAMES: Readonly<Record<number, string>> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };
