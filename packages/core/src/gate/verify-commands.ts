/**
 * Runs verification commands through the tool kernel (each as a `bash` call with its own
 * timeout) and builds the report, bound to the effect digest of the changes at the
 * time the checks ran.
 */
import { randomUUID } from 'node:crypto';
import { lazyZod } from '../tools/zod-loader.js';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { configError } from '../config/config-error.js';
import { objectIssue } from '../config/config-schema-vibe.js';
import type { ToolInvocationResult } from '../invoker/invocation-types.js';
import { reportStatus, type VerificationCheck, type VerificationReport } from './verification-report.js';

/** One command to verify with. */
export interface VerificationCommand {
  readonly id: string;
  /** What kind of check: `test`, `typecheck`, `lint`, `build`, ... */
  readonly kind?: string;
  readonly description?: string;
  readonly command: string;
  /** A required check that does not pass keeps the report from passing; an optional one (`false`) may fail without failing it. Default true. */
  readonly required?: boolean;
  /** Per-command timeout in ms, 1000..3,600,000. Default 120000. */
  readonly timeoutMs?: number;
}

/** Options of a verification. */
export interface VerifyOptions {
  /** Risks the checks do not cover; any makes the report `needs_review`. */
  readonly residualRisks?: readonly string[];
}

/** The keys of a command, in the order they are listed when an unknown one is refused. */
const COMMAND_KEYS = ['id', 'kind', 'description', 'command', 'required', 'timeoutMs'] as const;

const commandSchema = lazyZod((z) => {
  // A missing key is said to be missing; a value of another type, or out of bounds, what it must be.
  const text = (what: string, max: number) =>
    z
      .string({ error: (iss) => (iss.input === undefined ? `is missing: it must be ${what}` : `must be ${what}`) })
      .min(1, { error: `must be ${what}` })
      .max(max, { error: `must be at most ${max} characters` });
  const ms = 'an integer number of milliseconds from 1000 to 3600000';
  const keys = COMMAND_KEYS.join(', ');
  return z.strictObject(
    {
      id: text('a non-empty string naming the check (unique in the list), e.g. "unit"', 128),
      kind: text('a non-empty string such as "test", "typecheck", "lint" or "build"', 64).optional(),
      description: z
        .string({ error: 'must be a string' })
        .max(2000, { error: 'must be at most 2000 characters' })
        .optional(),
      command: text('the shell command to run, a non-empty string, e.g. "npm test"', 100_000),
      required: z.boolean({ error: 'must be true or false' }).optional(),
      timeoutMs: z
        .number({ error: `must be ${ms}` })
        .int({ error: `must be ${ms}` })
        .min(1000, { error: `must be ${ms}` })
        .max(3_600_000, { error: `must be ${ms}` })
        .optional(),
    },
    { error: objectIssue(`allowed keys: ${keys}`, `must be a command object with keys ${keys}`) },
  );
});

/**
 * Checks the arguments of `verifyCommands`; throws `SESSION_CONFIGURATION` naming the field (as
 * other options are: an unknown key with the allowed keys and the one it was probably meant to be).
 */
export function validateVerification(
  subject: unknown,
  commands: unknown,
): asserts commands is readonly VerificationCommand[] {
  if (typeof subject !== 'string' || subject.trim().length === 0 || subject.length > 500) {
    throw new SessionConfigurationError('subject', 'must be a non-empty string of at most 500 characters');
  }
  if (!Array.isArray(commands) || commands.length > 64)
    throw new SessionConfigurationError('commands', 'must be an array of at most 64 commands');
  const ids = new Set<string>();
  commands.forEach((c, i) => {
    const parsed = commandSchema().safeParse(c);
    if (!parsed.success) {
      // A mistyped key is reported before the key it leaves missing (`cmd` before `command`).
      const issues = [...parsed.error.issues].sort(
        (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
      );
      throw configError(issues.map((issue) => ({ ...issue, path: ['commands', i, ...issue.path] })));
    }
    if (ids.has(parsed.data.id))
      throw new SessionConfigurationError(`commands[${i}].id`, `duplicates '${parsed.data.id}'`);
    ids.add(parsed.data.id);
  });
}

/** Runs one command through the kernel. */
export type CommandRunner = (command: string, timeoutMs: number) => Promise<ToolInvocationResult>;

const TAIL_CHARS = 4000;

function checkOf(c: VerificationCommand, r: ToolInvocationResult): VerificationCheck {
  const base = {
    id: c.id,
    kind: c.kind ?? 'check',
    description: c.description ?? c.command,
    required: c.required ?? true,
  };
  const m = r.metadata as { exit_code?: unknown; timed_out?: unknown };
  const tail = r.output.length > TAIL_CHARS ? `…${r.output.slice(-TAIL_CHARS)}` : r.output;
  const evidence = {
    command: c.command,
    exit_code: typeof m.exit_code === 'number' ? m.exit_code : r.exitCode,
    timed_out: m.timed_out === true || r.errorKind === 'timeout',
    duration_ms: r.durationMs,
    output_tail: tail,
  };
  const background = Array.isArray(r.metadata.background_processes) ? r.metadata.background_processes.length : 0;
  // A command that returns while processes it started keep running has not finished its work:
  // they may still change the workspace, so its exit code proves nothing about the final state.
  if (r.ok && background > 0)
    return {
      ...base,
      status: 'needs_review',
      evidence: {
        ...evidence,
        reason: `the command left ${background} process(es) running in the background, which may still change the workspace; a check must finish all its work before it returns`,
      },
    };
  if (r.ok) return { ...base, status: 'passed', evidence };
  // The rules, the operator or a hook refused the command: said so, with the rule or the reason.
  if (r.errorKind === 'permission_denied' || r.errorKind === 'blocked')
    return { ...base, status: 'denied', evidence: { command: c.command, reason: r.output.slice(0, 500) } };
  // The command did not run at all: no evidence either way.
  if (r.errorKind === 'cancelled' || r.errorKind === 'not_found' || r.errorKind === 'budget_exhausted') {
    return {
      ...base,
      status: 'skipped',
      evidence: { command: c.command, reason: `${r.errorKind}: ${r.output.slice(0, 500)}` },
    };
  }
  return { ...base, status: 'failed', evidence };
}

/** What a report is bound to. */
export interface VerificationBinding {
  /**
   * The effect digest; a function is read after the commands ran, so the report covers the
   * changes the commands made themselves.
   */
  readonly digest: string | null | (() => string | null);
  readonly runId: string | null;
  readonly now: number;
  /**
   * Read together with `digest`, after the commands ran: risks found meanwhile (the workspace
   * changed by something other than the checks while they ran). Any makes the report `needs_review`.
   */
  readonly risksAfter?: () => readonly string[];
}

/** Runs the commands in order and builds the report, bound as `bind` says. */
export async function runVerification(
  subject: string,
  commands: readonly VerificationCommand[],
  run: CommandRunner,
  bind: VerificationBinding,
  options: VerifyOptions = {},
): Promise<VerificationReport> {
  const checks: VerificationCheck[] = [];
  for (const c of commands) checks.push(checkOf(c, await run(c.command, c.timeoutMs ?? 120_000)));
  // Read at once, with no await in between, so nothing can change the ledger between the two.
  const digest = typeof bind.digest === 'function' ? bind.digest() : bind.digest;
  const risks = [...(options.residualRisks ?? []), ...(bind.risksAfter?.() ?? [])];
  return {
    schema: 'a3s.verification_report.v1',
    id: `vr-${randomUUID()}`,
    subject,
    status: reportStatus(checks, risks),
    checks,
    residual_risks: risks,
    effect_digest: digest,
    run_id: bind.runId,
    created_at_ms: bind.now,
    source: 'commands',
  };
}

/** Ready-made command lists for common stacks. */
export const VERIFICATION_PRESETS: Readonly<Record<'node' | 'python' | 'rust' | 'go', readonly VerificationCommand[]>> =
  Object.freeze({
    node: [
      { id: 'test', kind: 'test', description: 'Unit tests', command: 'npm test', required: true, timeoutMs: 600_000 },
      {
        id: 'typecheck',
        kind: 'typecheck',
        description: 'TypeScript type check',
        command: 'npx --no-install tsc --noEmit',
        required: false,
      },
    ],
    python: [
      {
        id: 'test',
        kind: 'test',
        description: 'pytest',
        command: 'python3 -m pytest -q',
        required: true,
        timeoutMs: 600_000,
      },
      {
        id: 'compile',
        kind: 'build',
        description: 'Byte-compile every module',
        command: 'python3 -m compileall -q .',
        required: false,
      },
    ],
    rust: [
      {
        id: 'test',
        kind: 'test',
        description: 'cargo test',
        command: 'cargo test --quiet',
        required: true,
        timeoutMs: 1_800_000,
      },
      {
        id: 'check',
        kind: 'typecheck',
        description: 'cargo check',
        command: 'cargo check --quiet',
        required: false,
        timeoutMs: 900_000,
      },
    ],
    go: [
      {
        id: 'test',
        kind: 'test',
        description: 'go test',
        command: 'go test ./...',
        required: true,
        timeoutMs: 900_000,
      },
      { id: 'vet', kind: 'lint', description: 'go vet', command: 'go vet ./...', required: false },
    ],
  });
