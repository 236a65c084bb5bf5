/**
 * Declarative command hooks of `CodeConfig.hooks` compiled into the session's hooks. Every
 * command gets the event's input as JSON on stdin and may print a JSON decision on stdout
 * (`{"decision": "block", "reason": ...}`, or for `pre` `{"decision": "modify", "args": {...}}`,
 * for `user_prompt_submit` `{"decision": "modify", "prompt": "..."}`). Exit code 2 blocks, with
 * stderr as the reason. A `pre` (pre_tool_use) hook fails closed: any other non-zero exit or a
 * timeout blocks the call too; for the other events such a failure is ignored.
 */
import type { HookCall, PostToolHook, PreHookDecision, PreToolHook } from '../invoker/hooks.js';
import {
  commandDecision,
  decisionProblem,
  DEFAULT_HOOK_TIMEOUT_MS,
  hookFailure,
  runHookCommand,
  type HookCommandRun,
} from './hook-command.js';
import type {
  HookDecision,
  PreCompactHandler,
  PromptSubmitHandler,
  SessionHooks,
  StopHandler,
} from './session-hooks.js';
import type { ToolResult } from '../tools/tool.js';
import type { CodeConfigHooks, CommandHookConfig } from './hook-options.js';
import { markCommandHook } from './hook-identity.js';
import { compileHookMatcher, markHookMatcher } from './hook-matcher.js';

export { DEFAULT_HOOK_TIMEOUT_MS };

const callJson = (c: HookCall) => ({
  id: c.id,
  name: c.name,
  tier: c.tier,
  args: c.args,
  source: c.source,
  run_id: c.runId,
  session_id: c.sessionId,
});
const callEnv = (c: HookCall) => ({
  A3S_TOOL_NAME: c.name,
  A3S_TOOL_ID: c.id,
  A3S_SESSION_ID: c.sessionId,
  A3S_RUN_ID: c.runId,
});
const timeoutOf = (hook: CommandHookConfig) => hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;

/**
 * A pre-hook (pre_tool_use): exit 2 or `{"decision":"block"}` blocks; `{"decision":"modify","args"}`
 * replaces the args; any other failure blocks, and so does a decision that cannot be read (cut
 * output, invalid JSON, an unknown decision, `modify` without an `args` object).
 */
export function commandPreHook(hook: CommandHookConfig, cwd: string, index: number): PreToolHook {
  const { matcher, matches } = compileHookMatcher(hook.matcher ?? '*', `hooks.pre[${index}].matcher`, cwd);
  const compiled: PreToolHook = {
    name: `hooks.pre[${index}]`,
    async before(call): Promise<PreHookDecision | undefined> {
      if (!matches(call.name, call.args)) return undefined;
      const r = await runHookCommand(
        hook.command,
        cwd,
        { event: 'pre_tool_use', call: callJson(call) },
        timeoutOf(hook),
        callEnv(call),
      );
      if (r.code !== 0 || r.timedOut) return { action: 'block', reason: hookFailure(r, timeoutOf(hook)) };
      // A decision that cannot be read gates like a failure: the call does not go through.
      const problem = decisionProblem(r);
      if (problem !== undefined) return { action: 'block', reason: `hooks.pre[${index}]: ${problem}` };
      const d = commandDecision(r);
      if (d?.decision === 'block')
        return { action: 'block', reason: typeof d.reason === 'string' ? d.reason : `blocked by hooks.pre[${index}]` };
      if (d?.decision === 'modify') {
        if (typeof d.args === 'object' && d.args !== null && !Array.isArray(d.args))
          return { action: 'modify', args: d.args };
        return {
          action: 'block',
          reason: `hooks.pre[${index}]: a "modify" decision needs "args", a JSON object of the tool's arguments`,
        };
      }
      return undefined;
    },
  };
  return markHookMatcher(markCommandHook(compiled, hook, timeoutOf(hook)), matcher);
}

/** A post-hook (post_tool_use) that marks matching results failed when the command exits non-zero, prints a block or a decision that cannot be read. */
export function commandPostHook(hook: CommandHookConfig, cwd: string, index: number): PostToolHook {
  const { matcher, matches } = compileHookMatcher(hook.matcher ?? '*', `hooks.post[${index}].matcher`, cwd);
  const compiled: PostToolHook = {
    name: `hooks.post[${index}]`,
    async after(call, result): Promise<ToolResult | undefined> {
      if (!matches(call.name, call.args)) return undefined;
      const r = await runHookCommand(
        hook.command,
        cwd,
        { event: 'post_tool_use', call: callJson(call), result: { output: result.output, exit_code: result.exitCode } },
        timeoutOf(hook),
        callEnv(call),
      );
      const d = commandDecision(r);
      const problem = decisionProblem(r);
      const blocked =
        problem !== undefined
          ? problem
          : d?.decision === 'block'
            ? typeof d.reason === 'string'
              ? d.reason
              : 'blocked'
            : r.code === 0 && !r.timedOut
              ? undefined
              : hookFailure(r, timeoutOf(hook));
      if (blocked === undefined) return undefined;
      return {
        ...result,
        output: `${result.output}\n[post-hook hooks.post[${index}] failed: ${blocked}]`,
        exitCode: result.exitCode === 0 ? 1 : result.exitCode,
      };
    },
  };
  return markHookMatcher(markCommandHook(compiled, hook, timeoutOf(hook)), matcher);
}

/** The decision of a command for a non-tool event: exit 2 or a `block` decision blocks; other failures continue. */
function eventDecision<M>(
  r: HookCommandRun,
  hook: CommandHookConfig,
  modify: (d: Record<string, unknown>) => M | undefined,
): HookDecision<M> | undefined {
  if (r.code === 2) return { action: 'block', reason: hookFailure(r, timeoutOf(hook)) };
  const d = commandDecision(r);
  if (d?.decision === 'block')
    return { action: 'block', reason: typeof d.reason === 'string' ? d.reason : 'blocked by a hook' };
  if (d?.decision === 'modify') {
    const m = modify(d);
    if (m !== undefined) return { action: 'modify', ...m };
  }
  return undefined;
}

type EventHandler = PromptSubmitHandler | StopHandler | PreCompactHandler;
const isCommand = (h: unknown): h is CommandHookConfig =>
  typeof h === 'object' && h !== null && typeof (h as { command?: unknown }).command === 'string';

function eventHandlers<H extends EventHandler>(
  items: readonly (CommandHookConfig | H)[] | undefined,
  event: string,
  cwd: string,
  modify: (d: Record<string, unknown>) => object | undefined,
): H[] {
  return (items ?? []).map((h) => {
    if (!isCommand(h)) return h;
    const compiled = (async (input: object) =>
      eventDecision(
        await runHookCommand(h.command, cwd, { event, ...input }, timeoutOf(h)),
        h,
        modify,
      )) as unknown as H;
    return markCommandHook(compiled, h, timeoutOf(h));
  });
}

/** Compiles config hooks (command and programmatic, in order) into the session's hooks. */
export function compileHooks(hooks: CodeConfigHooks | undefined, cwd: string): SessionHooks {
  const pre = (hooks?.pre ?? []).map((h, i) => (isCommand(h) ? commandPreHook(h, cwd, i) : (h as PreToolHook)));
  const post = (hooks?.post ?? []).map((h, i) => (isCommand(h) ? commandPostHook(h, cwd, i) : (h as PostToolHook)));
  const prompt = (d: Record<string, unknown>) => (typeof d.prompt === 'string' ? { prompt: d.prompt } : undefined);
  return {
    pre,
    post,
    userPromptSubmit: eventHandlers<PromptSubmitHandler>(hooks?.userPromptSubmit, 'user_prompt_submit', cwd, prompt),
    stop: eventHandlers<StopHandler>(hooks?.stop, 'stop', cwd, () => undefined),
    preCompact: eventHandlers<PreCompactHandler>(hooks?.preCompact, 'pre_compact', cwd, () => undefined),
  };
}
