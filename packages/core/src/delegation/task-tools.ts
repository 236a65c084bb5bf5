/**
 * The delegation tools: `task` (one sub-agent,
 * foreground or background), `parallel_task` (2..32 foreground branches, at most
 * `maxParallelTasks` at once) and `task_result` (a background task's outcome). Each child is a
 * governed run under the caller's governance, narrowed (see `childGovernance`). They are `read`
 * tier: a child can never do more than its caller, so delegation needs no more authority than
 * reading (a plan-mode parent gets plan-mode children).
 */
import type { z } from 'zod';
import { callAttemptOf, callChainOf, interruptedAccounted, invocationContextOf } from '../invoker/call-context.js';
import { markDelegatingTool } from '../invoker/change-collector.js';
import { visibleTiers, type GovernanceSnapshot } from '../invoker/governance.js';
import { linkSignals } from '../invoker/link-signals.js';
import { defineTool } from '../tools/define-tool.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { TaskOutcome, TaskRequest } from './child-run.js';
import { childGovernance, delegatedFrom } from './child-governance.js';
import type { Delegator, TaskOrigin } from './delegator.js';

/** What the delegation tools use of a {@link Delegator}. */
export type DelegationPort = Pick<
  Delegator,
  | 'agents'
  | 'settings'
  | 'childFor'
  | 'run'
  | 'start'
  | 'adopt'
  | 'result'
  | 'backgroundTaskIds'
  | 'runningBackgroundTaskIds'
>;
import {
  parallelTaskInput,
  parallelTaskRules,
  taskInput,
  taskResultInput,
  taskRules,
  withAgentNames,
} from './task-args.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/**
 * Background tasks one session runs at once (the most `parallel_task` branches, and `task` calls,
 * that run at once): one more is refused, so no call or nesting of calls fans out without bound.
 */
export const MAX_RUNNING_BACKGROUND_TASKS = 32;

/** A day: a child run is bounded by its own step and budget limits, not by the tool timeout. */
const TASK_TIMEOUT_MS = 86_400_000;

function origin(ctx: ToolContext, signal: AbortSignal): TaskOrigin {
  const context = invocationContextOf(ctx);
  if (context === undefined) throw new Error('delegation tools run only inside the kernel');
  const attempt = callAttemptOf(ctx);
  return {
    ...(attempt === undefined ? {} : { attempt: { key: attempt.key, interrupted: attempt.interrupted } }),
    runId: context.runId,
    governance: delegatedFrom(context.governance, callChainOf(ctx)),
    events: context.events,
    signal,
    ...(context.capabilities ? { capabilities: context.capabilities } : {}),
    // The model's attachments are read as this call reads: held to its read rules.
    attachmentsFrom: ctx.workspace,
  };
}

type Branch = {
  agent: string;
  description: string;
  prompt: string;
  max_steps?: number | undefined;
  output_schema?: Record<string, unknown> | undefined;
  attachments?: { type: 'image' | 'file'; path: string }[] | undefined;
};

function request(d: DelegationPort, b: Branch): TaskRequest {
  return {
    agent: d.agents.get(b.agent)!,
    description: b.description,
    prompt: b.prompt,
    ...(b.max_steps === undefined ? {} : { maxSteps: b.max_steps }),
    ...(b.output_schema === undefined ? {} : { outputSchema: b.output_schema as JsonSchema }),
    ...(b.attachments === undefined
      ? {}
      : {
          attachments: b.attachments.map((a) =>
            a.type === 'image' ? { ...a, type: 'image' } : { ...a, type: 'file' },
          ),
        }),
  };
}

/** The model-facing view of an outcome (without the change list). */
function view(o: TaskOutcome): Record<string, unknown> {
  return {
    task_id: o.task_id,
    agent: o.agent,
    status: o.status,
    ...(o.output !== undefined ? { output: o.output } : { text: o.text }),
    ...(o.error ? { error: o.error } : {}),
    thread: o.thread,
  };
}

/** A task's result; `changes` (the child's ledger, possibly empty) is always reported for the parent's ledger. */
function outcomeResult(o: TaskOutcome): ToolResult {
  return {
    output: JSON.stringify(view(o)),
    exitCode: o.status === 'completed' ? 0 : 1,
    metadata: { task: view(o), steps: o.steps, tool_calls: o.tool_calls, usage: o.usage, changes: o.changes },
  };
}

/**
 * What a background task's start reports about changes: none when its agent can neither write
 * nor run anything; otherwise nothing, so the ledger counts a change with unknown paths (its
 * real changes arrive with `task_result`, if the model asks for them).
 */
function backgroundChanges(
  context: { readonly governance: GovernanceSnapshot } | undefined,
  agent: TaskRequest['agent'],
): Record<string, unknown> {
  if (context === undefined) return {};
  const tiers = visibleTiers(childGovernance(context.governance, agent));
  return tiers.has('write') || tiers.has('exec') ? {} : { changes: [] };
}

function agentList(d: DelegationPort): string {
  return [...d.agents.values()].map((a) => `- ${a.name}: ${a.description}`).join('\n');
}

function names(d: DelegationPort): [string, ...string[]] {
  return [...d.agents.keys()] as [string, ...string[]];
}

/** Creates `task`. */
export function createTaskTool(d: DelegationPort): Tool<z.output<ReturnType<typeof taskInput>>> {
  const agents = names(d);
  const tool = defineTool({
    name: 'task',
    description: `Delegate a self-contained sub-task to a sub-agent, which works in its own context with your permissions or fewer, and returns its final answer. Agents:\n${agentList(d)}`,
    tier: 'read',
    // On the surface only while the session attaches manual delegation as this resource.
    requires: ['resource.delegation'],
    inputJsonSchema: withAgentNames(toolJsonSchemas.task, agents),
    input: (z) => taskInput(z, agents),
    plainInput: true,
    refine: (a) => taskRules(a),
    capabilities: { readOnly: false, idempotent: false, outputType: 'json', maxParallelism: 32 },
    timeoutMs: TASK_TIMEOUT_MS,
    async execute(args, ctx) {
      if (args.background) {
        const running = d.runningBackgroundTaskIds();
        if (running.length >= MAX_RUNNING_BACKGROUND_TASKS)
          return {
            output: `task: ${running.length} background tasks are running, the most a session runs at once (${MAX_RUNNING_BACKGROUND_TASKS}); wait for one with task_result or run this one in the foreground (running: ${running.join(', ')})`,
            exitCode: 1,
          };
        const context = invocationContextOf(ctx);
        // A background task outlives this call: it ends with the run's cancellation or the session.
        const req = request(d, args);
        const ids = d.start(req, origin(ctx, context?.signal ?? ctx.signal));
        const task = { task_id: ids.taskId, status: 'running', thread: ids.thread };
        return {
          output: JSON.stringify(task),
          exitCode: 0,
          metadata: { task, ...backgroundChanges(context, req.agent) },
        };
      }
      const outcome = await d.run(request(d, args), origin(ctx, ctx.signal));
      // A re-run after a crash took up the child its attempt started: that child's log holds its changes.
      interruptedAccounted(ctx);
      return outcomeResult(outcome);
    },
  });
  // A task call that ends without its outcome (cancelled, timed out) may have changed files.
  return markDelegatingTool(tool);
}

/** Creates `parallel_task`. */
export function createParallelTaskTool(d: DelegationPort): Tool<z.output<ReturnType<typeof parallelTaskInput>>> {
  const agents = names(d);
  const tool = defineTool({
    name: 'parallel_task',
    description: `Run 2-32 independent sub-tasks in parallel (at most ${d.settings.maxParallelTasks} at once), each with its own sub-agent. Without allow_partial_failure, the first failure cancels the other branches. Agents:\n${agentList(d)}`,
    tier: 'read',
    // On the surface only while the session attaches manual delegation as this resource.
    requires: ['resource.delegation'],
    inputJsonSchema: withAgentNames(toolJsonSchemas.parallel_task, agents),
    input: (z) => parallelTaskInput(z, agents),
    plainInput: true,
    refine: (a) => parallelTaskRules(a),
    capabilities: { readOnly: false, idempotent: false, outputType: 'json' },
    timeoutMs: TASK_TIMEOUT_MS,
    async execute(args, ctx) {
      const n = args.tasks.length;
      const stop = new AbortController();
      const linked = linkSignals([ctx.signal, stop.signal]);
      const from = origin(ctx, linked.signal);
      // Each branch is a call of its own: a re-run finds the child its earlier attempt started.
      const branches = args.tasks.map(
        (_, i): TaskOrigin =>
          from.attempt === undefined
            ? from
            : { ...from, attempt: { ...from.attempt, key: `${from.attempt.key}#${i}` } },
      );
      const ids = branches.map((b) => d.childFor(b));
      const outcomes = new Array<TaskOutcome | undefined>(n);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < n) {
          const i = next++;
          if (linked.signal.aborted) continue; // never started: reported as cancelled below
          const o = await d.run(request(d, args.tasks[i]!), branches[i]!, ids[i]);
          outcomes[i] = o;
          // Fail fast without partial failure. Never replay a branch, whatever its error says.
          if (o.status !== 'completed' && !args.allow_partial_failure) stop.abort('a sibling branch failed');
        }
      };
      try {
        // Every started branch settles (cancelled ones included) before the terminal state.
        await Promise.all(Array.from({ length: Math.min(d.settings.maxParallelTasks, n) }, worker));
      } finally {
        linked.dispose();
      }
      // A re-run after a crash took up the children its attempt started: their logs hold their changes.
      interruptedAccounted(ctx);
      // `Array.from`, not `map`: a branch that never started is a hole in `outcomes`.
      const results = Array.from(outcomes, (o, i) =>
        o === undefined
          ? {
              index: i,
              task_id: ids[i]!.taskId,
              agent: args.tasks[i]!.agent,
              status: 'cancelled',
              error: { code: 'NOT_STARTED', message: 'cancelled before it started' },
            }
          : { index: i, ...view(o) },
      );
      const succeeded = results.filter((r) => r.status === 'completed').length;
      const required = args.allow_partial_failure ? (args.min_success_count ?? 1) : n;
      const ok = succeeded >= required;
      const failed = results.filter((r) => r.status !== 'completed').map((r) => r.index);
      const summary = { completed: ok, succeeded, required, failed, results };
      const changes = outcomes.flatMap((o) => o?.changes ?? []);
      return {
        output: JSON.stringify(summary),
        exitCode: ok ? 0 : 1,
        metadata: { parallel_task: { completed: ok, succeeded, required, failed, count: n }, changes },
      };
    },
  });
  // A task call that ends without its outcome (cancelled, timed out) may have changed files.
  return markDelegatingTool(tool);
}

/** Creates `task_result`. */
export function createTaskResultTool(d: DelegationPort): Tool<z.output<ReturnType<typeof taskResultInput>>> {
  return defineTool({
    name: 'task_result',
    description:
      'Get the result of a background task started with task(background: true); waits for it unless wait is false.',
    tier: 'read',
    // On the surface only while the session attaches manual delegation as this resource.
    requires: ['resource.delegation'],
    inputJsonSchema: toolJsonSchemas.task_result,
    plainInput: true,
    input: () => taskResultInput(),
    capabilities: { readOnly: true, idempotent: true, outputType: 'json' },
    timeoutMs: TASK_TIMEOUT_MS,
    async execute(args, ctx) {
      const context = invocationContextOf(ctx);
      // A background task of an earlier process of the session (a crash, a restart): taken up from its log.
      if (context !== undefined && !d.backgroundTaskIds().includes(args.task_id))
        d.adopt(args.task_id, origin(ctx, context.signal));
      const r = await d.result(args.task_id, args.wait, ctx.signal);
      if (r === undefined) {
        const known = d.backgroundTaskIds();
        return {
          output: `task_result: args.task_id: no background task '${args.task_id}'; known: ${known.length > 0 ? known.join(', ') : '(none)'}`,
          exitCode: 1,
        };
      }
      if (r.status === 'running') return { output: JSON.stringify(r), exitCode: 0, metadata: { task: r } };
      return outcomeResult(r as TaskOutcome);
    },
  });
}

/** The delegation tools of a session. */
export function createDelegationTools(d: DelegationPort): readonly Tool[] {
  return [createTaskTool(d), createParallelTaskTool(d), createTaskResultTool(d)] as readonly Tool[];
}

/** The prompt section that invites automatic parallel fan-out (only with `autoParallel`). */
export const AUTO_PARALLEL_SECTION =
  '# Delegation\nWhen a request splits into independent parts (searching several areas, checking several files, verifying separate changes), fan them out with `parallel_task` instead of doing them one by one; use `task` for a single self-contained sub-task.';
