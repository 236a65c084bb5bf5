/**
 * The tool contract (ARCHITECTURE §5). A tool is a plain object: a name, a description, a JSON
 * Schema for its input, an approval tier, scheduling capabilities, the workspace capabilities it
 * requires, and `execute`. Tool packs (`@a3s-code/tools-workspace`, `@a3s-code/mcp`) build tools
 * against this file only.
 */
import type { ToolArgIssue } from '../errors/tool-errors.js';
import type { JsonSchema } from './json-schema.js';
import { DEFAULT_TOOL_CAPABILITIES, type ToolCapabilities } from './tool-capabilities.js';
import type { ToolContext } from './tool-context.js';
import type { WorkspaceCapability } from '../workspace/capabilities.js';

/** Approval tier: `read` has no side effects, `write` changes files, `exec` starts or controls a process. */
export type ToolTier = 'read' | 'write' | 'exec';

/** Every tier, in increasing order of authority. */
export const TOOL_TIERS: readonly ToolTier[] = ['read', 'write', 'exec'];

/** What a tool returns. A failed tool returns a non-zero `exitCode`; it throws only on a bug. */
export interface ToolResult {
  /** Text for the model and the host. Capped and sanitised by the invoker. */
  readonly output: string;
  /** `0` for success, anything else for failure. */
  readonly exitCode: number;
  /** Structured data for programs (cursors, diffs, hashes); JSON-serialisable. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * A tool. `Args` is the type `execute` receives after validation. Methods (not function-typed
 * properties) keep a concrete `Tool<{ path: string }>` assignable to `Tool` in registries.
 */
export interface Tool<Args = unknown> {
  /** Unique name on a surface: `[A-Za-z][A-Za-z0-9_.-]{0,127}` (e.g. `read`, `mcp__github__search`). */
  readonly name: string;
  /** Model-facing description. */
  readonly description: string;
  /** JSON Schema of the arguments, input side (defaults optional). */
  readonly inputSchema: JsonSchema;
  /** Approval tier; decides visibility in plan mode and read-only sub-agents. */
  readonly tier: ToolTier;
  /** Static scheduling capabilities; missing fields take {@link DEFAULT_TOOL_CAPABILITIES}. */
  readonly capabilities?: Partial<ToolCapabilities>;
  /** Workspace or resource capabilities the tool needs to be registered. */
  readonly requires?: readonly WorkspaceCapability[];
  /** Execution timeout in milliseconds, `1..86_400_000`; the invoker default applies when absent. */
  readonly timeoutMs?: number;
  /** `false` forbids the tool from appearing twice in one nested call stack (`program`). Default `true`. */
  readonly reentrant?: boolean;
  /** Capabilities that depend on the validated args (e.g. `edit` with `dry_run: true` is read-only). */
  capabilitiesFor?(args: Args): Partial<ToolCapabilities>;
  /**
   * For a tool whose input runs code: the shell command lines the call is equivalent to (a cell of
   * Python code is `python3 -c '<code>'`, a shell escape in it its own command line). The policy
   * judges each with the `Bash(…)` deny and ask rules exactly as it judges tool `bash` (a command
   * that cannot be named matches every deny rule); `Bash` allow rules never allow the call, so they
   * only ever make it stricter. Absent, or `[]`, for a call that runs no code.
   */
  shellEquivalent?(args: Args): readonly string[];
  /**
   * Limits of the arguments their JSON Schema cannot state (a command's size in bytes, a
   * character a process cannot take), checked by the kernel right after the schema and before
   * anything else judges the call (the permission rules, hooks, the queue): each issue names the
   * field and what is allowed, and any issue fails the call with `INVALID_TOOL_ARGS`. `args` have
   * passed the schema (no defaults applied). Must be cheap (linear in the arguments) and not throw.
   */
  checkArgs?(args: unknown): readonly ToolArgIssue[];
  /** Runs the call. `args` are already validated; `ctx.signal` aborts on cancel and timeout. */
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

/** Resolves a tool's effective capabilities for given args (static ∪ per-args ∪ defaults). */
export function resolveCapabilities<A>(tool: Tool<A>, args: A): ToolCapabilities {
  const dynamic = tool.capabilitiesFor?.(args);
  return { ...DEFAULT_TOOL_CAPABILITIES, ...tool.capabilities, ...dynamic };
}
