/**
 * Session hooks beyond the tool hooks (`pre_tool_use` / `post_tool_use` are the invoker's
 * `PreToolHook` / `PostToolHook`): `user_prompt_submit`, `stop` and `pre_compact`. A handler
 * is a function (the SDK) or a shell command (configuration) and answers continue / block /
 * modify. They run in order; the first block wins; a modification feeds the next handler.
 */
import { A3sError } from '@a3s-code/effect';
import type { ToolHooks } from '../invoker/hooks.js';

/** A hook's verdict: go on, stop with a reason, or (where the event allows it) change the input. */
export type HookDecision<M> =
  | { readonly action: 'continue' }
  | { readonly action: 'block'; readonly reason: string }
  | ({ readonly action: 'modify' } & M);

/** Input of `user_prompt_submit`. */
export interface PromptSubmitInput {
  readonly session_id: string;
  readonly run_id: string;
  readonly prompt: string;
}

/** Input of `stop`: the run is about to complete with `text`. */
export interface StopInput {
  readonly session_id: string;
  readonly run_id: string;
  readonly text: string;
}

/** Input of `pre_compact`. */
export interface PreCompactInput {
  readonly session_id: string;
  /** `manual` (`session.compact()`) or `auto` (the run's `compact` transition, over a threshold). */
  readonly trigger: 'manual' | 'auto';
  /** Messages in the conversation about to be compacted. */
  readonly messages: number;
  /** With `auto`: the run compacting. */
  readonly run_id?: string;
}

/** A `user_prompt_submit` handler: block the prompt, or replace it (`modify` with `prompt`). */
export type PromptSubmitHandler = (
  input: PromptSubmitInput,
) =>
  | HookDecision<{ readonly prompt: string }>
  | undefined
  | Promise<HookDecision<{ readonly prompt: string }> | undefined>;
/** A `stop` handler: `block` keeps the run going with `reason` as the next user message. */
export type StopHandler = (
  input: StopInput,
) => HookDecision<never> | undefined | Promise<HookDecision<never> | undefined>;
/**
 * A `pre_compact` handler: `block` skips the compaction. `session.compact()` then rejects with
 * `HOOK_BLOCKED`; an automatic compaction is recorded as skipped and the run goes on uncompacted.
 */
export type PreCompactHandler = (
  input: PreCompactInput,
) => HookDecision<never> | undefined | Promise<HookDecision<never> | undefined>;

/** Every hook of a session. */
export interface SessionHooks extends ToolHooks {
  readonly userPromptSubmit?: readonly PromptSubmitHandler[];
  readonly stop?: readonly StopHandler[];
  readonly preCompact?: readonly PreCompactHandler[];
}

/** A `user_prompt_submit` or `pre_compact` hook blocked the operation; names the hook event and says why. */
export class HookBlockedError extends A3sError {
  constructor(event: 'user_prompt_submit' | 'pre_compact', reason: string) {
    super('HOOK_BLOCKED', `${event} hook blocked: ${reason}`, { details: { event, reason } });
  }
}

/** Runs the `user_prompt_submit` hooks; returns the prompt to use. @throws HookBlockedError */
export async function runPromptHooks(hooks: SessionHooks, input: PromptSubmitInput): Promise<string> {
  let prompt = input.prompt;
  for (const h of hooks.userPromptSubmit ?? []) {
    const d = checkedDecision('user_prompt_submit', await h({ ...input, prompt }), 'prompt');
    if (d === undefined) continue;
    if (d.action === 'block') throw new HookBlockedError('user_prompt_submit', d.reason);
    prompt = d.modified;
  }
  return prompt;
}

/** Runs the `stop` hooks; returns the reason of the first block, or `undefined`. */
export async function runStopHooks(hooks: SessionHooks, input: StopInput): Promise<string | undefined> {
  for (const h of hooks.stop ?? []) {
    const d = checkedDecision('stop', await h(input));
    if (d?.action === 'block') return d.reason;
  }
  return undefined;
}

/** Runs the `pre_compact` hooks in order; returns the reason of the first block, or `undefined`. */
export async function preCompactBlock(hooks: SessionHooks, input: PreCompactInput): Promise<string | undefined> {
  for (const h of hooks.preCompact ?? []) {
    const d = checkedDecision('pre_compact', await h(input));
    if (d?.action === 'block') return d.reason;
  }
  return undefined;
}

/** Runs the `pre_compact` hooks. @throws HookBlockedError */
export async function runPreCompactHooks(hooks: SessionHooks, input: PreCompactInput): Promise<void> {
  const reason = await preCompactBlock(hooks, input);
  if (reason !== undefined) throw new HookBlockedError('pre_compact', reason);
}

/** Stop-hook continuations allowed per run. */
export const MAX_STOP_CONTINUATIONS = 3;

/**
 * A handler's answer as a decision (`undefined` or `null`, and `continue`, go on).
 * @throws A3sError `INVALID_HOOK_DECISION` naming the event and the forms it takes: a misspelt
 *   action, a block without a string `reason` (a `stop` block's becomes the next user message, so
 *   it must not be empty), a modify where the event takes none or without a non-empty `modifies`.
 */
function checkedDecision(
  event: 'user_prompt_submit' | 'stop' | 'pre_compact',
  decision: unknown,
  modifies?: 'prompt',
):
  | { readonly action: 'block'; readonly reason: string }
  | { readonly action: 'modify'; readonly modified: string }
  | undefined {
  if (decision === undefined || decision === null) return undefined;
  const d = (typeof decision === 'object' ? decision : {}) as Record<string, unknown>;
  const { action, reason } = d;
  const changed = modifies === undefined ? undefined : d[modifies];
  if (action === 'continue') return undefined;
  if (action === 'block' && typeof reason === 'string' && (event !== 'stop' || reason.trim() !== ''))
    return { action, reason };
  if (action === 'modify' && typeof changed === 'string' && changed.trim() !== '') return { action, modified: changed };
  const forms = `undefined, { action: 'continue' }, { action: 'block', reason: string }${modifies === undefined ? '' : ` or { action: 'modify', ${modifies}: string }`}`;
  const got =
    typeof decision !== 'object'
      ? typeof decision
      : action === 'block'
        ? `a block without a reason (a${event === 'stop' ? ' non-empty' : ''} string)`
        : action === 'modify' && modifies !== undefined
          ? `a modify decision without \`${modifies}\` (a non-empty string)`
          : `action ${typeof action === 'string' ? JSON.stringify(action.slice(0, 40)) : typeof action}`;
  throw new A3sError('INVALID_HOOK_DECISION', `${event}: a hook returned ${got}; it returns ${forms}`, {
    details: { event, ...(modifies !== undefined && action === 'modify' ? { field: modifies } : {}) },
  });
}
