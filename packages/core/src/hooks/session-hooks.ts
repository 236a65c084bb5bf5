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
    const d = await h({ ...input, prompt });
    if (d === undefined || d.action === 'continue') continue;
    if (d.action === 'block') throw new HookBlockedError('user_prompt_submit', d.reason);
    if (typeof d.prompt !== 'string' || d.prompt.trim() === '')
      throw new A3sError(
        'INVALID_HOOK_DECISION',
        'user_prompt_submit: a modify decision needs `prompt`, a non-empty string',
        { details: { field: 'prompt' } },
      );
    prompt = d.prompt;
  }
  return prompt;
}

/** Runs the `stop` hooks; returns the reason of the first block, or `undefined`. */
export async function runStopHooks(hooks: SessionHooks, input: StopInput): Promise<string | undefined> {
  for (const h of hooks.stop ?? []) {
    const d = await h(input);
    if (d?.action === 'block') return d.reason;
  }
  return undefined;
}

/** Runs the `pre_compact` hooks in order; returns the reason of the first block, or `undefined`. */
export async function preCompactBlock(hooks: SessionHooks, input: PreCompactInput): Promise<string | undefined> {
  for (const h of hooks.preCompact ?? []) {
    const d = await h(input);
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
