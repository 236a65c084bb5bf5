/**
 * Declarative command hooks (`hooks.pre` / `hooks.post` of `CodeConfig`) compiled into the
 * invoker's `PreToolHook` / `PostToolHook`. Each runs `/bin/sh -c <command>` in the workspace
 * folder as a process-group leader, with the call as JSON on stdin; on its deadline the whole
 * group is killed and the hook counts as failed.
 */
import { spawn } from 'node:child_process';
import type { HookCall, PostToolHook, PreToolHook, ToolHooks } from '../invoker/hooks.js';
import { compileGlob } from '../permissions/glob.js';
import type { ToolResult } from '../tools/tool.js';
import type { CodeConfigHooks, CommandHookConfig } from './code-config.js';

/** Default deadline of a command hook, milliseconds. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;
const MAX_CAPTURE = 16 * 1024;

interface HookRun {
  readonly code: number | null;
  readonly stderr: string;
  readonly timedOut: boolean;
}

function runCommand(hook: CommandHookConfig, cwd: string, call: HookCall, input: unknown): Promise<HookRun> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', hook.command], {
      cwd,
      detached: true,
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, A3S_TOOL_NAME: call.name, A3S_TOOL_ID: call.id, A3S_SESSION_ID: call.sessionId, A3S_RUN_ID: call.runId },
    });
    let stderr = '';
    let timedOut = false;
    child.stderr?.on('data', (b: Buffer) => {
      if (stderr.length < MAX_CAPTURE) stderr += b.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: e.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: stderr.slice(0, MAX_CAPTURE).trim(), timedOut });
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(JSON.stringify(input));
  });
}

function why(hook: CommandHookConfig, r: HookRun): string {
  if (r.timedOut) return `hook command timed out after ${hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS} ms`;
  return r.stderr || `hook command exited with ${r.code === null ? 'an error' : `code ${r.code}`}`;
}

const callJson = (c: HookCall) => ({ id: c.id, name: c.name, tier: c.tier, args: c.args, source: c.source, run_id: c.runId, session_id: c.sessionId });

/** A pre-hook that blocks matching calls when the command exits non-zero. */
export function commandPreHook(hook: CommandHookConfig, cwd: string, index: number): PreToolHook {
  const matches = compileGlob(hook.matcher ?? '*');
  return {
    name: `hooks.pre[${index}]`,
    async before(call) {
      if (!matches.test(call.name)) return undefined;
      const r = await runCommand(hook, cwd, call, { call: callJson(call) });
      return r.code === 0 && !r.timedOut ? undefined : { action: 'block', reason: why(hook, r) };
    },
  };
}

/** A post-hook that marks matching results failed when the command exits non-zero. */
export function commandPostHook(hook: CommandHookConfig, cwd: string, index: number): PostToolHook {
  const matches = compileGlob(hook.matcher ?? '*');
  return {
    name: `hooks.post[${index}]`,
    async after(call, result): Promise<ToolResult | undefined> {
      if (!matches.test(call.name)) return undefined;
      const r = await runCommand(hook, cwd, call, { call: callJson(call), result: { output: result.output, exit_code: result.exitCode } });
      if (r.code === 0 && !r.timedOut) return undefined;
      return { ...result, output: `${result.output}\n[post-hook hooks.post[${index}] failed: ${why(hook, r)}]`, exitCode: result.exitCode === 0 ? 1 : result.exitCode };
    },
  };
}

const isCommand = (h: object): h is CommandHookConfig => typeof (h as { command?: unknown }).command === 'string';

/** Compiles config hooks (command and programmatic, in order) into the invoker's hooks. */
export function compileHooks(hooks: CodeConfigHooks | undefined, cwd: string): ToolHooks {
  const pre = (hooks?.pre ?? []).map((h, i) => (isCommand(h) ? commandPreHook(h, cwd, i) : (h as PreToolHook)));
  const post = (hooks?.post ?? []).map((h, i) => (isCommand(h) ? commandPostHook(h, cwd, i) : (h as PostToolHook)));
  return { pre, post };
}
