/**
 * `DynamicWorkflowRuntime`'s scheduler: runs a validated workflow's steps in start order. First
 * it recovers every step that completed earlier in this same run, for this same query, in this
 * same session (and whose inputs were recovered too); then it runs the rest. A step starts when its inputs have
 * completed; `program` and `parallel_task` steps run alone; `generate_object` steps run one at a
 * time, or up to `maxConcurrentGenerations` together when the model client can fork, each then
 * through its own fork bound to the run and the step. Every attempt is recorded before it starts
 * and after it ends, so a crash leaves only unfinished attempts, which are never recovered.
 */
import { randomUUID } from 'node:crypto';
import { CancelledError } from '../errors/tool-errors.js';
import { interruptedChange, UNKNOWN_PATH, type ChangeRecordEntry } from '../gate/change-record.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { WorkflowStep, WorkflowStepKind } from './workflow-definition.js';
import { WorkflowStepError } from './workflow-errors.js';
import type { ValidatedWorkflow } from './workflow-graph.js';
import {
  attemptsOf,
  completedDraft,
  failedDraft,
  recoverDynamicWorkflowStepOutput,
  startedDraft,
  type AttemptIdentity,
  type StepChanges,
  unfinishedAttemptOf,
} from './step-record.js';
import { runGenerateStep, runParallelStep, runProgramStep, type StepEnv } from './step-runners.js';
import type { WorkflowRunLog } from './workflow-store.js';
import type { TemplateScope } from './workflow-template.js';

/** What a step ended as in one run. */
export type WorkflowStepStatus = 'completed' | 'recovered' | 'failed' | 'cancelled' | 'skipped';

/** One step of a run, as reported. */
export interface WorkflowStepReport {
  readonly id: string;
  readonly kind: WorkflowStepKind;
  readonly status: WorkflowStepStatus;
  /** Wall time of the attempt in this run, ms (0 for a recovered or skipped step). */
  readonly durationMs: number;
  /** The attempt that produced the output (recovered: the earlier one). */
  readonly attempt?: number;
  readonly error?: { readonly code: string; readonly message: string };
}

/** A workflow run's progress, as hosts receive it. */
export interface WorkflowProgressEvent {
  readonly runId: string;
  readonly flow: string;
  readonly stepId: string;
  readonly kind: WorkflowStepKind;
  /** `started`, then `completed` or `failed`; `recovered` for a step taken from an earlier attempt. */
  readonly state: 'started' | 'completed' | 'recovered' | 'failed';
  readonly error?: { readonly code: string; readonly message: string };
}

/** What a run ended with. */
export interface WorkflowRunReport {
  readonly runId: string;
  readonly flow: string;
  readonly status: 'completed' | 'failed' | 'cancelled';
  /** The output step's output (completed runs only). */
  readonly output?: unknown;
  /** Every step, in start order. */
  readonly steps: readonly WorkflowStepReport[];
  /** The first step failure. */
  readonly error?: { readonly step: string; readonly code: string; readonly message: string };
  /** Generation steps allowed at once: the definition's limit, or 1 when the client cannot fork. */
  readonly maxConcurrentGenerations: number;
  /**
   * What the recovered steps had changed in the workspace (their attempts ran in an earlier
   * process), plus a change with unknown paths for each step re-run after an attempt of it that
   * a crash interrupted.
   */
  readonly recoveredChanges: StepChanges;
}

/** What one run needs. */
export interface WorkflowRunRequest {
  readonly workflow: ValidatedWorkflow;
  readonly flow: string;
  readonly runId: string;
  readonly query: string;
  /** The session running it: recorded in every fact, and only its own records are recovered. */
  readonly sessionId: string;
  /** The steps run with the host's trust (the host called `dynamic_workflow`): recorded in every fact. */
  readonly trusted?: boolean;
  /** The digest of the rules the steps' calls run under: recorded in every fact, and only records made under them are recovered. */
  readonly rulesDigest?: string;
  readonly log: WorkflowRunLog;
  readonly env: StepEnv;
  /** The run's governed model client (`undefined`: no model). */
  readonly llm: LlmClient | undefined;
  readonly clock: () => number;
  /** The changes recorded so far under the `dynamic_workflow` call (grows as nested calls settle). */
  readonly changes: () => readonly ChangeRecordEntry[];
  readonly onProgress: (event: WorkflowProgressEvent) => void;
}

function errorOf(e: unknown): { code: string; message: string } {
  if (e instanceof WorkflowStepError) return { code: e.reason, message: e.detail };
  const code = (e as { code?: unknown })?.code;
  return { code: typeof code === 'string' ? code : 'ERROR', message: e instanceof Error ? e.message : String(e) };
}

function changesOf(entries: readonly ChangeRecordEntry[]): StepChanges {
  if (entries.some((e) => e.path === UNKNOWN_PATH)) return 'unknown';
  return entries.map((e) => ({ path: e.path, digest: e.digest }));
}

function mergeChanges(a: StepChanges, b: StepChanges): StepChanges {
  return a === 'unknown' || b === 'unknown' ? 'unknown' : [...a, ...b];
}

/** Runs a workflow (see the module comment). Resolves with the report; never throws for a step failure. */
export async function runWorkflow(req: WorkflowRunRequest): Promise<WorkflowRunReport> {
  const { workflow, log, env, clock } = req;
  const outputs = new Map<string, unknown>();
  const reports = new Map<string, WorkflowStepReport>();
  const progress = (
    step: WorkflowStep,
    state: WorkflowProgressEvent['state'],
    error?: WorkflowProgressEvent['error'],
  ) =>
    req.onProgress({
      runId: req.runId,
      flow: req.flow,
      stepId: step.id,
      kind: step.kind,
      state,
      ...(error ? { error } : {}),
    });
  const keyOf = (step: WorkflowStep) => ({
    runId: req.runId,
    query: req.query,
    stepId: step.id,
    stepDigest: workflow.digests.get(step.id)!,
    sessionId: req.sessionId,
    ...(req.rulesDigest === undefined ? {} : { rulesDigest: req.rulesDigest }),
  });

  // Recovery: a completed attempt of this run, query and step, whose inputs were recovered too.
  let recoveredChanges: StepChanges = [];
  for (const step of workflow.order) {
    if (!(step.inputs ?? []).every((i) => reports.get(i)?.status === 'recovered')) continue;
    const found = recoverDynamicWorkflowStepOutput(log.facts, keyOf(step));
    if (found === undefined) continue;
    outputs.set(step.id, found.output);
    reports.set(step.id, { id: step.id, kind: step.kind, status: 'recovered', durationMs: 0, attempt: found.attempt });
    recoveredChanges = mergeChanges(recoveredChanges, found.changes);
    progress(step, 'recovered');
  }

  // A step whose latest attempt never ended ran when the process died: whatever that attempt
  // changed is in no record, so before it runs again it stands as a change with unknown paths
  // (a generation step changes nothing).
  for (const step of workflow.order) {
    if (reports.has(step.id) || step.kind === 'generate_object') continue;
    const attempt = unfinishedAttemptOf(log.facts, keyOf(step));
    if (attempt === undefined) continue;
    const ref = `${req.runId}:${step.id}#${attempt}:${randomUUID()}`;
    const { path, digest } = interruptedChange(step.id, step.kind, ref);
    recoveredChanges = mergeChanges(recoveredChanges, [{ path, digest }]);
  }

  const canFork = req.llm !== undefined && typeof req.llm.fork === 'function';
  const limit = canFork ? workflow.maxConcurrentGenerations : 1;
  const pending = workflow.order.filter((s) => !reports.has(s.id));
  const running = new Map<string, { readonly kind: WorkflowStepKind; readonly done: Promise<void> }>();
  let failure: { step: string; code: string; message: string } | undefined;

  const llmFor = (step: WorkflowStep): LlmClient | undefined =>
    limit > 1 && req.llm?.fork ? req.llm.fork({ runId: req.runId, stepId: step.id }) : req.llm;

  const execute = (step: WorkflowStep, scope: TemplateScope): Promise<unknown> => {
    if (step.kind === 'program') return runProgramStep(step, scope, env);
    if (step.kind === 'parallel_task') return runParallelStep(step, scope, env);
    return runGenerateStep(step, scope, llmFor(step), env.signal);
  };

  const attempt = async (step: WorkflowStep): Promise<void> => {
    const scope: TemplateScope = {
      query: req.query,
      steps: new Map((step.inputs ?? []).map((i) => [i, outputs.get(i)])),
    };
    const id: AttemptIdentity = {
      ...keyOf(step),
      attempt: attemptsOf(log.facts, keyOf(step)) + 1,
      ...(req.trusted === true ? { trusted: true } : {}),
    };
    const started = clock();
    const before = req.changes().length;
    try {
      await log.append([startedDraft(id, step.kind, started)]);
      progress(step, 'started');
      const output = await execute(step, scope);
      if (env.signal.aborted) throw new CancelledError(`workflow step '${step.id}'`, env.signal.reason);
      const changes = step.kind === 'generate_object' ? [] : changesOf(req.changes().slice(before));
      await log.append([completedDraft(id, output, changes, clock() - started, clock())]);
      outputs.set(step.id, output === undefined ? null : output);
      const done = { id: step.id, kind: step.kind, status: 'completed' as const, durationMs: clock() - started };
      reports.set(step.id, { ...done, attempt: id.attempt });
      progress(step, 'completed');
    } catch (e) {
      const error = errorOf(e);
      const status = env.signal.aborted ? 'cancelled' : 'failed';
      reports.set(step.id, { id: step.id, kind: step.kind, status, durationMs: clock() - started, error });
      if (status === 'failed') failure ??= { step: step.id, ...error };
      progress(step, 'failed', error);
      // Recorded for readers of the log; recovery ignores failed attempts either way.
      await log.append([failedDraft(id, error, clock())]).catch(() => undefined);
    }
  };

  const canStart = (step: WorkflowStep): boolean => {
    if (!(step.inputs ?? []).every((i) => outputs.has(i))) return false;
    if (step.kind !== 'generate_object') return running.size === 0;
    const gens = [...running.values()].filter((r) => r.kind === 'generate_object').length;
    return gens === running.size && gens < limit;
  };

  let next = 0;
  for (;;) {
    while (next < pending.length && failure === undefined && !env.signal.aborted && canStart(pending[next]!)) {
      const step = pending[next++]!;
      const done = attempt(step).finally(() => running.delete(step.id));
      running.set(step.id, { kind: step.kind, done });
    }
    if (running.size === 0) break;
    await Promise.race([...running.values()].map((r) => r.done));
  }

  const cancelled = env.signal.aborted && failure === undefined;
  const steps = workflow.order.map(
    (s) =>
      reports.get(s.id) ?? {
        id: s.id,
        kind: s.kind,
        status: cancelled ? ('cancelled' as const) : ('skipped' as const),
        durationMs: 0,
      },
  );
  const status = failure !== undefined ? 'failed' : cancelled ? 'cancelled' : 'completed';
  return {
    runId: req.runId,
    flow: req.flow,
    status,
    ...(status === 'completed' ? { output: outputs.get(workflow.output) } : {}),
    steps,
    ...(failure === undefined ? {} : { error: failure }),
    maxConcurrentGenerations: limit,
    recoveredChanges,
  };
}
