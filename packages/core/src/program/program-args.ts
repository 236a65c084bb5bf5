/**
 * The arguments of `program` (ARCHITECTURE §5) and their limits.
 */
import type { z } from 'zod';
import { boundedInt } from '../tools/bounded-int.js';
import type { ToolArgRefinement } from '../tools/define-tool.js';
import { lazyZod } from '../tools/zod-loader.js';

/** Bounds and defaults of `limits`. */
export const PROGRAM_LIMITS = Object.freeze({
  timeoutMs: { default: 30_000, min: 1, max: 600_000 },
  maxToolCalls: { default: 50, min: 0, max: 1_000 },
  maxOutputBytes: { default: 65_536, min: 256, max: 1_048_576 },
  memoryLimitBytes: { default: 64 * 1024 * 1024, min: 1024 * 1024, max: 512 * 1024 * 1024 },
  /**
   * The VM's stack, in bytes: deep recursion stops with `PROGRAM_STACK_LIMIT` (~1,300 frames).
   * Kept well under the host thread's own stack, which the interpreter's frames also use.
   */
  maxStackBytes: 256 * 1024,
  /** Largest inline or file script, in bytes. */
  maxSourceBytes: 256 * 1024,
  /** Largest `inputs` (as JSON), in bytes. */
  maxInputBytes: 1_048_576,
});

/** Tools a program may not call unless `allowed_tools` names them: they would recurse. */
export const PROGRAM_DEFAULT_DENIED_TOOLS: readonly string[] = Object.freeze([
  'program',
  'dynamic_workflow',
  'parallel_task',
]);

const L = PROGRAM_LIMITS;

/**
 * The zod schema of `program`'s arguments, built (and zod loaded) on the first call.
 */
export const programInput = lazyZod((z) => {
  const limitsInput = z
    .object({
      timeout_ms: boundedInt(z, L.timeoutMs).describe(
        `wall-clock deadline of the whole program, ${L.timeoutMs.min}..${L.timeoutMs.max} ms (default ${L.timeoutMs.default})`,
      ),
      max_tool_calls: boundedInt(z, L.maxToolCalls).describe(
        `ctx calls that reach a tool, ${L.maxToolCalls.min}..${L.maxToolCalls.max} (default ${L.maxToolCalls.default}); one more stops the program`,
      ),
      max_output_bytes: boundedInt(z, L.maxOutputBytes).describe(
        `bytes of output text (logs and result); the rest is cut off (default ${L.maxOutputBytes.default})`,
      ),
      memory_limit_bytes: boundedInt(z, L.memoryLimitBytes).describe(
        `memory of the VM in bytes, strings and typed arrays included; more fails with PROGRAM_MEMORY_LIMIT (default ${L.memoryLimitBytes.default})`,
      ),
    })
    .strict();

  return z
    .object({
      type: z.literal('script').default('script').describe('always "script"'),
      language: z.literal('javascript').default('javascript').describe('always "javascript"'),
      source: z.string().min(1).max(L.maxSourceBytes).optional().describe('the script inline; give source or path'),
      path: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe('workspace-relative .js or .mjs file holding the script; give source or path'),
      inputs: z.unknown().optional().describe('JSON value passed to run(ctx, inputs)'),
      allowed_tools: z
        .array(z.string().min(1).max(128))
        .max(256)
        .optional()
        .describe(
          'tools ctx may call; default every tool on the surface except program, dynamic_workflow and parallel_task',
        ),
      limits: limitsInput.default({
        timeout_ms: L.timeoutMs.default,
        max_tool_calls: L.maxToolCalls.default,
        max_output_bytes: L.maxOutputBytes.default,
        memory_limit_bytes: L.memoryLimitBytes.default,
      }),
    })
    .strict();
});

/** `program`'s rule across fields: exactly one of `source` and `path`. */
export function programRules(a: { readonly source?: string; readonly path?: string }): ToolArgRefinement[] {
  return (a.source === undefined) !== (a.path === undefined)
    ? []
    : [{ path: ['source'], message: 'give exactly one of source or path' }];
}

/** The parsed arguments of `program` (defaults applied). */
export type ProgramArgs = z.output<ReturnType<typeof programInput>>;

/** The effective limits of one program. */
export type ProgramLimits = ProgramArgs['limits'];
