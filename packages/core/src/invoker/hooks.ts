/**
 * Pre- and post-hooks: session-level code that sees every call of every source. A
 * pre-hook may block a call (also a host call) or replace its args (which are then
 * validated again); a post-hook may replace the result.
 */
import type { InvocationSource } from './invocation-types.js';
import type { ToolResult, ToolTier } from '../tools/tool.js';

/** The call a hook sees. */
export interface HookCall {
  readonly id: string;
  readonly name: string;
  readonly tier: ToolTier;
  readonly args: unknown;
  readonly source: InvocationSource;
  readonly depth: number;
  readonly runId: string;
  readonly sessionId: string;
}

/** A pre-hook's verdict. */
export type PreHookDecision =
  | { readonly action: 'continue' }
  | { readonly action: 'block'; readonly reason: string }
  | { readonly action: 'modify'; readonly args: unknown };

/** A pre-hook; returning `undefined` continues. */
export interface PreToolHook {
  readonly name: string;
  before(call: HookCall): PreHookDecision | undefined | Promise<PreHookDecision | undefined>;
}

/** A post-hook; returning a result replaces it, `undefined` keeps it. */
export interface PostToolHook {
  readonly name: string;
  after(call: HookCall, result: ToolResult): ToolResult | undefined | Promise<ToolResult | undefined>;
}

/** The hooks of an invoker. */
export interface ToolHooks {
  readonly pre?: readonly PreToolHook[];
  readonly post?: readonly PostToolHook[];
}
