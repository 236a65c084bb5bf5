/**
 * A tool's scheduling capabilities and their defaults. A leaf module: the tool contract and the
 * invoker's types both name them.
 */

/** The shape of a tool's output text, as a hint for renderers and schedulers. */
export type ToolOutputType = 'text' | 'json' | 'diff' | 'binary';

/** Per-call scheduling capabilities. Unknown ones are treated conservatively. */
export interface ToolCapabilities {
  /** The call has no side effects. Only read-only, idempotent calls fan out in `batch`. */
  readonly readOnly: boolean;
  /** Running the call twice has the same effect as once. */
  readonly idempotent: boolean;
  /** A call interrupted by a crash can be run again on resume. */
  readonly resumable: boolean;
  /** Aborting the call through its signal leaves no partial effect behind. */
  readonly cancelSafe: boolean;
  /** The output carries a continuation cursor when incomplete. */
  readonly paginated: boolean;
  /** Calls of this tool that may run at once across the invoker, `1..1024`. */
  readonly maxParallelism: number;
  /** The kind of output text. */
  readonly outputType: ToolOutputType;
}

/** Capabilities assumed for a tool that declares none: mutating, serial-safe defaults. */
export const DEFAULT_TOOL_CAPABILITIES: ToolCapabilities = Object.freeze({
  readOnly: false,
  idempotent: false,
  resumable: false,
  cancelSafe: false,
  paginated: false,
  maxParallelism: 16,
  outputType: 'text',
});
