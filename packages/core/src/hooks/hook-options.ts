/**
 * The hooks feature's options: `CodeConfig.hooks`, declarative command hooks and programmatic
 * handlers per event. Configuration composes this type; `compileHooks` turns it into the
 * session's hooks.
 */
import type { PostToolHook, PreToolHook } from '../invoker/hooks.js';
import type { PreCompactHandler, PromptSubmitHandler, StopHandler } from './session-hooks.js';

/**
 * A declarative command hook: a shell command run with `node:child_process` for each call whose
 * tool name matches `matcher`. It receives the call (and for post-hooks the result) as JSON on
 * stdin and in `A3S_TOOL_NAME` / `A3S_TOOL_ID`. A pre-hook blocks the call on a non-zero exit
 * (stderr is the reason); a post-hook's non-zero exit marks the result failed.
 */
export interface CommandHookConfig {
  /**
   * Which calls run the hook, written as permission rules are, with `|` between alternatives: a
   * tool name or glob (`Bash`, `write_*`, `mcp__github__*`; case-insensitive, `_` and `-` optional)
   * or a rule with a pattern (`Bash(rm:*)`, `Write(src/**)`: the calls a deny rule of that text
   * holds for). `Edit|Write` is either tool. Default `*`. A name that is no tool of the session is
   * refused when the session is built (`mcp__` names and globs with `*` are not checked).
   */
  readonly matcher?: string;
  /** Command line, run by `/bin/sh -c` in the workspace folder. */
  readonly command: string;
  /** Deadline in milliseconds, `1..600000`. Default 30000; past it the hook counts as failed. */
  readonly timeoutMs?: number;
}

/**
 * Hooks: declarative command hooks and, in the object form, programmatic ones. `pre` and `post`
 * are the `pre_tool_use` / `post_tool_use` events (they see every call of every source).
 */
export interface CodeConfigHooks {
  readonly pre?: readonly (CommandHookConfig | PreToolHook)[];
  readonly post?: readonly (CommandHookConfig | PostToolHook)[];
  /** The `user_prompt_submit` event, before a prompt opens a run: block it (`HOOK_BLOCKED`) or replace its text. */
  readonly userPromptSubmit?: readonly (CommandHookConfig | PromptSubmitHandler)[];
  /** When a run is about to complete: a block continues the run with the reason as the next message (at most 3 times). */
  readonly stop?: readonly (CommandHookConfig | StopHandler)[];
  /** The `pre_compact` event, before `session.compact()` and the automatic compaction: a block skips it. */
  readonly preCompact?: readonly (CommandHookConfig | PreCompactHandler)[];
}
