/**
 * Tool middleware: wraps the `execute` of tools by name, so that one pack can add behaviour to
 * another pack's tools without importing it (diagnostics-on-write wraps `write`, `edit`, `patch`).
 * Middleware runs inside the kernel, after every governance step and before post-hooks, so it can
 * neither skip nor weaken governance.
 */
import type { Tool, ToolResult } from './tool.js';
import type { ToolContext } from './tool-context.js';
import type { ResourceCapability } from './tool-resource.js';

/** Calls the next middleware or the tool itself with (possibly changed) args. */
export type ToolMiddlewareNext = (args: unknown) => Promise<ToolResult>;

/** A middleware: which tools it wraps and how. */
export interface ToolMiddleware {
  /** Name for diagnostics, e.g. `diagnostics-on-write`. */
  readonly name: string;
  /** Tool names it wraps (exact, case-sensitive). */
  readonly tools: readonly string[];
  /**
   * Resources the middleware reaches through `ctx.resource` in `wrap`, in addition to those the
   * wrapped tool requires. They are not opened before the call: `ctx.resource` opens a lazy one
   * on first use, and rejects with `ResourceUnavailableError` when it is not attached.
   */
  readonly requires?: readonly ResourceCapability[];
  /**
   * Wraps one call. `ctx` is the call's context, with a *governed* nested invoker even when the
   * wrapped tool is a trusted built-in: a middleware never inherits host trust.
   */
  wrap(
    call: { readonly tool: Tool; readonly args: unknown; readonly ctx: ToolContext },
    next: ToolMiddlewareNext,
  ): Promise<ToolResult>;
}
