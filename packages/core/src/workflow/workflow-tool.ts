/**
 * The `dynamic_workflow` tool: runs a workflow (a flow the host registered, or an inline
 * definition) on a query, recording every step so that a run re-executed after a crash recovers
 * the steps that had completed and recomputes the rest. It is a trusted built-in orchestrator
 * like `program` (a host call gives the steps' tool calls `host_nested`; a model call gives them
 * `nested`) and is not reentrant. It is on the surface only when the host plugged in the pack of
 * `createDynamicWorkflowPack` (the resource it requires).
 *
 * The run id keys the recorded steps. A model call inside a run derives it from the run and the
 * call id, which a resumed run replays unchanged; a host call without `run_id` gets a fresh one
 * (reported in the result), and a host continues an interrupted run by passing it back. A run
 * belongs to the session that started it: a `run_id` whose log another session wrote is refused
 * (`WORKFLOW_RUN_FOREIGN`), so no session sees what another's steps produced.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ceilingDigest, permissionCeiling } from '../catalog/permission-ceiling.js';
import { changesSoFar, invocationContextOf } from '../invoker/call-context.js';
import { markTrustedOrchestrator } from '../invoker/trust.js';
import type { LlmClient } from '../llm/llm-client.js';
import { defineTool, type ToolArgRefinement } from '../tools/define-tool.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { lazyZod } from '../tools/zod-loader.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import { WORKFLOW_LIMITS } from './workflow-definition.js';
import { WorkflowDefinitionError, WorkflowRunForeignError } from './workflow-errors.js';
import { validateWorkflow, type ValidatedWorkflow } from './workflow-graph.js';
import { WORKFLOW_RESOURCE, type WorkflowResourceHandle } from './workflow-pack.js';
import { runWorkflow, type WorkflowRunReport } from './workflow-runner.js';
import { foreignRunReason, type StepChanges } from './step-record.js';
import type { WorkflowStore } from './workflow-store.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** The tool's name. */
export const DYNAMIC_WORKFLOW_TOOL_NAME = 'dynamic_workflow';

const RUN_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** The zod schema of `dynamic_workflow`'s arguments, built (and zod loaded) on the first call. */
export const dynamicWorkflowInput = lazyZod((z) =>
  z.strictObject({
    flow: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'must be 1-64 of [A-Za-z0-9_-]' })
      .optional()
      .describe('a flow the host registered; give flow or workflow'),
    workflow: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('an inline workflow definition { name, steps, limits?, output? }; give flow or workflow'),
    query: z
      .string()
      .describe('the original query: the task or question the workflow works on ({{query}}, inputs.query)'),
    run_id: z
      .string()
      .regex(RUN_ID, { message: 'must be 1-128 of [A-Za-z0-9_.:-]' })
      .optional()
      .describe(
        'continue this workflow run (one this session started): steps it completed for the same query are recovered, the rest run (default: a new run)',
      ),
  }),
);

/** `dynamic_workflow`'s rules: a query that is not blank nor too long, and exactly one of flow and workflow. */
function workflowRules(a: {
  readonly query: string;
  readonly flow?: string;
  readonly workflow?: Readonly<Record<string, unknown>>;
}): ToolArgRefinement[] {
  const issues: ToolArgRefinement[] = [];
  if (a.query.trim() === '') issues.push({ path: ['query'], message: 'must not be empty' });
  if (Buffer.byteLength(a.query, 'utf8') > WORKFLOW_LIMITS.maxQueryBytes)
    issues.push({ path: ['query'], message: `must be at most ${WORKFLOW_LIMITS.maxQueryBytes} bytes` });
  if ((a.flow === undefined) === (a.workflow === undefined))
    issues.push({ path: ['flow'], message: 'give exactly one of flow or workflow' });
  return issues;
}

/** The parsed arguments of `dynamic_workflow`. */
export type DynamicWorkflowArgs = z.output<ReturnType<typeof dynamicWorkflowInput>>;

/** What the tool needs from its session (core-internal). */
export interface WorkflowServices {
  /** Where runs record their steps. */
  readonly store: WorkflowStore;
  /** The governed model client of run `runId` (`undefined`: no model). */
  readonly llmFor: (runId: string) => LlmClient | undefined;
  readonly clock: () => number;
  /** Flow names to list in the description. */
  readonly flows: readonly string[];
  /** The session's permission rules: with a call's governance, what a recorded step must have run under to be recovered. */
  readonly permissions: PermissionPolicyConfig;
}

function description(flows: readonly string[]): string {
  return [
    'Run a multi-step workflow on a query. Steps: program (a QuickJS script run(ctx, inputs), as in the program tool),',
    'generate_object (schema-validated JSON from a prompt), parallel_task (sub-agents, with tasks or forEach + task).',
    'Each step lists its inputs (earlier step ids); prompts read {{query}}, {{steps.<id>}}, {{steps.<id>.<path>}}, and',
    '{{item}}/{{index}} in a forEach task; a program gets inputs = { query, steps: { <id>: output } }.',
    'limits.maxConcurrentGenerations (1-4, default 1) lets independent generate_object steps run together.',
    'Steps can never call program, dynamic_workflow or parallel_task through ctx.tool.',
    'Finished steps are recorded: re-running with the same run_id and query recovers them.',
    flows.length > 0 ? `Flows: ${flows.join(', ')}.` : '',
  ]
    .filter((l) => l !== '')
    .join(' ');
}

/** The run id of a call (see the module comment). */
function runIdOf(args: DynamicWorkflowArgs, ctx: ToolContext): string {
  if (args.run_id !== undefined) return args.run_id;
  if (ctx.source === 'agent' || ctx.source === 'nested') {
    const h = createHash('sha256').update(`${ctx.sessionId}\n${ctx.runId}\n${ctx.callId}`).digest('hex');
    return `wf-${h.slice(0, 32)}`;
  }
  return `wf-${randomUUID()}`;
}

/** Recovered changes as result metadata the kernel's change record reads. */
function changesMetadata(changes: StepChanges): Record<string, unknown> {
  if (changes === 'unknown') return { changes: null };
  if (changes.length === 0) return {};
  return {
    changes: changes.map((c) =>
      c.digest === 'deleted' ? { path: c.path, action: 'delete' } : { path: c.path, digest_after: c.digest },
    ),
  };
}

function toResult(report: WorkflowRunReport, query: string): ToolResult {
  const steps = report.steps.map((s) => ({
    id: s.id,
    kind: s.kind,
    status: s.status,
    duration_ms: s.durationMs,
    ...(s.error ? { error: s.error } : {}),
  }));
  const body = {
    run_id: report.runId,
    flow: report.flow,
    status: report.status,
    ...(report.status === 'completed' ? { output: report.output ?? null } : {}),
    steps,
    ...(report.error ? { error: report.error } : {}),
  };
  const ids = (status: string) => report.steps.filter((s) => s.status === status).map((s) => s.id);
  return {
    output: JSON.stringify(body),
    exitCode: report.status === 'completed' ? 0 : 1,
    metadata: {
      workflow: {
        run_id: report.runId,
        flow: report.flow,
        query_chars: query.length,
        status: report.status,
        recovered: ids('recovered'),
        completed: ids('completed'),
        failed: ids('failed'),
        max_concurrent_generations: report.maxConcurrentGenerations,
      },
      ...changesMetadata(report.recoveredChanges),
    },
  };
}

/** Validates a definition; a registered flow's problems name the flow too. */
function validated(definition: unknown, flow: string | undefined): ValidatedWorkflow {
  try {
    return validateWorkflow(definition);
  } catch (e) {
    if (flow === undefined || !(e instanceof WorkflowDefinitionError)) throw e;
    throw new WorkflowDefinitionError(`flows.${flow}.${e.field}`, e.problem, e.step);
  }
}

async function execute(args: DynamicWorkflowArgs, ctx: ToolContext, services: WorkflowServices): Promise<ToolResult> {
  const handle = await ctx.resource<WorkflowResourceHandle>(WORKFLOW_RESOURCE);
  const flows = handle.flows instanceof Map ? handle.flows : new Map();
  let definition: unknown = args.workflow;
  if (args.flow !== undefined) {
    definition = flows.get(args.flow);
    if (definition === undefined)
      throw new WorkflowDefinitionError(
        'flow',
        `no flow '${args.flow}' is registered; flows: ${[...flows.keys()].join(', ') || '(none)'}`,
      );
  }
  const workflow = validated(definition, args.flow);
  const runId = runIdOf(args, ctx);
  const flow = args.flow ?? workflow.definition.name;
  const log = await services.store.open(runId);
  try {
    // Only this session's own runs are continued: another's recorded outputs came from steps run
    // under that session's rules, which may allow what this session's deny. For the same reason a
    // run the host started (its steps ran with the host's trust) is continued only by the host.
    const trusted = ctx.source === 'host' || ctx.source === 'host_nested';
    const foreign = foreignRunReason(log.facts, ctx.sessionId, trusted);
    if (foreign !== undefined) throw new WorkflowRunForeignError(runId, foreign);
    const report = await runWorkflow({
      workflow,
      flow,
      runId,
      query: args.query,
      sessionId: ctx.sessionId,
      ...(trusted ? { trusted: true } : {}),
      rulesDigest: rulesDigestOf(services.permissions, ctx),
      log,
      env: { invoker: ctx.invoker, callId: ctx.callId, signal: ctx.signal, artifacts: ctx.artifacts },
      llm: services.llmFor(ctx.runId),
      clock: services.clock,
      changes: () => changesSoFar(ctx),
      onProgress: (event) => {
        ctx.emitOutput(
          `step ${event.stepId} (${event.kind}): ${event.state}${event.error ? ` — ${event.error.message}` : ''}\n`,
        );
        try {
          if (typeof handle.onProgress === 'function') handle.onProgress(event);
        } catch {
          // A host listener's failure must not fail the workflow.
        }
      },
    });
    return toResult(report, args.query);
  } finally {
    await log.close();
  }
}

/**
 * The digest of what a workflow call's steps are held to: the session's rules and the call's
 * governance (mode, tiers, restrictions, skill, YOLO), as a run's permission ceiling is digested.
 */
function rulesDigestOf(permissions: PermissionPolicyConfig, ctx: ToolContext): string {
  return ceilingDigest(permissionCeiling(permissions, invocationContextOf(ctx)?.governance ?? {}));
}

/** Creates `dynamic_workflow` over the session's services (core-internal: the session builds it). */
export function createDynamicWorkflowTool(services: WorkflowServices): Tool<DynamicWorkflowArgs> {
  const tool = defineTool({
    name: DYNAMIC_WORKFLOW_TOOL_NAME,
    description: description(services.flows),
    tier: 'read',
    requires: [WORKFLOW_RESOURCE],
    inputJsonSchema: toolJsonSchemas.dynamic_workflow,
    input: () => dynamicWorkflowInput(),
    plainInput: true,
    refine: (a) => workflowRules(a),
    capabilities: { readOnly: false, idempotent: false, outputType: 'json' },
    // A workflow is bounded by its steps' own limits; the tool timeout is only a backstop.
    timeoutMs: 86_400_000,
    reentrant: false,
    execute: (args, ctx) => execute(args, ctx, services),
  });
  return markTrustedOrchestrator(tool);
}
