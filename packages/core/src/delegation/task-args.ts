/**
 * Argument schemas of the delegation tools. The agent names come from the session's catalog, so
 * an unknown agent is an `INVALID_TOOL_ARGS` naming `args.agent` and the allowed values.
 */
import { attachmentsArg } from '../attachments/attachment-args.js';
import type { ToolArgRefinement } from '../tools/define-tool.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { lazyZod, type Zod } from '../tools/zod-loader.js';
import { outputSchemaProblem } from './output-schema.js';

/** Branches of `parallel_task`. */
export const PARALLEL_TASK_LIMITS = Object.freeze({ minBranches: 2, maxBranches: 32 });

const branchShape = (z: Zod, agents: readonly [string, ...string[]]) => ({
  agent: z.enum(agents).describe('Name of the sub-agent to run.'),
  description: z.string().min(1).max(200).describe('A short (3-10 words) description of the sub-task.'),
  prompt: z
    .string()
    .min(1)
    .describe('The full instructions for the sub-agent; it sees nothing else of this conversation.'),
  max_steps: z.number().int().min(1).max(1000).optional().describe('Tool rounds the sub-agent may use (1..1000).'),
  output_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('JSON Schema the sub-agent’s final answer must match; the answer is validated.'),
  attachments: attachmentsArg(z),
});

/** The `task` tool's arguments (built with zod's `z`). */
export function taskInput(z: Zod, agents: readonly [string, ...string[]]) {
  return z.strictObject({
    ...branchShape(z, agents),
    background: z
      .boolean()
      .default(false)
      .describe('Run in the background and return a task_id at once; fetch the result with task_result.'),
  });
}

/** The `parallel_task` tool's arguments (built with zod's `z`). `background` is not a branch parameter. */
export function parallelTaskInput(z: Zod, agents: readonly [string, ...string[]]) {
  return z.strictObject({
    tasks: z
      .array(z.strictObject(branchShape(z, agents)))
      .min(PARALLEL_TASK_LIMITS.minBranches)
      .max(PARALLEL_TASK_LIMITS.maxBranches)
      .describe(
        `${PARALLEL_TASK_LIMITS.minBranches}..${PARALLEL_TASK_LIMITS.maxBranches} independent sub-tasks, run in parallel.`,
      ),
    allow_partial_failure: z
      .boolean()
      .default(false)
      .describe('Succeed even when some branches fail (see min_success_count).'),
    min_success_count: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('With allow_partial_failure: true, the branches that must succeed (1..number of tasks; default 1).'),
  });
}

/** A branch's `output_schema` that cannot be compiled, as an issue at `path` (none: it compiles or is absent). */
function outputSchemaIssues(
  branch: { readonly output_schema?: Readonly<Record<string, unknown>> | undefined },
  path: readonly PropertyKey[],
): ToolArgRefinement[] {
  if (branch.output_schema === undefined) return [];
  const problem = outputSchemaProblem(branch.output_schema as JsonSchema);
  return problem === undefined ? [] : [{ path: [...path, 'output_schema'], message: problem }];
}

/** `task`'s rule: an `output_schema` must compile, before the child runs. */
export function taskRules(a: {
  readonly output_schema?: Readonly<Record<string, unknown>> | undefined;
}): ToolArgRefinement[] {
  return outputSchemaIssues(a, []);
}

/**
 * `parallel_task`'s rules: each branch's `output_schema` compiles; across fields,
 * `min_success_count` only with partial failure, at most the tasks.
 */
export function parallelTaskRules(a: {
  readonly tasks: readonly { readonly output_schema?: Readonly<Record<string, unknown>> | undefined }[];
  readonly allow_partial_failure: boolean;
  readonly min_success_count?: number;
}): ToolArgRefinement[] {
  const schemas = a.tasks.flatMap((t, i) => outputSchemaIssues(t, ['tasks', i]));
  if (schemas.length > 0) return schemas;
  if (a.min_success_count === undefined) return [];
  if (!a.allow_partial_failure)
    return [{ path: ['min_success_count'], message: 'is accepted only together with allow_partial_failure: true' }];
  if (a.min_success_count > a.tasks.length)
    return [
      {
        path: ['min_success_count'],
        message: `must be between 1 and the number of tasks (${a.tasks.length}), got ${a.min_success_count}`,
      },
    ];
  return [];
}

/** The `task_result` tool's arguments, built (and zod loaded) on the first call. */
export const taskResultInput = lazyZod((z) =>
  z.strictObject({
    task_id: z.string().min(1).describe('The id `task` returned for a background task.'),
    wait: z.boolean().default(true).describe('Wait for the task to finish (default) or return its status now.'),
  }),
);

/** The agent name the generated JSON Schemas of `task` and `parallel_task` hold in place of the session's. */
export const AGENT_NAMES_PLACEHOLDER = '{{agent names}}';

/**
 * A generated JSON Schema with the session's `agents` in place of {@link AGENT_NAMES_PLACEHOLDER}:
 * what zod would build for them, or `undefined` (zod then builds it) for names zod would list
 * differently (none, repeated, or array-index-like names, which an object's key order moves).
 */
export function withAgentNames(schema: JsonSchema | undefined, agents: readonly string[]): JsonSchema | undefined {
  const plain = agents.every((a) => a !== '__proto__' && !/^(0|[1-9]\d*)$/.test(a));
  if (schema === undefined || agents.length === 0 || new Set(agents).size !== agents.length || !plain) return undefined;
  const swap = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.length === 1 && v[0] === AGENT_NAMES_PLACEHOLDER ? [...agents] : v.map(swap);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
  };
  return swap(schema) as JsonSchema;
}
