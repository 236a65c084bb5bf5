/**
 * How each kind of step runs. A `program` step is a nested call of the `program` tool (the same
 * QuickJS path, with the workflow allow-list); a `parallel_task` step is a nested call of the
 * native `parallel_task` tool (or `task` for a single sub-task), never made from inside QuickJS;
 * a `generate_object` step calls `generateObject` through the model client it was given (the
 * run's governed client, or a fork of it bound to the run and step). Each returns the step's
 * output or throws a {@link WorkflowStepError}.
 */
import { A3sError } from '@a3s-code/effect';
import { generateObject } from '../generate-object/generate-object.js';
import type { ArtifactStore } from '../invoker/artifact-store.js';
import type { ScopedInvoker, ToolInvocationResult } from '../invoker/invocation-types.js';
import type { LlmClient } from '../llm/llm-client.js';
import {
  WORKFLOW_LIMITS,
  type WorkflowGenerateObjectStep,
  type WorkflowParallelTaskStep,
  type WorkflowProgramStep,
  type WorkflowTaskTemplate,
} from './workflow-definition.js';
import { WorkflowStepError } from './workflow-errors.js';
import { parseRef, renderTemplate, resolveRef, type TemplateScope } from './workflow-template.js';

/** What a step runs with. */
export interface StepEnv {
  /** The scoped invoker of the `dynamic_workflow` call: nested calls inherit its governance. */
  readonly invoker: ScopedInvoker;
  /** The `dynamic_workflow` call id; a step's nested call is `<call id>.<step id>`. */
  readonly callId: string;
  readonly signal: AbortSignal;
  /** The session's artifact store: where the kernel put the whole of an output it capped. */
  readonly artifacts?: ArtifactStore;
}

function failed(stepId: string, r: ToolInvocationResult): WorkflowStepError {
  const reason = r.error?.code ?? r.errorKind ?? `exit code ${r.exitCode}`;
  return new WorkflowStepError(stepId, reason, r.output, r.error);
}

/**
 * The JSON value a delegation tool returned: its whole output, read back from the artifact
 * store when the kernel capped it (long sub-agent answers), never the capped preview.
 */
async function jsonOutput(stepId: string, r: ToolInvocationResult, env: StepEnv): Promise<Record<string, unknown>> {
  const artifact = (r.metadata as { artifact?: { id?: unknown } } | undefined)?.artifact;
  let text = r.output;
  if (typeof artifact?.id === 'string') {
    const whole = await env.artifacts?.get(artifact.id);
    if (whole === undefined)
      throw new WorkflowStepError(
        stepId,
        'OUTPUT_UNAVAILABLE',
        `the output of '${r.name}' was capped and its artifact '${artifact.id}' cannot be read back from the session's artifact store`,
      );
    text = whole;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new WorkflowStepError(
    stepId,
    'OUTPUT_UNREADABLE',
    `'${r.name}' did not return a JSON object: ${text.slice(0, 200)}${text.length > 200 ? '…' : ''}`,
  );
}

/** Runs a `program` step; its output is the script's return value. */
export async function runProgramStep(step: WorkflowProgramStep, scope: TemplateScope, env: StepEnv): Promise<unknown> {
  const l = step.limits ?? {};
  const args = {
    type: 'script',
    language: 'javascript',
    ...(step.source === undefined ? { path: step.path } : { source: step.source }),
    inputs: { query: scope.query, steps: Object.fromEntries(scope.steps) },
    // Without a list, the program tool's own default applies: the surface without the blocked
    // tools, read when the step starts (so runtime tools registered since are included).
    ...(step.allowedTools === undefined ? {} : { allowed_tools: [...step.allowedTools] }),
    limits: {
      ...(l.timeoutMs === undefined ? {} : { timeout_ms: l.timeoutMs }),
      ...(l.maxToolCalls === undefined ? {} : { max_tool_calls: l.maxToolCalls }),
      ...(l.maxOutputBytes === undefined ? {} : { max_output_bytes: l.maxOutputBytes }),
      ...(l.memoryLimitBytes === undefined ? {} : { memory_limit_bytes: l.memoryLimitBytes }),
    },
  };
  const r = await env.invoker.invoke('program', args, { id: `${env.callId}.${step.id}` });
  if (!r.ok) throw failed(step.id, r);
  const m = r.metadata as { result?: unknown; program?: { result_kind?: string; result_kept?: boolean } };
  if (m.program?.result_kind === 'undefined') return null;
  if (m.program?.result_kept !== true)
    throw new WorkflowStepError(
      step.id,
      'RESULT_NOT_KEPT',
      m.program?.result_kind === 'unserializable'
        ? 'the script returned a value that is not JSON-serialisable'
        : 'the returned value is larger than limits.maxOutputBytes; return a summary instead of raw data',
    );
  return m.result;
}

/** Runs a `generate_object` step through `llm`; its output is the validated value. */
export async function runGenerateStep(
  step: WorkflowGenerateObjectStep,
  scope: TemplateScope,
  llm: LlmClient | undefined,
  signal: AbortSignal,
): Promise<unknown> {
  if (llm === undefined) throw new WorkflowStepError(step.id, 'no_model', 'no model is configured in this session');
  // Rendered first: a template naming a missing field fails the step as itself, not as a generation.
  const prompt = renderTemplate(step.prompt, scope, step.id);
  const system = step.system === undefined ? undefined : renderTemplate(step.system, scope, step.id);
  let result: Awaited<ReturnType<typeof generateObject>>;
  try {
    result = await generateObject(
      llm,
      {
        schema: step.schema as Record<string, unknown>,
        prompt,
        ...(step.schemaName === undefined ? {} : { schema_name: step.schemaName }),
        ...(step.schemaDescription === undefined ? {} : { schema_description: step.schemaDescription }),
        ...(system === undefined ? {} : { system }),
        ...(step.mode === undefined ? {} : { mode: step.mode }),
        ...(step.maxRepairAttempts === undefined ? {} : { max_repair_attempts: step.maxRepairAttempts }),
        ...(step.timeoutMs === undefined ? {} : { timeout_ms: step.timeoutMs }),
      },
      { signal },
    );
  } catch (e) {
    if (A3sError.isInstance(e)) throw new WorkflowStepError(step.id, e.code, e.message, e);
    throw e;
  }
  if (!result.ok) throw new WorkflowStepError(step.id, result.errorKind, result.message);
  return result.object;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function taskArgs(t: WorkflowTaskTemplate, scope: TemplateScope, stepId: string): Record<string, unknown> {
  return {
    agent: t.agent ?? 'general',
    description: clip(renderTemplate(t.description, scope, stepId).trim() || 'sub-task', 200),
    prompt: renderTemplate(t.prompt, scope, stepId),
    ...(t.maxSteps === undefined ? {} : { max_steps: t.maxSteps }),
  };
}

/** The sub-tasks of a `parallel_task` step, rendered. */
export function stepTasks(step: WorkflowParallelTaskStep, scope: TemplateScope): Record<string, unknown>[] {
  if (step.tasks !== undefined) return step.tasks.map((t) => taskArgs(t, scope, step.id));
  const items = resolveRef(parseRef(step.forEach!)!, scope);
  if (!Array.isArray(items))
    throw new WorkflowStepError(
      step.id,
      'FOR_EACH_NOT_ARRAY',
      `forEach '${step.forEach}' is ${items === undefined ? 'missing' : `not an array (${typeof items})`}`,
    );
  if (items.length > WORKFLOW_LIMITS.maxTasks)
    throw new WorkflowStepError(
      step.id,
      'TOO_MANY_TASKS',
      `forEach '${step.forEach}' has ${items.length} elements; at most ${WORKFLOW_LIMITS.maxTasks} sub-tasks run in one step`,
    );
  return items.map((value, index) => taskArgs(step.task!, { ...scope, item: { value, index } }, step.id));
}

/**
 * Runs a `parallel_task` step natively: `parallel_task` for two or more sub-tasks, `task` for
 * one, nothing for none. The output is the `parallel_task` summary
 * `{ completed, succeeded, required, failed, results }`.
 */
export async function runParallelStep(
  step: WorkflowParallelTaskStep,
  scope: TemplateScope,
  env: StepEnv,
): Promise<unknown> {
  const tasks = stepTasks(step, scope);
  if (tasks.length === 0) return { completed: true, succeeded: 0, required: 0, failed: [], results: [] };
  const id = `${env.callId}.${step.id}`;
  if (tasks.length === 1) {
    const r = await env.invoker.invoke('task', tasks[0], { id });
    if (r.error !== undefined || (r.errorKind !== undefined && r.errorKind !== 'tool_failed')) throw failed(step.id, r);
    const view = await jsonOutput(step.id, r, env);
    const ok = r.exitCode === 0;
    const summary = {
      completed: ok,
      succeeded: ok ? 1 : 0,
      required: 1,
      failed: ok ? [] : [0],
      results: [{ index: 0, ...view }],
    };
    if (!ok)
      throw new WorkflowStepError(step.id, 'TASKS_FAILED', `the sub-task did not complete: ${r.output.slice(0, 2000)}`);
    return summary;
  }
  const r = await env.invoker.invoke(
    'parallel_task',
    {
      tasks,
      ...(step.allowPartialFailure === undefined ? {} : { allow_partial_failure: step.allowPartialFailure }),
      ...(step.minSuccessCount === undefined ? {} : { min_success_count: step.minSuccessCount }),
    },
    { id },
  );
  if (r.error !== undefined || (r.errorKind !== undefined && r.errorKind !== 'tool_failed')) throw failed(step.id, r);
  const summary = (await jsonOutput(step.id, r, env)) as {
    completed?: boolean;
    succeeded?: number;
    required?: number;
    results?: { index: number; status: string; error?: { code?: string; message?: string } }[];
  };
  if (r.exitCode !== 0 || summary.completed !== true) {
    const first = summary.results?.find((x) => x.status !== 'completed');
    const why =
      first === undefined
        ? ''
        : `; sub-task ${first.index} ${first.status}: ${first.error?.code ?? ''} ${first.error?.message ?? ''}`;
    throw new WorkflowStepError(
      step.id,
      'TASKS_FAILED',
      `${summary.succeeded ?? 0} of ${tasks.length} sub-tasks succeeded, ${summary.required ?? tasks.length} required${why.trimEnd()}`,
    );
  }
  return summary;
}
