/**
 * Host-direct delegation: `session.task(...)` and `session.tasks([...])`
 * call the same core `task` / `parallel_task` tools the model uses, as host calls; the child run
 * they create starts again from the `agent` source, under the session's policy.
 */
import { A3sError } from '@a3s-code/effect';
import type { ToolInvocationResult } from '../invoker/invocation-types.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { SessionConfigurationError } from '../errors/index.js';
import { checkObjectArg } from './call-options.js';

/** One delegated sub-task (`session.task`, an item of `session.tasks`). */
export interface TaskSpec {
  /** Agent name: `general`, `explore`, `plan`, `verification` or a custom agent. */
  readonly agent: string;
  /** A short description (1..200 characters). */
  readonly description: string;
  /** The sub-agent's instructions. */
  readonly prompt: string;
  /** Tool rounds of the child, `1..1000`. */
  readonly maxSteps?: number;
  /** JSON Schema the child's answer must match (validated). */
  readonly outputSchema?: JsonSchema;
  /** Workspace images and text files sent with the child's first message (paths; the path checks apply). */
  readonly attachments?: readonly { readonly type: 'image' | 'file'; readonly path: string }[];
}

/** Options of `session.task`. */
export interface TaskOptions {
  /** Start in the background and return `{ taskId, status: 'running' }` at once; see `session.taskResult`. */
  readonly background?: boolean;
}

/** Options of `session.tasks`. */
export interface TasksOptions {
  /** Succeed when at least `minSuccessCount` branches do. */
  readonly allowPartialFailure?: boolean;
  /** `1..tasks.length`; only with `allowPartialFailure: true`. */
  readonly minSuccessCount?: number;
}

/** What a delegated task ended with. */
export interface TaskResult {
  readonly taskId: string;
  readonly agent: string;
  /** `completed`, `failed`, `cancelled`, `parked`, or `running` for a background task not finished yet. */
  readonly status: string;
  /** The child's final answer. */
  readonly text?: string;
  /** The validated value when `outputSchema` was given. */
  readonly output?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
  /** The child's fact-log thread. */
  readonly thread?: string;
}

/** What `session.tasks` returns. */
export interface TasksResult {
  /** Whether enough branches succeeded. */
  readonly completed: boolean;
  readonly succeeded: number;
  readonly results: readonly TaskResult[];
}

type Invoke = (name: string, args: unknown) => Promise<ToolInvocationResult>;

/** `spec` when it is an object (its fields are checked by the tool's schema). */
function checkSpec(call: string, field: string, spec: unknown): TaskSpec {
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) return spec as TaskSpec;
  throw new SessionConfigurationError(field, `${call} takes a task spec object { agent, description, prompt }`);
}

const argsOf = (t: TaskSpec) => ({
  agent: t.agent,
  description: t.description,
  prompt: t.prompt,
  ...(t.maxSteps === undefined ? {} : { max_steps: t.maxSteps }),
  ...(t.outputSchema === undefined ? {} : { output_schema: t.outputSchema }),
  ...(t.attachments === undefined ? {} : { attachments: t.attachments }),
});

function rejectIfNotRun(r: ToolInvocationResult): void {
  // A tool-level failure (invalid args, delegation turned off, blocked by a hook) is an error;
  // a child that ran and failed is a result with its status.
  if (r.error !== undefined) throw r.error;
  if (r.errorKind !== undefined && r.errorKind !== 'tool_failed') throw new A3sError('TASK_FAILED', r.output);
}

function toResult(raw: Record<string, unknown>): TaskResult {
  const r = raw as {
    task_id: string;
    agent: string;
    status: string;
    text?: string;
    output?: unknown;
    error?: { code: string; message: string };
    thread?: string;
  };
  return {
    taskId: r.task_id,
    agent: r.agent,
    status: r.status,
    ...(r.text === undefined ? {} : { text: r.text }),
    ...(r.output === undefined ? {} : { output: r.output }),
    ...(r.error === undefined ? {} : { error: r.error }),
    ...(r.thread === undefined ? {} : { thread: r.thread }),
  };
}

/** `session.task`. @throws the typed error of a call that could not run (INVALID_TOOL_ARGS naming the field, TOOL_NOT_FOUND when delegation is off). */
export async function delegateTask(invoke: Invoke, spec: TaskSpec, options?: TaskOptions): Promise<TaskResult> {
  const { background } = checkObjectArg('task', 'options', options);
  const args = argsOf(checkSpec('task', 'spec', spec));
  const r = await invoke('task', { ...args, ...(background ? { background: true } : {}) });
  rejectIfNotRun(r);
  return toResult({ agent: spec.agent, ...(JSON.parse(r.output) as Record<string, unknown>) });
}

/** `session.tasks`: the branches run through `parallel_task`. */
export async function delegateTasks(
  invoke: Invoke,
  specs: readonly TaskSpec[],
  given?: TasksOptions,
): Promise<TasksResult> {
  const options = checkObjectArg('tasks', 'options', given);
  if (!Array.isArray(specs))
    throw new SessionConfigurationError(
      'specs',
      'tasks takes an array of 2..32 task specs { agent, description, prompt }',
    );
  const tasks = specs.map((spec: unknown, i) => argsOf(checkSpec('tasks', `specs[${i}]`, spec)));
  const r = await invoke('parallel_task', {
    tasks,
    ...(options.allowPartialFailure === undefined ? {} : { allow_partial_failure: options.allowPartialFailure }),
    ...(options.minSuccessCount === undefined ? {} : { min_success_count: options.minSuccessCount }),
  });
  rejectIfNotRun(r);
  const out = JSON.parse(r.output) as { completed: boolean; succeeded: number; results: Record<string, unknown>[] };
  return { completed: out.completed, succeeded: out.succeeded, results: out.results.map(toResult) };
}

/** `session.taskResult`: a background task's result (waits unless `wait` is false). */
export async function backgroundTaskResult(invoke: Invoke, taskId: string, wait = true): Promise<TaskResult> {
  const r = await invoke('task_result', { task_id: taskId, wait });
  if (r.error !== undefined) throw r.error;
  if (r.errorKind !== undefined && r.errorKind !== 'tool_failed') throw new A3sError('TASK_FAILED', r.output);
  if (!r.output.startsWith('{')) throw new A3sError('TASK_NOT_FOUND', r.output, { details: { field: 'taskId' } });
  return toResult(JSON.parse(r.output) as Record<string, unknown>);
}
