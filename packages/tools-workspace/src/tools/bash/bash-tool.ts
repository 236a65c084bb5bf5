/**
 * `bash`: runs a shell command in the workspace through its `exec` service, which puts it in its
 * own process group, enforces one deadline over output draining and exit and kills the
 * whole group on timeout or cancellation. Output streams live as `tool_output_delta`
 * events while the command runs. stdout and stderr are capped separately,
 * head and tail kept with exact totals. Metadata lists the files the command changed.
 */
import {
  CapabilityUnavailableError,
  changesBetween,
  defineTool,
  describeDeniedWrites,
  LiveOutput,
  SNAPSHOT_TIMEOUT_MS,
  snapshotWorkspaceWithin,
  type CapturedStream,
  type ToolArgRefinement,
} from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;
import { renderCaptured } from '../../local/stream-capture.js';
import { guard } from '../shared/results.js';
import { renderBackground } from './background-report.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

/** Default, minimum and maximum `timeout`, in milliseconds. */
export const BASH_TIMEOUT_MS = { default: 120_000, min: 1, max: 600_000 } as const;
/**
 * Largest `command`, in UTF-8 bytes: Linux takes at most 128 KiB (`MAX_ARG_STRLEN`, its NUL
 * included) in one argument of a new process, and the command is one argument of `bash -c`.
 */
export const BASH_COMMAND_MAX_BYTES = 131_071;
/** Default and bounds of the per-stream byte cap. */
export const BASH_MAX_OUTPUT_BYTES = { default: 32 * 1024, min: 1024, max: 1024 * 1024 } as const;

const bashInput = (z: Zod) =>
  z.strictObject({
    command: z
      .string()
      .min(1)
      .describe(
        `the shell command line (run with bash -c), at most ${BASH_COMMAND_MAX_BYTES} bytes in UTF-8; write a longer script to a file and run that`,
      ),
    timeout: z
      .number()
      .int()
      .min(BASH_TIMEOUT_MS.min)
      .max(BASH_TIMEOUT_MS.max)
      .optional()
      .describe('deadline in milliseconds, 1..600000 (default 120000)'),
    cwd: z.string().optional().describe('working directory inside the workspace (default: the root)'),
    max_output_bytes: z
      .number()
      .int()
      .min(BASH_MAX_OUTPUT_BYTES.min)
      .max(BASH_MAX_OUTPUT_BYTES.max)
      .optional()
      .describe('byte cap per stream (stdout, stderr), head and tail kept, 1024..1048576 (default 32768)'),
  });

/**
 * The limits no JSON Schema states: the command's size in bytes (checked first, before anything
 * reads the command) and the NUL bytes no command line or path can carry.
 */
function bashLimits(args: { command: string; cwd?: string | undefined }): ToolArgRefinement[] {
  const { command, cwd } = args;
  const issues: ToolArgRefinement[] = [];
  // UTF-8 takes at most three bytes per UTF-16 unit: a short command needs no count.
  const bytes = command.length * 3 <= BASH_COMMAND_MAX_BYTES ? 0 : Buffer.byteLength(command, 'utf8');
  if (bytes > BASH_COMMAND_MAX_BYTES) {
    issues.push({
      path: ['command'],
      message: `is ${bytes} bytes (UTF-8); a command line takes at most ${BASH_COMMAND_MAX_BYTES} bytes. Write the script to a file with the write tool and run that file (bash script.sh)`,
    });
  } else if (command.includes('\0')) {
    issues.push({
      path: ['command'],
      message: `contains a NUL byte (at character ${command.indexOf('\0')}), which no command line can carry; write \\0 with printf, or put the data in a file`,
    });
  }
  if (cwd?.includes('\0') === true)
    issues.push({ path: ['cwd'], message: 'contains a NUL byte; allowed: a folder path inside the workspace' });
  return issues;
}

function streamMeta(s: CapturedStream): Record<string, unknown> {
  return { total_bytes: s.totalBytes, truncated: s.truncated };
}

/** The `bash` tool. */
export const bashTool = defineTool({
  name: 'bash',
  description: `Run a shell command (bash -c) in the workspace. The command takes at most ${BASH_COMMAND_MAX_BYTES} bytes (UTF-8): write a longer script to a file and run that. timeout is in milliseconds (default 120000, at most 600000); the deadline covers the command's exit and the draining of its output, and on timeout or cancellation every process it started is killed (its process group, and on Linux also processes that left it with setsid or a double fork, even with a cleared environment). Processes still running when the command returns (e.g. \`server &\`) are listed in the output and in metadata.background_processes, and are killed when the session closes; their later output is not captured. cwd must be inside the workspace. stdout and stderr are each capped (max_output_bytes, default 32768): the head and tail are kept and the exact byte totals reported. metadata has exit_code, timed_out and the files the command created, modified or deleted.`,
  inputJsonSchema: toolJsonSchemas.bash,
  plainInput: true,
  input: bashInput,
  limits: bashLimits,
  tier: 'exec',
  requires: ['exec'],
  capabilities: {
    readOnly: false,
    idempotent: false,
    resumable: false,
    cancelSafe: false,
    paginated: false,
    maxParallelism: 4,
    outputType: 'text',
  },
  timeoutMs: BASH_TIMEOUT_MS.max + 30_000,
  execute: (args, ctx) =>
    guard(async () => {
      const exec = ctx.workspace.exec;
      if (!exec) throw new CapabilityUnavailableError('exec', 'bash');
      const timeoutMs = args.timeout ?? BASH_TIMEOUT_MS.default;
      // The listing before the command takes at most half of its deadline (at least a second, at
      // most SNAPSHOT_TIMEOUT_MS). One that had to be given up (stuck: rg unable to start its
      // threads) counts against the deadline, the command keeping at least half of it, so the call
      // ends within its timeout (or a second past a timeout under two seconds); one that finished
      // does not count, so a command keeps its whole timeout on a slow machine.
      const started = performance.now();
      const first = await snapshotWorkspaceWithin(
        ctx.workspace,
        ctx.signal,
        Math.min(SNAPSHOT_TIMEOUT_MS, Math.max(timeoutMs / 2, 1000)),
      );
      const before = first.snapshot;
      const spent = performance.now() - started;
      const left =
        first.note === undefined ? timeoutMs : Math.max(1, Math.floor(Math.max(timeoutMs / 2, timeoutMs - spent)));
      const live = new LiveOutput((delta, stream) => ctx.emitOutput(delta, stream));
      const result = await exec
        .run({
          command: args.command,
          timeoutMs: left,
          maxOutputBytes: args.max_output_bytes ?? BASH_MAX_OUTPUT_BYTES.default,
          signal: ctx.signal,
          onOutput: (stream, text) => live.push(stream, text),
          ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
        })
        .finally(() => live.close());
      // The listing after it has a short bound of its own (the one before showed it works).
      const second = before ? await snapshotWorkspaceWithin(ctx.workspace, ctx.signal) : undefined;
      const after = second?.snapshot;
      const changed = changesBetween(before, after);
      const snapshotNote = first.note ?? second?.note;
      let output = renderCaptured(result.stdout, 'stdout');
      const err = renderCaptured(result.stderr, 'stderr');
      if (err !== '') output += `${output === '' || output.endsWith('\n') ? '' : '\n'}[stderr]\n${err}`;
      if (result.timedOut)
        output += `${output === '' || output.endsWith('\n') ? '' : '\n'}[timed out after ${timeoutMs} ms: the process group was killed]`;
      else if (result.exitCode !== 0)
        output += `${output === '' || output.endsWith('\n') ? '' : '\n'}[exit code ${result.exitCode ?? `signal ${result.signal}`}]`;
      const background = result.backgroundProcesses ?? [];
      if (background.length > 0)
        output += `${output === '' || output.endsWith('\n') ? '' : '\n'}${renderBackground(background)}`;
      if (result.processLimit !== undefined)
        output += `${output === '' || output.endsWith('\n') ? '' : '\n'}[the command reached the ceiling of ${result.processLimit} processes and threads at once: forks past it failed]`;
      for (const note of result.heldNotes ?? [])
        output += `${output === '' || output.endsWith('\n') ? '' : '\n'}${note}`;
      const denied = describeDeniedWrites(result.deniedWrites);
      if (denied !== '') output += `${output === '' || output.endsWith('\n') ? '' : '\n'}${denied}`;
      if (snapshotNote !== undefined) output += `${output === '' || output.endsWith('\n') ? '' : '\n'}${snapshotNote}`;
      const exitCode = result.timedOut ? 124 : (result.exitCode ?? 128) || (result.deniedWrites === undefined ? 0 : 1);
      return {
        output,
        exitCode,
        metadata: {
          exit_code: result.exitCode,
          signal: result.signal,
          timed_out: result.timedOut,
          duration_ms: Math.round(result.durationMs),
          stdout: streamMeta(result.stdout),
          stderr: streamMeta(result.stderr),
          changed_files: changed,
          changed_paths: changed ? [...changed.created, ...changed.modified, ...changed.deleted].sort() : null,
          ...(snapshotNote === undefined ? {} : { changed_files_unknown: snapshotNote }),
          background_processes: background.map((p) => ({
            pid: p.pid,
            command: p.command,
            ...(p.shellPid === undefined ? {} : { shell_pid: p.shellPid }),
          })),
          ...(result.heldNotes === undefined ? {} : { held_notes: [...result.heldNotes] }),
          ...(result.processLimit === undefined ? {} : { process_limit: result.processLimit }),
          ...(result.deniedWrites === undefined
            ? {}
            : {
                denied_writes: {
                  removed: [...result.deniedWrites.removed],
                  ...(result.deniedWrites.restored === undefined
                    ? {}
                    : { restored: [...result.deniedWrites.restored] }),
                  ...(result.deniedWrites.problem === undefined ? {} : { problem: result.deniedWrites.problem }),
                },
              }),
        },
      };
    }),
});
