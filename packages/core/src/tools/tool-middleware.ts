/**
 * Tool middleware: wraps the `execute` of tools by name, so that one pack can add behaviour to
 * another pack's tools without importing it (diagnostics-on-write wraps `write`, `edit`, `patch`).
 * Middleware runs inside the kernel, after every governance step and before post-hooks, so it can
 * neither skip nor weaken governance.
 */
import type { Tool, ToolResult } from './tool.js';
import type { ToolContext } from './tool-context.js';

/** Calls the next middleware or the tool itself with (possibly changed) args. */
export type ToolMiddlewareNext = (args: unknown) => Promise<ToolResult>;

/** A middleware: which tools it wraps and how. */
export interface ToolMiddleware {
  /** Name for diagnostics, e.g. `diagnostics-on-write`. */
  readonly name: string;
  /** Tool names it wraps (exact, case-sensitive). */
  readonly tools: readonly string[];
  /**
   * Wraps one call. `ctx` is the call's context, with a *governed* nested invoker even when the
   * wrapped tool is a trusted built-in: a middleware never inherits host trust.
   */
  wrap(
    call: { readonly tool: Tool; readonly args: unknown; readonly ctx: ToolContext },
    next: ToolMiddlewareNext,
  ): Promise<ToolResult>;
}
