/**
 * `debug`: drives a real debugger over the Debug Adapter Protocol. One operation per call; the
 * session (one per conversation, with a hard TTL) lives in the session's debug resource.
 */
import { defineTool, describeDeniedWrites, mergeDeniedWrites, type ToolResult, type Zod } from '@a3s-code/core';
import type { z } from 'zod';
import { ADAPTER_IDS } from './adapters.js';
import { debugShellCommands } from './debug-commands.js';
import { DebugToolError } from './debug-errors.js';
import { DEBUG_RESOURCE, type DebugResource } from './debug-resource.js';
import { heldFilesOf, keptFilesChanged } from './held-files.js';
import { runOperation } from './operations.js';
import { toolFailure } from '../shared/tool-failure.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** The operations of `debug`. */
export const DEBUG_OPERATIONS = [
  'adapters',
  'status',
  'breakpoints',
  'launch',
  'attach',
  'wait',
  'continue',
  'pause',
  'step_over',
  'step_in',
  'step_out',
  'threads',
  'stack',
  'scopes',
  'variables',
  'evaluate',
  'output',
  'terminate',
] as const;

const debugInput = (z: Zod) =>
  z.strictObject({
    op: z.enum(DEBUG_OPERATIONS).describe('the operation'),
    file: z.string().min(1).optional().describe('breakpoints: the source file'),
    lines: z
      .array(z.number().int().min(1))
      .max(200)
      .optional()
      .describe('breakpoints: 1-based lines; [] clears the file'),
    program: z
      .string()
      .min(1)
      .optional()
      .describe('launch: the program (a .py file, a Go package folder or .go file, a binary)'),
    args: z.array(z.string()).max(100).optional().describe('launch: program arguments'),
    adapter: z
      .enum(ADAPTER_IDS as unknown as ['debugpy', 'lldb', 'delve', 'dart'])
      .optional()
      .describe(
        "launch/attach: the adapter (default: by program kind; attach needs it); evaluate: the session's adapter ('debugpy' has a Python expression that calls something read as Python)",
      ),
    port: z
      .number()
      .int()
      .min(1)
      .max(65535)
      .optional()
      .describe(
        'attach: the port the debuggee listens on (debugpy; lldb: an lldb-server/gdbserver port; dart: the VM service)',
      ),
    pid: z.number().int().min(1).optional().describe('attach: the id of a running process to attach to (delve, lldb)'),
    thread_id: z
      .number()
      .int()
      .optional()
      .describe('continue/pause/steps/stack: the thread (default: the stopped one)'),
    frame_id: z.number().int().optional().describe('scopes: the frame; evaluate: the frame to evaluate in'),
    reference: z.number().int().min(1).optional().describe('variables: a scope or variable reference'),
    expression: z.string().min(1).max(10_000).optional().describe('evaluate: the expression'),
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(120_000)
      .optional()
      .describe(
        'launch/attach/wait/continue/pause/steps: how long to wait for a stop or the end, in ms (default 30000; launch and attach without breakpoints about 3000)',
      ),
  });

/** The arguments of `debug`. */
export type DebugArgs = z.output<ReturnType<typeof debugInput>>;

const DESCRIPTION = `Drive a real debugger (Debug Adapter Protocol). One op per call:
adapters (which adapters can start here and why not), status (session running? where stopped?),
breakpoints {file, lines[]} ([] clears; allowed before launch), launch {program, args[]} (runs to the first breakpoint),
attach {adapter, port or pid} (debugpy: port; delve: pid; lldb: pid or a gdb-remote port).
launch and attach return at the first stop or the end, waiting up to 30 s when breakpoints are set and about 3 s once the program runs when none are (wait_ms sets it, as for every op that waits); a program still going then is reported running: follow it with wait, status, output or pause.
wait (up to 30 s for the next stop or the end; says running if neither came), continue / pause / step_over / step_in / step_out {thread_id?} (wait for the next stop; running if none came),
threads, stack {thread_id?} (at most 30 frames), scopes {frame_id} (each with a reference),
variables {reference} (at most 50 children, values cut at 400 chars), evaluate {expression, frame_id?, adapter?},
output (the program's stdout/stderr, capped), terminate (ends the session, kills the adapter and the program).
Adapters: debugpy (.py; pyproject.toml, setup.py or requirements.txt), delve (Go; go.mod), lldb (binaries; Cargo.toml or CMakeLists.txt), dart (pubspec.yaml).
Only inside the workspace: launch a program in it, attach to a process working in it (never this host or its parents).
One session per conversation, 30 minutes at most; a second launch is rejected.`;

/** The `debug` tool (its resource is the session's debug supervisor). */
export const debugTool = defineTool({
  name: 'debug',
  description: DESCRIPTION,
  input: debugInput,
  inputJsonSchema: toolJsonSchemas.debug,
  plainInput: true,
  tier: 'exec',
  requires: ['exec', DEBUG_RESOURCE],
  // The session's Bash rules judge a launch as the program it runs and an evaluate as the code it runs.
  shellEquivalent: (args) => debugShellCommands(args),
  // Everything else is the default: not idempotent, resumable or cancel-safe; text output.
  capabilities: { readOnly: false, maxParallelism: 1 },
  timeoutMs: 600_000,
  execute: async (args, ctx) => {
    const debug = await ctx.resource<DebugResource>(DEBUG_RESOURCE);
    const ws = ctx.workspace;
    const running = await debug.current();
    // What the program made since the last call is removed (and named as its) before this call holds it.
    const before = await running?.settleWrites();
    // While a held program runs, each call is watched from its start: what the program creates
    // meanwhile where a write rule forbids it is removed when the call ends (launch holds its own).
    const held =
      ws.holdProcess !== undefined && args.op !== 'launch' && args.op !== 'attach' && running !== undefined
        ? await ws.holdProcess({ command: 'true', args: [] }).catch(() => undefined)
        : undefined;
    // A file kept from the program when it started was replaced since: the program is ended, not reached.
    const replaced = keptFilesChanged(running?.heldFiles, held === undefined ? undefined : heldFilesOf(held));
    if (replaced !== undefined && (await debug.current()) === running) await debug.terminate();
    let result: ToolResult;
    try {
      if (replaced !== undefined) throw new DebugToolError('DEBUG_CLOSED', replaced, { op: args.op });
      result = await runOperation(debug, args, ws.root, ws.holdProcess, ws.exec?.hostPid?.bind(ws.exec), ws.readDenied);
    } catch (error) {
      if (!(error instanceof DebugToolError)) throw error;
      result = toolFailure(error);
    }
    // The program runs on between calls: what it made since the last one is removed too.
    const now = await debug.current().catch(() => undefined);
    const programs = [...new Set([running, now])].filter((s) => s !== undefined);
    const own = await ws.settleHeldWrites?.();
    const since = mergeDeniedWrites(before, ...(await Promise.all(programs.map((s) => s.settleWrites()))));
    const denied = mergeDeniedWrites(own, since);
    // No program before the call nor after it (adapters, status, breakpoints set ahead of a
    // launch, a terminate with nothing running): nothing ran, so nothing changed.
    if (denied === undefined && programs.length === 0 && result.metadata?.changes === undefined)
      return { ...result, metadata: { ...result.metadata, changes: [] } };
    if (denied === undefined) return result;
    const lines = [
      describeDeniedWrites(own),
      describeDeniedWrites(since, 'the program under debug since the last call'),
    ];
    return {
      ...result,
      output: `${result.output}\n${lines.filter((l) => l !== '').join('\n')}`,
      exitCode: 1,
      metadata: { ...result.metadata, denied_writes: { ...denied, removed: [...denied.removed] } },
    };
  },
});
