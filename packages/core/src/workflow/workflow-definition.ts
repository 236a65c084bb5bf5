/**
 * The shape of a dynamic workflow: named steps, each a `program` (a QuickJS script run through
 * the `program` tool), a `generate_object` (schema-validated structured output) or a
 * `parallel_task` (sub-agents run natively by the host, outside QuickJS), each declaring the
 * earlier steps whose outputs it reads. A definition is plain JSON, so a model can write one and
 * a host can ship one as a TypeScript object.
 */
import { PROGRAM_DEFAULT_DENIED_TOOLS } from '../program/program-args.js';
import type { JsonSchema } from '../tools/json-schema.js';

/** Bounds of a workflow definition and its run. */
export const WORKFLOW_LIMITS = Object.freeze({
  /** Steps in one workflow. */
  maxSteps: 64,
  /** Inputs one step may declare. */
  maxInputs: 32,
  /** `limits.maxConcurrentGenerations`: 1 (one generation at a time, the default) to 4. */
  maxConcurrentGenerations: { default: 1, min: 1, max: 4 },
  /** The original query, in UTF-8 bytes. */
  maxQueryBytes: 32_768,
  /** Sub-tasks one `parallel_task` step may run (the `parallel_task` tool's own bound). */
  maxTasks: 32,
  /** Characters one `{{...}}` substitution may insert into a prompt; the rest is cut. */
  maxSubstitutionChars: 32_768,
});

/**
 * Tools a workflow step may never call through `ctx.tool` (`program`, `dynamic_workflow`,
 * `parallel_task`): they would recurse. They are exactly what a program may not call unless its
 * allow-list names them, and a step's allow-list may not name them. A workflow that needs
 * sub-agents declares a `parallel_task` step, which the host runs natively.
 */
export const WORKFLOW_BLOCKED_TOOLS: readonly string[] = PROGRAM_DEFAULT_DENIED_TOOLS;

/** The kinds of step. */
export const WORKFLOW_STEP_KINDS = Object.freeze(['program', 'generate_object', 'parallel_task'] as const);

/** A kind of step. */
export type WorkflowStepKind = (typeof WORKFLOW_STEP_KINDS)[number];

/** What every step declares. */
export interface WorkflowStepBase {
  /** Unique in the workflow: a letter, then letters, digits, `_` or `-` (at most 64). */
  readonly id: string;
  /** A short note for people reading the definition or its progress. */
  readonly description?: string;
  /**
   * Ids of the steps whose outputs this step reads (`{{steps.<id>}}` in templates,
   * `inputs.steps.<id>` in a program). It starts only after they have completed.
   */
  readonly inputs?: readonly string[];
}

/** Limits of a `program` step (the `program` tool's `limits`, camelCase). */
export interface WorkflowProgramLimits {
  /** Wall-clock deadline of the script, 1..600000 ms (default 30000). */
  readonly timeoutMs?: number;
  /** `ctx` calls that reach a tool, 0..1000 (default 50). */
  readonly maxToolCalls?: number;
  /** Bytes of output text and of the returned value, 256..1048576 (default 65536). */
  readonly maxOutputBytes?: number;
  /** Memory of the VM in bytes (default 64 MiB). */
  readonly memoryLimitBytes?: number;
}

/**
 * A script run in QuickJS through the `program` tool: `export default async function run(ctx,
 * inputs)`, where `inputs` is `{ query, steps: { <input id>: output } }`. Its return value (JSON)
 * is the step's output.
 */
export interface WorkflowProgramStep extends WorkflowStepBase {
  readonly kind: 'program';
  /** The script inline; give `source` or `path`. */
  readonly source?: string;
  /** A workspace-relative `.js` / `.mjs` file holding the script; give `source` or `path`. */
  readonly path?: string;
  /**
   * Tools `ctx.tool` may call. Default: every tool on the session's surface except `program`,
   * `dynamic_workflow` and `parallel_task`, which may never be listed.
   */
  readonly allowedTools?: readonly string[];
  readonly limits?: WorkflowProgramLimits;
}

/**
 * Structured output: the model produces a value that validates against `schema`; the value is
 * the step's output. `prompt` and `system` are templates.
 */
export interface WorkflowGenerateObjectStep extends WorkflowStepBase {
  readonly kind: 'generate_object';
  /** What to generate: a template (`{{query}}`, `{{steps.<id>}}`, `{{steps.<id>.<path>}}`). */
  readonly prompt: string;
  /** JSON Schema of the value. */
  readonly schema: JsonSchema;
  /** Name of the value, 1-59 of `[A-Za-z0-9_-]` (default `result`). */
  readonly schemaName?: string;
  /** Description of the value, at most 4096 bytes. */
  readonly schemaDescription?: string;
  /** Extra system prompt (a template). */
  readonly system?: string;
  /** Structured-output mode: `auto` (default), `strict`, `json`, `tool` or `prompt`. */
  readonly mode?: 'auto' | 'strict' | 'json' | 'tool' | 'prompt';
  /** Retries after an invalid value, 0..5 (default 2). */
  readonly maxRepairAttempts?: number;
  /** Deadline of the generation, 1000..600000 ms (default 120000). */
  readonly timeoutMs?: number;
}

/** One sub-task of a `parallel_task` step; `description` and `prompt` are templates. */
export interface WorkflowTaskTemplate {
  /** The sub-agent: `general` (default), `explore`, `plan`, `verification` or a custom agent. */
  readonly agent?: string;
  /** A short description, 1..200 characters once rendered. */
  readonly description: string;
  /** The sub-agent's instructions. */
  readonly prompt: string;
  /** Tool rounds of the sub-agent, 1..1000. */
  readonly maxSteps?: number;
}

/**
 * Local sub-agents, run by the host through its native `parallel_task` tool (never from inside
 * QuickJS). Either fixed `tasks`, or one `task` per element of the array `forEach` names
 * (`steps.<id>` or `steps.<id>.<path>`), where `{{item}}`, `{{item.<path>}}` and `{{index}}`
 * refer to the element. The output is the `parallel_task` summary
 * (`{ completed, succeeded, results: [...] }`).
 */
export interface WorkflowParallelTaskStep extends WorkflowStepBase {
  readonly kind: 'parallel_task';
  /** Fixed sub-tasks; give `tasks`, or `forEach` with `task`. */
  readonly tasks?: readonly WorkflowTaskTemplate[];
  /** The array to fan out over: `steps.<id>` or `steps.<id>.<path>` of an input step. */
  readonly forEach?: string;
  /** The sub-task made for each element of `forEach`. */
  readonly task?: WorkflowTaskTemplate;
  /** Succeed when at least `minSuccessCount` sub-tasks do (default: all must). */
  readonly allowPartialFailure?: boolean;
  /** With `allowPartialFailure`: how many must succeed (default 1). */
  readonly minSuccessCount?: number;
}

/** A step of a workflow. */
export type WorkflowStep = WorkflowProgramStep | WorkflowGenerateObjectStep | WorkflowParallelTaskStep;

/** Limits of a whole workflow run. */
export interface WorkflowLimits {
  /**
   * `generate_object` steps that may run at the same time, 1..4 (default 1: one at a time).
   * Above 1, independent generation steps fan out, each with a client fork bound to its run and
   * step; with a model client that cannot fork, generation stays one at a time.
   */
  readonly maxConcurrentGenerations?: number;
}

/** A workflow definition. */
export interface WorkflowDefinition {
  /** 1-64 of `[A-Za-z0-9_-]`. */
  readonly name: string;
  readonly description?: string;
  readonly limits?: WorkflowLimits;
  /** 1..64 steps; they run in this order unless their inputs require otherwise. */
  readonly steps: readonly WorkflowStep[];
  /** The step whose output is the workflow's output (default: the last step). */
  readonly output?: string;
}
