/**
 * `session.program(...)`: one host call of core's `program` tool (a bounded QuickJS script whose
 * `ctx` calls run through the kernel as `host_nested` children). The options are the tool's
 * arguments in camelCase (ARCHITECTURE §5).
 */

import { didYouMean, PROGRAM_LIMITS, SessionConfigurationError } from '@a3s-code/core';
import { checkIntOption, checkOptionsArg, describeValue, isOptionsObject } from './arguments.js';

/** Limits of one program (the tool's `limits`). */
export interface ProgramLimits {
  /** Wall-clock deadline of the whole program, 1..600000 ms. Default 30000. */
  readonly timeoutMs?: number;
  /** `ctx` calls that reach a tool, 0..1000. Default 50. */
  readonly maxToolCalls?: number;
  /** Bytes of output text (logs and result), 256..1048576. Default 65536. */
  readonly maxOutputBytes?: number;
  /** Heap of the VM in bytes, 1 MiB..512 MiB. Default 64 MiB. */
  readonly memoryLimitBytes?: number;
}

/** What `session.program` runs: exactly one of `source` or `path`. */
export type ProgramOptions = (
  | {
      /** The script inline: it defines `async function run(ctx, inputs)`. */ readonly source: string;
      readonly path?: undefined;
    }
  | {
      /** Workspace-relative `.js` / `.mjs` file holding the script. */ readonly path: string;
      readonly source?: undefined;
    }
) & {
  /** JSON value passed to `run(ctx, inputs)`. */
  readonly inputs?: unknown;
  /** Tools `ctx` may call. Default: every tool on the surface except `program`, `dynamic_workflow`, `parallel_task`. */
  readonly allowedTools?: readonly string[];
  readonly limits?: ProgramLimits;
};

/** The `program` tool's arguments for `options`. */
export function programArgs(given: ProgramOptions): Record<string, unknown> {
  const options = checkOptionsArg(given, 'session.program', ['source', 'path', 'inputs', 'allowedTools', 'limits']);
  const tools: unknown = options.allowedTools;
  if (tools !== undefined && (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')))
    throw new SessionConfigurationError(
      'allowedTools',
      `must be an array of tool names (['read', 'grep']), got ${describeValue(tools)}`,
    );
  const l = options.limits === undefined ? undefined : checkedLimits(options.limits);
  const limits =
    l === undefined
      ? undefined
      : defined({
          timeout_ms: l.timeoutMs,
          max_tool_calls: l.maxToolCalls,
          max_output_bytes: l.maxOutputBytes,
          memory_limit_bytes: l.memoryLimitBytes,
        });
  return defined({
    type: 'script',
    language: 'javascript',
    source: options.source,
    path: options.path,
    inputs: options.inputs,
    allowed_tools: options.allowedTools === undefined ? undefined : [...options.allowedTools],
    limits,
  });
}

/** The keys of {@link ProgramLimits}, each with the bounds of the tool's limit it is. */
const LIMIT_KEYS = {
  timeoutMs: PROGRAM_LIMITS.timeoutMs,
  maxToolCalls: PROGRAM_LIMITS.maxToolCalls,
  maxOutputBytes: PROGRAM_LIMITS.maxOutputBytes,
  memoryLimitBytes: PROGRAM_LIMITS.memoryLimitBytes,
} as const;

/**
 * `limits` checked by the names the host wrote (`limits.timeoutMs`), before they become the tool's
 * snake_case arguments: a misspelt key (`timeout`) would otherwise be dropped and the default used.
 * @throws SessionConfigurationError naming the key and what is allowed.
 */
function checkedLimits(limits: unknown): ProgramLimits {
  const allowed = Object.keys(LIMIT_KEYS);
  if (!isOptionsObject(limits))
    throw new SessionConfigurationError(
      'limits',
      `must be an object { ${allowed.join(', ')} }, got ${describeValue(limits)}`,
      { allowed },
    );
  for (const [key, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(LIMIT_KEYS, key))
      throw new SessionConfigurationError(
        `limits.${key}`,
        `is not a limit of session.program${didYouMean(key, allowed)} (allowed: ${allowed.join(', ')})`,
        { allowed },
      );
    const { min, max } = LIMIT_KEYS[key as keyof typeof LIMIT_KEYS];
    checkIntOption(value, `limits.${key}`, min, max);
  }
  return limits as ProgramLimits;
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
