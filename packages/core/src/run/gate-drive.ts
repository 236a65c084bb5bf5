/**
 * A run's drive under the completion gate: drive the run, ask the gate, and keep it going with
 * continuation messages (the gate's, a stop hook's) within their budgets, which are counted from
 * the run's facts in the log, so a run resumed in another process keeps what it already used.
 */
import { drafts, sync, type Fact, type FactLog } from '@a3s-code/effect';
import type { GateDecision } from '../gate/completion-gate.js';
import { CompletionIncompleteError, continuationText } from '../gate/session-gate.js';
import { describeReport } from '../gate/verification-report.js';
import type { AgentEventPayloads } from '../events/agent-event.js';
import { MAX_STOP_CONTINUATIONS, runStopHooks } from '../hooks/session-hooks.js';
import { NO_APPROVER_REASON, noApprover } from '../permissions/confirmation.js';
import { driveRun } from './drive-run.js';
import type { RunResult } from './run-result.js';
import type { LiveRun } from './run-setup.js';
import type { ExecuteRunOptions } from './run-request.js';

/** The transitions one call may run. */
export const STEP_LIMIT = 32;

/**
 * Drives the run, then asks the completion gate: allowed → the result carries the
 * completion; continue → a continuation message and another drive (the 32 transitions are shared);
 * otherwise `COMPLETION_INCOMPLETE`. Each continuation is announced as `run_continued`. A run the
 * log records as ended (a resume of the last, completed run) is never continued: its result is
 * what the log records.
 */
export async function driveWithGate(
  options: ExecuteRunOptions,
  run: LiveRun,
  interrupted: string | undefined,
): Promise<RunResult> {
  const { env } = run;
  const config = options.config;
  let steps = 0;
  for (;;) {
    const result = await driveRun({
      env,
      harness: options.harness,
      folder: options.folder,
      stepLimit: STEP_LIMIT - steps,
      runStepLimit: STEP_LIMIT,
      ...(config.confirmation ? { confirmation: config.confirmation } : {}),
      ...(config.onQuestion ? { onQuestion: config.onQuestion } : {}),
      parkMode: config.parkMode,
      hostAnswered: options.hostAnswered,
      earlyEnd: () => options.gate.allowsEarlyEnd(env.runId),
      hooks: config.hooks,
      ...(interrupted === undefined ? {} : { interrupted }),
    });
    steps += result.steps;
    if (result.status !== 'completed') return { ...result, steps };
    const ended = endOf(options, env.runId);
    if (ended !== undefined) return endedResult(options, env.runId, { ...result, steps }, ended);
    const log = options.store.log;
    const decision = await options.gate.decide(
      env.runId,
      options.sessionId,
      continuationsOf(log, env.runId, 'completion_gate'),
      () => unverifiable(options, run),
    );
    if (decision.decision === 'allow') {
      const allowed = allowedResult({ ...result, steps }, decision);
      // A stop hook may keep the run going (bounded): its reason becomes the next user message.
      const used = continuationsOf(log, env.runId, 'stop_hook');
      const reason =
        used < MAX_STOP_CONTINUATIONS
          ? await runStopHooks(config.hooks, { session_id: options.sessionId, run_id: env.runId, text: allowed.text })
          : undefined;
      if (reason === undefined) return allowed;
      await continueRun(options, run, {
        origin: 'stop_hook',
        text: reason,
        reason,
        attempt: used + 1,
        max_attempts: MAX_STOP_CONTINUATIONS,
      });
      continue;
    }
    if (decision.decision === 'incomplete') throw new CompletionIncompleteError(decision.digest, decision.reason);
    await continueRun(options, run, {
      origin: 'completion_gate',
      text: continuationText(decision.digest, decision.reason),
      reason: decision.reason,
      attempt: continuationsOf(log, env.runId, 'completion_gate') + 1,
      max_attempts: options.gate.maxContinuations,
      effect_digest: decision.digest,
    });
  }
}

/** The verify call the model would make, as the permissions see it (its commands are the model's choice). */
const VERIFY_PROBE = { subject: 'the changes of this run', commands: [{ id: 'check', command: 'true' }] };

/** An allow rule naming the verify tool (with or without a pattern): some verify calls may then run unasked. */
const VERIFY_RULE = /^\s*verify\s*(\(|$)/i;

/**
 * Why the model cannot verify in this run, or `undefined`: the session's permissions deny every
 * `verify` call (a rule without a pattern, its mode or its skill), or the session has nobody to
 * approve a call ({@link noApprover}, calls not parked for the host) and its permissions ask about
 * every `verify` call (no rule allows one), so a continuation asking the model to verify would
 * only be refused.
 */
async function unverifiable(options: ExecuteRunOptions, run: LiveRun): Promise<string | undefined> {
  const verdict = await options.invoker.project(
    { id: 'gate-verify', name: 'verify', args: VERIFY_PROBE },
    run.env.invocation,
  );
  if (verdict.decision === 'deny' && !verdict.rule.includes('('))
    return `the verify tool is denied in this session (${verdict.rule}), so the model is not asked to verify; allow the verify tool, or waive these changes`;
  // A parked call (`parkMode: 'return'`) is answered by the host, which may approve it.
  if (options.config.confirmation !== noApprover || options.config.parkMode !== 'wait') return undefined;
  if ((options.config.permissions.allow ?? []).some((r) => VERIFY_RULE.test(r))) return undefined;
  if (verdict.decision !== 'ask' || verdict.rule !== 'default') return undefined;
  return `the verify tool needs a confirmation under this session's permissions and nobody can give one (${NO_APPROVER_REASON}), so the model is not asked to verify; open the session with an approver (onConfirm) or allow the verify tool in its permissions`;
}

/** The `run.ended` of `runId` when the log records the run ended (it is not its open run). */
function endOf(options: ExecuteRunOptions, runId: string): Fact | undefined {
  sync(options.folder, options.store.log);
  const open = options.folder.state.view.run;
  if (open.status === 'running' && open.run_id === runId) return undefined;
  return options.store.log.get(`end:${runId}`);
}

/**
 * The result of a run the log records as ended: its evidence as the gate reads it now (nothing
 * decided, nothing appended), else the completion its `run.ended` records.
 */
function endedResult(options: ExecuteRunOptions, runId: string, result: RunResult, ended: Fact): RunResult {
  const gate = options.gate.forRun(runId);
  const decision = gate.verification.evaluate(gate.ledger(runId), false, { runId });
  if (decision.decision === 'allow') return allowedResult(result, decision);
  const recorded = (ended.payload as { completion?: unknown }).completion;
  return { ...result, completion: typeof recorded === 'string' ? recorded : null };
}

/**
 * The continuation messages of `origin` the log records for run `runId`: the budget they draw
 * from is the run's, whichever process appended them.
 */
export function continuationsOf(log: FactLog, runId: string, origin: 'completion_gate' | 'stop_hook'): number {
  const prefix = `${origin === 'stop_hook' ? 'stop-hook' : 'continuation'}:${runId}:`;
  const facts = log.facts;
  let n = 0;
  for (let i = facts.length - 1; i >= 0; i--) {
    const f = facts[i]!;
    if (f.type === 'run.started' && (f.payload as { run_id?: unknown }).run_id === runId) break;
    if (f.type === 'user.message' && f.key.startsWith(prefix)) n++;
  }
  return n;
}

/**
 * The result of an allowed run. When the gate ended it after a passing verification,
 * the model's last text was written before the checks ran ("Verifying."), so the verification
 * summary becomes the run's text.
 */
function allowedResult(result: RunResult, decision: Extract<GateDecision, { decision: 'allow' }>): RunResult {
  const verification = decision.completion === 'verified' && decision.report ? { verification: decision.report } : {};
  const base = { ...result, completion: decision.completion, ...verification };
  if (result.endedBy !== 'verification') return base;
  if (decision.report) return { ...base, text: describeReport(decision.report) };
  if (decision.waiver) return { ...base, text: `verification waived by the host: ${decision.waiver.reason}` };
  return base;
}

/** Appends a continuation message (a host fact) and announces it as `run_continued`. */
async function continueRun(
  options: ExecuteRunOptions,
  run: LiveRun,
  continuation: { readonly text: string } & AgentEventPayloads['runContinued'],
): Promise<void> {
  const { env } = run;
  const { text, ...event } = continuation;
  await options.store.append(
    [
      drafts.continuation(
        env.runId,
        options.store.log.length + 1,
        continuation.origin,
        text,
        continuation.reason,
        env.clock(),
      ),
    ],
    null,
  );
  env.events.emit({ kind: 'runContinued', payload: event });
}
