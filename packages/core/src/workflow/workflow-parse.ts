/**
 * The structural check of a workflow definition: every field's type and range, unknown keys
 * refused. Problems are {@link WorkflowDefinitionError}s naming the field and, inside a step, the
 * step's id. The graph (references, cycles, duplicates) is checked next, in `workflow-graph.ts`.
 */
import type { z } from 'zod';
import { PROGRAM_LIMITS } from '../program/program-args.js';
import { GENERATE_OBJECT_MODES } from '../generate-object/params.js';
import { lazyZod, type Zod } from '../tools/zod-loader.js';
import { WORKFLOW_LIMITS, WORKFLOW_STEP_KINDS, type WorkflowDefinition } from './workflow-definition.js';
import { WorkflowDefinitionError } from './workflow-errors.js';

const ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

const int = (z: Zod, min: number, max: number) =>
  z
    .number({ message: `must be an integer from ${min} to ${max}` })
    .int({ message: `must be an integer from ${min} to ${max}` })
    .min(min, { message: `must be an integer from ${min} to ${max}` })
    .max(max, { message: `must be an integer from ${min} to ${max}` });

function schemas(z: Zod) {
  const L = PROGRAM_LIMITS;
  const base = {
    id: z.string().regex(ID, { message: 'must be a letter, then up to 63 letters, digits, _ or -' }),
    description: z.string().max(2000).optional(),
    inputs: z.array(z.string()).max(WORKFLOW_LIMITS.maxInputs).optional(),
  };
  const task = z.strictObject({
    agent: z.string().min(1).max(64).optional(),
    description: z.string().min(1).max(2000),
    prompt: z.string().min(1),
    maxSteps: int(z, 1, 1000).optional(),
  });
  const program = z.strictObject({
    ...base,
    kind: z.literal('program'),
    source: z.string().min(1).max(L.maxSourceBytes).optional(),
    path: z.string().min(1).max(4096).optional(),
    allowedTools: z.array(z.string().min(1).max(128)).max(256).optional(),
    limits: z
      .strictObject({
        timeoutMs: int(z, L.timeoutMs.min, L.timeoutMs.max).optional(),
        maxToolCalls: int(z, L.maxToolCalls.min, L.maxToolCalls.max).optional(),
        maxOutputBytes: int(z, L.maxOutputBytes.min, L.maxOutputBytes.max).optional(),
        memoryLimitBytes: int(z, L.memoryLimitBytes.min, L.memoryLimitBytes.max).optional(),
      })
      .optional(),
  });
  const generate = z.strictObject({
    ...base,
    kind: z.literal('generate_object'),
    prompt: z.string().refine((s) => s.trim() !== '', { message: 'must not be empty' }),
    schema: z.record(z.string(), z.unknown()),
    schemaName: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,59}$/, { message: 'must be 1-59 characters, each an ASCII letter, digit, _ or -' })
      .optional(),
    schemaDescription: z.string().max(4096).optional(),
    system: z.string().max(32_768).optional(),
    mode: z.enum(GENERATE_OBJECT_MODES).optional(),
    maxRepairAttempts: int(z, 0, 5).optional(),
    timeoutMs: int(z, 1000, 600_000).optional(),
  });
  const parallel = z.strictObject({
    ...base,
    kind: z.literal('parallel_task'),
    tasks: z.array(task).min(1).max(WORKFLOW_LIMITS.maxTasks).optional(),
    forEach: z.string().min(1).optional(),
    task: task.optional(),
    allowPartialFailure: z.boolean().optional(),
    minSuccessCount: int(z, 1, WORKFLOW_LIMITS.maxTasks).optional(),
  });
  const steps = { program, generate_object: generate, parallel_task: parallel } as const;
  const head = z.strictObject({
    name: z.string().regex(NAME, { message: 'must be 1-64 characters, each an ASCII letter, digit, _ or -' }),
    description: z.string().max(2000).optional(),
    limits: z.strictObject({ maxConcurrentGenerations: z.unknown().optional() }).optional(),
    steps: z.array(z.unknown()).min(1).max(WORKFLOW_LIMITS.maxSteps),
    output: z.string().optional(),
  });
  return { head, steps };
}

const getSchemas = lazyZod(schemas);

function path(keys: readonly PropertyKey[]): string {
  let out = '';
  for (const k of keys) out += typeof k === 'number' ? `[${k}]` : out === '' ? String(k) : `.${String(k)}`;
  return out;
}

function fail(error: z.ZodError, prefix: string, step?: string): never {
  const issue = error.issues[0]!;
  const field = path(issue.path);
  throw new WorkflowDefinitionError(
    prefix === '' ? field || '(definition)' : field === '' ? prefix : `${prefix}.${field}`,
    issue.message,
    step,
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks `limits.maxConcurrentGenerations`; returns the effective value. */
function concurrency(value: unknown): number {
  const { min, max } = WORKFLOW_LIMITS.maxConcurrentGenerations;
  if (value === undefined) return WORKFLOW_LIMITS.maxConcurrentGenerations.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new WorkflowDefinitionError(
      'limits.maxConcurrentGenerations',
      `must be an integer from ${min} to ${max} (1 runs one generation at a time, the default; 2-4 fan out independent generate_object steps), got ${JSON.stringify(value) ?? String(value)}`,
    );
  return value;
}

/**
 * Checks the structure of `input` and returns it as a definition (a copy with every field checked).
 * @throws WorkflowDefinitionError naming the field (and the step).
 */
export function parseWorkflowStructure(input: unknown): WorkflowDefinition {
  if (!isObject(input)) throw new WorkflowDefinitionError('(definition)', 'must be an object { name, steps, ... }');
  const { head, steps } = getSchemas();
  const parsed = head.safeParse(input);
  if (!parsed.success) fail(parsed.error, '');
  concurrency(parsed.data.limits?.maxConcurrentGenerations);
  const out = parsed.data.steps.map((raw, i) => {
    const at = `steps[${i}]`;
    if (!isObject(raw)) throw new WorkflowDefinitionError(at, 'must be an object { id, kind, ... }');
    const id = typeof raw.id === 'string' ? raw.id : undefined;
    const kind = raw.kind;
    if (typeof kind !== 'string' || !(WORKFLOW_STEP_KINDS as readonly string[]).includes(kind))
      throw new WorkflowDefinitionError(
        `${at}.kind`,
        `must be one of ${WORKFLOW_STEP_KINDS.join(', ')}, got ${JSON.stringify(kind) ?? 'nothing'}`,
        id,
      );
    const r = steps[kind as keyof typeof steps].safeParse(raw);
    if (!r.success) fail(r.error, at, id);
    return r.data;
  });
  return { ...parsed.data, steps: out } as WorkflowDefinition;
}

/** The effective `limits.maxConcurrentGenerations` of a structurally valid definition. */
export function maxConcurrentGenerationsOf(definition: WorkflowDefinition): number {
  return concurrency(definition.limits?.maxConcurrentGenerations);
}
