/**
 * Pre- and post-hooks: session-level code that sees every call of every source. A
 * pre-hook may block a call (also a host call) or replace its args (which are then
 * validated again); a post-hook may replace the result.
 */
import { A3sError } from '@a3s-code/effect';
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
  /** Names the hook in messages; with {@link PreToolHook.version}, what identifies it in the capability catalog. */
  readonly name: string;
  /**
   * The version of what the hook does. A session's capability catalog identifies an in-process
   * hook by its name and this version (not its code): change it when the hook's behaviour changes,
   * so a run resumed afterwards is refused with `CAPABILITY_DRIFT` (or explicitly rebound).
   */
  readonly version?: string;
  before(call: HookCall): PreHookDecision | undefined | Promise<PreHookDecision | undefined>;
}

/** A post-hook; returning a result replaces it, `undefined` keeps it. */
export interface PostToolHook {
  /** Names the hook in messages; with {@link PostToolHook.version}, what identifies it in the capability catalog. */
  readonly name: string;
  /** The version of what the hook does (see {@link PreToolHook.version}). */
  readonly version?: string;
  after(call: HookCall, result: ToolResult): ToolResult | undefined | Promise<ToolResult | undefined>;
}

/** The hooks of an invoker. */
export interface ToolHooks {
  readonly pre?: readonly PreToolHook[];
  readonly post?: readonly PostToolHook[];
}

/** The forms a pre-hook may return, for error messages. */
const PRE_HOOK_FORMS =
  "undefined, { action: 'continue' }, { action: 'block', reason: string } or { action: 'modify', args }";

/**
 * A pre-hook's return value as a decision; `null` continues like `undefined`.
 * @throws A3sError `INVALID_HOOK_DECISION` naming the hook and the forms it may return (the call
 *   is then not run): a misspelt action, a block without a reason, a modify without `args`.
 */
export function checkPreHookDecision(hook: string, decision: unknown): PreHookDecision | undefined {
  if (decision === undefined || decision === null) return undefined;
  const d = (typeof decision === 'object' ? decision : {}) as { action?: unknown; reason?: unknown; args?: unknown };
  const action = d.action;
  if (action === 'continue') return { action };
  if (action === 'block' && typeof d.reason === 'string') return { action, reason: d.reason };
  if (action === 'modify' && d.args !== undefined) return { action, args: d.args };
  const got =
    typeof decision !== 'object'
      ? `${typeof decision}`
      : action === 'block'
        ? 'a block without a reason'
        : action === 'modify'
          ? 'a modify without args'
          : `action ${typeof action === 'string' ? JSON.stringify(action.slice(0, 40)) : typeof action}`;
  throw new A3sError(
    'INVALID_HOOK_DECISION',
    `pre-hook '${hook}' returned ${got}; a pre-hook returns ${PRE_HOOK_FORMS}`,
    {
      details: { hook },
    },
  );
}

/**
 * A post-hook's return value: `undefined` (or `null`) keeps the result, a `ToolResult` replaces it.
 * @throws A3sError `INVALID_HOOK_DECISION` naming the hook and what a post-hook returns, for
 *   anything else (the call then fails, its changes still recorded).
 */
export function checkPostHookResult(hook: string, value: unknown): ToolResult | undefined {
  if (value === undefined || value === null) return undefined;
  const r = (typeof value === 'object' ? value : {}) as Partial<Record<keyof ToolResult, unknown>>;
  const metadata = r.metadata;
  const problem =
    typeof value !== 'object'
      ? typeof value
      : typeof r.output !== 'string'
        ? `output ${typeof r.output}`
        : !Number.isInteger(r.exitCode)
          ? `exitCode ${typeof r.exitCode === 'number' ? String(r.exitCode) : typeof r.exitCode}`
          : metadata !== undefined && (typeof metadata !== 'object' || metadata === null)
            ? `metadata ${metadata === null ? 'null' : typeof metadata}`
            : undefined;
  if (problem === undefined) return value as ToolResult;
  throw new A3sError(
    'INVALID_HOOK_DECISION',
    `post-hook '${hook}' returned ${typeof value === 'object' ? `a result with ${problem}` : problem}; a post-hook returns undefined (the result stays) or a ToolResult { output: string, exitCode: integer, metadata?: object }`,
    { details: { hook } },
  );
}
