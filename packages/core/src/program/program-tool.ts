/**
 * The `program` runtime tool: one bounded QuickJS
 * program per call, run in a worker thread (`program-runner.ts`), whose every effect goes through
 * the caller's scoped invoker on the host. It is a trusted
 * built-in orchestrator (a host call gives its children `host_nested`) and not reentrant (a
 * program cannot run `program`).
 */
import { defineTool } from '../tools/define-tool.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { markTrustedOrchestrator } from '../invoker/trust.js';
import {
  PROGRAM_DEFAULT_DENIED_TOOLS,
  PROGRAM_LIMITS,
  programInput,
  programRules,
  type ProgramArgs,
} from './program-args.js';
import { PROGRAM_DESCRIPTION } from './program-description.js';
import { ProgramInvalidError } from './program-errors.js';
import { createCtxBridge } from './ctx-bridge.js';
import { loadProgramScript } from './program-source.js';
import { type ModelChangesOf, ScriptPins } from './script-pins.js';
import { runProgramInWorker } from './program-runner.js';
import { programResult } from './program-output.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** Options of {@link createProgramTool}. */
export interface ProgramToolOptions {
  /** Epoch-milliseconds clock for the deadline. Default `Date.now`. */
  readonly clock?: () => number;
  /**
   * The changes the session's model calls recorded so far (a session passes its own). A call with
   * the host's trust refuses a `path` script one of them changed, or any with unknown paths,
   * until it has pinned the script (see the core README, program scripts). Without it, only the pin applies.
   */
  readonly modelChanges?: ModelChangesOf;
  /**
   * True once a model call of the session ran programs (a command, a cell; a session passes its
   * own): a `path` script where their changes are not tracked (a git-ignored file, under `.a3s/`)
   * is then refused to a host-trusted call until it has pinned it.
   */
  readonly modelRanPrograms?: () => boolean;
}

/** True when the workspace file `file` lies where the change record does not look: under `.a3s/`, or ignored by git. */
async function unlistedScript(ws: ToolContext['workspace'], file: string, signal: AbortSignal): Promise<boolean> {
  if (file === '.a3s' || file.startsWith('.a3s/')) return true;
  if (ws.git === undefined) return false;
  const r = await ws.git.run(['check-ignore', '-q', '--', file], { signal, timeoutMs: 10_000 }).catch(() => undefined);
  return r?.exitCode === 0;
}

function allowedTools(args: ProgramArgs, ctx: ToolContext): ReadonlySet<string> {
  if (args.allowed_tools !== undefined) return new Set(args.allowed_tools);
  return new Set(ctx.invoker.toolNames().filter((n) => !PROGRAM_DEFAULT_DENIED_TOOLS.includes(n)));
}

function inputsJson(inputs: unknown): string {
  const json = inputs === undefined ? 'undefined' : JSON.stringify(inputs);
  if (json === undefined) throw new ProgramInvalidError('inputs', 'must be a JSON value');
  if (Buffer.byteLength(json) > PROGRAM_LIMITS.maxInputBytes)
    throw new ProgramInvalidError('inputs', `must be at most ${PROGRAM_LIMITS.maxInputBytes} bytes as JSON`);
  return json;
}

/** Runs one program call. */
async function executeProgram(
  args: ProgramArgs,
  ctx: ToolContext,
  clock: () => number,
  pins: ScriptPins,
): Promise<ToolResult> {
  const started = clock();
  const { limits } = args;
  const inputs = inputsJson(args.inputs);
  const script = await loadProgramScript(args, ctx.workspace, ctx.signal);
  // A workspace script runs with the host's trust only while the model cannot have changed it.
  if (args.source === undefined && (ctx.source === 'host' || ctx.source === 'host_nested'))
    pins.check(
      script.file,
      script.source,
      ctx.workspace.root,
      pins.pinned(script.file) ? false : await unlistedScript(ctx.workspace, script.file, ctx.signal),
    );
  const bridge = createCtxBridge({
    invoker: ctx.invoker,
    callId: ctx.callId,
    allowed: allowedTools(args, ctx),
    maxToolCalls: limits.max_tool_calls,
    maxLogBytes: limits.max_output_bytes,
    emitOutput: (d) => ctx.emitOutput(d),
  });
  try {
    const outcome = await runProgramInWorker({
      source: script.source,
      file: script.file,
      module: script.module,
      inputsJson: inputs,
      timeoutMs: limits.timeout_ms,
      memoryLimitBytes: limits.memory_limit_bytes,
      maxStackBytes: PROGRAM_LIMITS.maxStackBytes,
      maxResultChars: limits.max_output_bytes,
      maxLogBytes: limits.max_output_bytes,
      signal: ctx.signal,
      host: bridge,
      clock,
    });
    const stats = {
      file: script.file,
      tool_calls: bridge.calls.length,
      calls: bridge.calls,
      refused: bridge.refused,
      refused_calls: bridge.refusedCalls,
      duration_ms: clock() - started,
      dropped_log_bytes: bridge.droppedLogBytes,
    };
    return programResult(outcome, bridge.logs, stats, limits.max_output_bytes);
  } finally {
    bridge.close(new Error('the program has ended'));
  }
}

/** Creates the `program` tool. */
export function createProgramTool(options: ProgramToolOptions = {}): Tool<ProgramArgs> {
  const clock = options.clock ?? Date.now;
  const pins = new ScriptPins({
    changes: options.modelChanges ?? (() => []),
    ranPrograms: options.modelRanPrograms ?? (() => false),
  });
  const tool = defineTool({
    name: 'program',
    description: PROGRAM_DESCRIPTION,
    tier: 'read',
    inputJsonSchema: toolJsonSchemas.program,
    input: () => programInput(),
    plainInput: true,
    refine: programRules,
    capabilities: { outputType: 'text', maxParallelism: 8 },
    // The program's own limits.timeout_ms decides; the kernel's timeout is only a backstop.
    timeoutMs: PROGRAM_LIMITS.timeoutMs.max + 10_000,
    reentrant: false,
    execute: (args, ctx) => executeProgram(args, ctx, clock, pins),
  });
  return markTrustedOrchestrator(tool);
}
