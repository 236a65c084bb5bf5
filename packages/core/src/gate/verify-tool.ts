/**
 * `verify`: the model's way to produce a verification report. Each command runs as a nested
 * `bash` call through the kernel (so it is governed like any other call, and what it changes is
 * recorded like any other change); the report is bound to the digest of the run's changes after
 * the checks ran, their own changes included, and recorded for the completion gate.
 */
import type { Zod } from '../tools/zod-loader.js';
import { changesSoFar } from '../invoker/change-collector.js';
import type { ChangeRecordEntry } from './change-record.js';
import { defineTool } from '../tools/define-tool.js';
import { markFreshNestedCalls } from '../invoker/call-journal.js';
import { markShownCommands } from '../invoker/shown-commands.js';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import { effectDigest } from './mutation-ledger.js';
import type { RequiredCheck, SessionGate } from './session-gate.js';
import { describeReport } from './verification-report.js';
import { runVerification } from './verify-commands.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

const input = (z: Zod) =>
  z.strictObject({
    subject: z.string().min(1).max(500).describe('What is being verified, e.g. "fix for the date parser".'),
    commands: z
      .array(
        z.strictObject({
          id: z.string().min(1).max(128),
          command: z.string().min(1).max(100_000).describe('Shell command; exit code 0 means the check passed.'),
          kind: z.string().min(1).max(64).optional().describe('test, typecheck, lint, build, ...'),
          description: z.string().max(2000).optional(),
          required: z.boolean().default(true),
          timeout_ms: z.number().int().min(1000).max(3_600_000).default(120_000),
        }),
      )
      .min(1)
      .max(32),
    residual_risks: z.array(z.string().min(1).max(2000)).max(32).default([]).describe('What the checks do not cover.'),
  });

/**
 * What the model is told. A passing verification of the run's changes ends the run at once (the
 * completion gate needs no further model call), so the model must know to verify last.
 */
const VERIFY_DESCRIPTION = [
  'Run verification commands (tests, type checks, builds) and record a verification report bound to the current changes.',
  'A run that changed the workspace completes only with a passed report for its latest changes.',
  'A passing verification ENDS THE RUN immediately: you get no further turn, and the report is the final answer shown to the person.',
  'So call verify once all the work is done, as your last step; put anything the person should know (what you did, what is left open) in the text of the same message.',
  'If verification fails, fix the cause and verify again. Checks with required: false may fail without failing the report.',
].join(' ');

/** The risk of changes made while the checks ran by something other than them, if any. */
function interference(logChanged: boolean, foreign: readonly ChangeRecordEntry[]): string[] {
  if (!logChanged && foreign.length === 0) return [];
  const what = [...new Set(foreign.map((e) => `${e.tool} ${e.path}`))];
  if (logChanged) what.push('a background worker of this run');
  return [
    `the workspace changed while the checks ran (${what.slice(0, 8).join(', ')}${what.length > 8 ? ', …' : ''}), so they may have checked an earlier state; verify again once nothing else is changing files`,
  ];
}

/** The prefix of the ids of the host's required checks in a report. */
const HOST_PREFIX = 'host.';

/** The description, with the checks the host requires (the model should know they always run). */
function describeVerify(required: readonly RequiredCheck[]): string {
  if (required.length === 0) return VERIFY_DESCRIPTION;
  const list = required.map((c) => `${HOST_PREFIX}${c.id}: ${c.command.slice(0, 200)}`).join('; ');
  return `${VERIFY_DESCRIPTION} The host also requires these checks; they run after yours in every verify call and must pass: ${list}.`;
}

/** Builds the `verify` tool of a session. */
export function createVerifyTool(gate: SessionGate, clock: () => number = Date.now) {
  // Read once: the checks are part of the session's configuration.
  const required: readonly RequiredCheck[] = gate.requiredChecks ?? [];
  // A person confirming a call sees the commands of its arguments: its own bash calls of them run
  // as approved. The host's required checks are not in its arguments, so they are asked as ever.
  const commandsOf = (args: unknown): string[] => {
    const listed = (args as { commands?: unknown } | null)?.commands;
    const own = Array.isArray(listed) ? listed.map((c) => (c as { command?: unknown } | null)?.command) : [];
    return own.filter((c): c is string => typeof c === 'string');
  };
  const tool = defineTool({
    name: 'verify',
    description: describeVerify(required),
    tier: 'exec',
    inputJsonSchema: toolJsonSchemas.verify,
    plainInput: true,
    input,
    capabilities: { readOnly: false, idempotent: false },
    execute: async (args, ctx) => {
      // A child run (sub-agent, worker) is decided by its own gate, on its own log.
      const runGate = gate.forRun(ctx.runId);
      const reserved = args.commands.find((c) => c.id.startsWith(HOST_PREFIX));
      if (reserved !== undefined && required.length > 0)
        throw new InvalidToolArgsError('verify', [
          {
            field: `args.commands[${args.commands.indexOf(reserved)}].id`,
            message: `'${reserved.id}' starts with '${HOST_PREFIX}', which names the host's required checks; choose another id`,
          },
        ]);
      const commands = [
        ...args.commands.map((c) => ({
          id: c.id,
          command: c.command,
          required: c.required,
          timeoutMs: c.timeout_ms,
          ...(c.kind === undefined ? {} : { kind: c.kind }),
          ...(c.description === undefined ? {} : { description: c.description }),
        })),
        ...required.map((c) => ({
          id: `${HOST_PREFIX}${c.id}`,
          command: c.command,
          required: true,
          timeoutMs: c.timeoutMs ?? 120_000,
          kind: c.kind ?? 'host',
          description: c.description ?? `required by the host: ${c.command.slice(0, 200)}`,
        })),
      ];
      // What had changed before the checks: anything else that changes while they run (a sibling
      // call in a program, a background worker) changes files the checks may already have read.
      const logBefore = runGate.ledger(ctx.runId).digest;
      const recordedBefore = changesSoFar(ctx).length;
      const own = new Set<string>();
      const report = await runVerification(
        args.subject,
        commands,
        async (command, timeoutMs) => {
          const r = await ctx.invoker.invoke('bash', { command, timeout: timeoutMs });
          own.add(r.id);
          return r;
        },
        {
          // The changes recorded so far plus those of this call (and its commands), not yet in the log.
          digest: () =>
            effectDigest([
              ...runGate.ledger(ctx.runId).entries,
              ...changesSoFar(ctx).map((e) => ({ tool: e.tool, path: e.path, digest: e.digest })),
            ]),
          runId: ctx.runId,
          now: clock(),
          risksAfter: () =>
            interference(
              runGate.ledger(ctx.runId).digest !== logBefore,
              changesSoFar(ctx)
                .slice(recordedBefore)
                .filter((e) => !own.has(e.call_id)),
            ),
        },
        { residualRisks: args.residual_risks },
      );
      runGate.verification.addReport(report);
      const output = describeReport(report);
      // The report itself changes no file: say so, so the ledger does not count it as a change.
      return { output, exitCode: report.status === 'passed' ? 0 : 1, metadata: { report, changed_paths: [] } };
    },
  });
  // A check reports the workspace as it is now: a re-run after a crash runs every one again.
  return markFreshNestedCalls(markShownCommands(tool, commandsOf));
}
