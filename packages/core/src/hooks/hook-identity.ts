/**
 * What identifies a hook in the session's capability catalog, so that a run resumed after a hook
 * changed is refused as a capability drift. A command hook is identified by everything that
 * decides what it does: its matcher, its command line and its deadline. An in-process hook (a
 * function or object the host passes) is identified by what stays the same across restarts of the
 * same host: a tool hook by its `name` and its optional `version`, an event handler by its
 * function's `name`. Its source text is not digested: it leaves out what the function's closure
 * and the modules it calls do, and it changes with transpiling and bundling when the behaviour
 * does not. A host marks a changed in-process hook by giving it a new `version` (or name).
 */
import type { JsonValue } from '../tools/json-schema.js';
import type { CommandHookConfig } from './hook-options.js';

/** What a compiled command hook was made from. */
const commands = new WeakMap<object, JsonValue>();

/** Records that `hook` was compiled from the command hook `config` with deadline `timeoutMs` (core-internal). */
export function markCommandHook<H extends object>(hook: H, config: CommandHookConfig, timeoutMs: number): H {
  commands.set(
    hook,
    Object.freeze({ type: 'command', matcher: config.matcher ?? '*', command: config.command, timeout_ms: timeoutMs }),
  );
  return hook;
}

/**
 * The descriptor the catalog digests for `hook` (core-internal): `{type: 'command', matcher,
 * command, timeout_ms}` for a command hook, `{type: 'function', name, version}` for an in-process one.
 */
export function hookDescriptor(hook: unknown): JsonValue {
  if (typeof hook === 'object' || typeof hook === 'function') {
    const command = hook === null ? undefined : commands.get(hook);
    if (command !== undefined) return command;
  }
  const h = (hook ?? {}) as { readonly name?: unknown; readonly version?: unknown };
  return {
    type: 'function',
    name: typeof h.name === 'string' ? h.name : '',
    version: typeof h.version === 'string' ? h.version : null,
  };
}
