/**
 * The graph check of a workflow: unique step ids, inputs that name other steps, no cycles,
 * templates that read only declared inputs, no blocked tool in an allow-list, a valid schema in
 * every generation step. It yields the order steps start in (declaration order, moved only as
 * far as inputs require) and each step's digest (the canonical JSON of its definition).
 */
import { createHash } from 'node:crypto';
import { canonicalJson, compileSchema, InvalidSchemaError } from '../generate-object/schema-validator.js';
import type { JsonSchema } from '../tools/json-schema.js';
import {
  WORKFLOW_BLOCKED_TOOLS,
  type WorkflowDefinition,
  type WorkflowStep,
  type WorkflowTaskTemplate,
} from './workflow-definition.js';
import { WorkflowDefinitionError } from './workflow-errors.js';
import { maxConcurrentGenerationsOf, parseWorkflowStructure } from './workflow-parse.js';
import { parseRef, templateRefs, type TemplateRef } from './workflow-template.js';

/** A workflow ready to run. */
export interface ValidatedWorkflow {
  readonly definition: WorkflowDefinition;
  /** Steps in the order they start (every step after its inputs). */
  readonly order: readonly WorkflowStep[];
  /** Each step's digest: SHA-256 of the canonical JSON of its definition. */
  readonly digests: ReadonlyMap<string, string>;
  /** The effective `limits.maxConcurrentGenerations`. */
  readonly maxConcurrentGenerations: number;
  /** The step whose output is the workflow's output. */
  readonly output: string;
}

type Located = { readonly field: string; readonly template: string; readonly inTask: boolean };

function templatesOf(step: WorkflowStep, at: string): Located[] {
  if (step.kind === 'generate_object')
    return [
      { field: `${at}.prompt`, template: step.prompt, inTask: false },
      ...(step.system === undefined ? [] : [{ field: `${at}.system`, template: step.system, inTask: false }]),
    ];
  if (step.kind !== 'parallel_task') return [];
  const fields = (t: WorkflowTaskTemplate, where: string, inTask: boolean): Located[] => [
    { field: `${where}.description`, template: t.description, inTask },
    { field: `${where}.prompt`, template: t.prompt, inTask },
  ];
  return [
    ...(step.tasks ?? []).flatMap((t, i) => fields(t, `${at}.tasks[${i}]`, false)),
    ...(step.task === undefined ? [] : fields(step.task, `${at}.task`, true)),
  ];
}

function checkRef(ref: TemplateRef, step: WorkflowStep, field: string, inTask: boolean): void {
  if (ref.root === 'steps' && !(step.inputs ?? []).includes(ref.step!))
    throw new WorkflowDefinitionError(
      field,
      `{{${ref.text}}} reads step '${ref.step}', which is not among this step's inputs (${(step.inputs ?? []).join(', ') || 'none'}); add it to inputs`,
      step.id,
    );
  if ((ref.root === 'item' || ref.root === 'index') && !inTask)
    throw new WorkflowDefinitionError(
      field,
      `{{${ref.text}}} is only available in the task of a parallel_task step with forEach`,
      step.id,
    );
}

function checkStep(step: WorkflowStep, at: string, ids: ReadonlyMap<string, number>): void {
  const inputs = step.inputs ?? [];
  inputs.forEach((input, j) => {
    const field = `${at}.inputs[${j}]`;
    if (input === step.id) throw new WorkflowDefinitionError(field, 'a step cannot be its own input', step.id);
    if (!ids.has(input))
      throw new WorkflowDefinitionError(
        field,
        `unknown step '${input}'; steps: ${[...ids.keys()].join(', ')}`,
        step.id,
      );
    if (inputs.indexOf(input) !== j) throw new WorkflowDefinitionError(field, `'${input}' is listed twice`, step.id);
  });
  if (step.kind === 'program') {
    if ((step.source === undefined) === (step.path === undefined))
      throw new WorkflowDefinitionError(`${at}.source`, 'give exactly one of source or path', step.id);
    const blocked = (step.allowedTools ?? []).find((t) => WORKFLOW_BLOCKED_TOOLS.includes(t));
    if (blocked !== undefined)
      throw new WorkflowDefinitionError(
        `${at}.allowedTools`,
        `'${blocked}' may not be called from a workflow step (${WORKFLOW_BLOCKED_TOOLS.join(', ')} are blocked; declare a parallel_task step for sub-agents)`,
        step.id,
      );
  } else if (step.kind === 'generate_object') {
    try {
      compileSchema(step.schema as JsonSchema);
    } catch (e) {
      if (!(e instanceof InvalidSchemaError)) throw e;
      throw new WorkflowDefinitionError(`${at}.schema`, `is not a valid JSON Schema: ${e.message}`, step.id);
    }
  } else {
    const fanOut = step.forEach !== undefined || step.task !== undefined;
    if (fanOut === (step.tasks !== undefined) || (fanOut && (step.forEach === undefined || step.task === undefined)))
      throw new WorkflowDefinitionError(`${at}.tasks`, 'give either tasks, or forEach together with task', step.id);
    if (step.forEach !== undefined) {
      const ref = parseRef(step.forEach);
      if (ref?.root !== 'steps')
        throw new WorkflowDefinitionError(
          `${at}.forEach`,
          `must name an input step's array: steps.<id> or steps.<id>.<path>, got '${step.forEach}'`,
          step.id,
        );
      checkRef(ref, step, `${at}.forEach`, false);
    }
    if (step.minSuccessCount !== undefined && step.allowPartialFailure !== true)
      throw new WorkflowDefinitionError(`${at}.minSuccessCount`, 'needs allowPartialFailure: true', step.id);
  }
  for (const { field, template, inTask } of templatesOf(step, at)) {
    const found = templateRefs(template);
    if ('bad' in found)
      throw new WorkflowDefinitionError(
        field,
        `${found.bad} is not a reference; use {{query}}, {{steps.<id>}}, {{steps.<id>.<path>}}, or in a forEach task {{item}}, {{item.<path>}}, {{index}}`,
        step.id,
      );
    for (const ref of found.refs) checkRef(ref, step, field, inTask);
  }
}

/** Steps in start order; throws naming a cycle when there is one. */
function startOrder(steps: readonly WorkflowStep[]): WorkflowStep[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (s: WorkflowStep, trail: string[]): void => {
    const seen = state.get(s.id);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(s.id)), s.id];
      throw new WorkflowDefinitionError(
        `steps[${steps.indexOf(s)}].inputs`,
        `the inputs form a cycle: ${cycle.join(' → ')}`,
        s.id,
      );
    }
    state.set(s.id, 'visiting');
    for (const input of s.inputs ?? []) visit(byId.get(input)!, [...trail, s.id]);
    state.set(s.id, 'done');
  };
  for (const s of steps) visit(s, []);
  // Declaration order, each step moved only behind the inputs it waits for.
  const placed = new Set<string>();
  const order: WorkflowStep[] = [];
  while (order.length < steps.length) {
    const next = steps.find((s) => !placed.has(s.id) && (s.inputs ?? []).every((i) => placed.has(i)))!;
    placed.add(next.id);
    order.push(next);
  }
  return order;
}

/** The digest of a step's definition. */
export function stepDigest(step: WorkflowStep): string {
  return createHash('sha256').update(canonicalJson(step)).digest('hex');
}

/**
 * Checks a definition completely (structure, then graph) and prepares it to run.
 * @throws WorkflowDefinitionError naming the field and the step.
 */
export function validateWorkflow(input: unknown): ValidatedWorkflow {
  const definition = parseWorkflowStructure(input);
  const ids = new Map<string, number>();
  definition.steps.forEach((s, i) => {
    const first = ids.get(s.id);
    if (first !== undefined)
      throw new WorkflowDefinitionError(`steps[${i}].id`, `duplicate step id (also steps[${first}])`, s.id);
    ids.set(s.id, i);
  });
  for (const [i, s] of definition.steps.entries()) checkStep(s, `steps[${i}]`, ids);
  const order = startOrder(definition.steps);
  const output = definition.output ?? definition.steps.at(-1)!.id;
  if (!ids.has(output))
    throw new WorkflowDefinitionError('output', `unknown step '${output}'; steps: ${[...ids.keys()].join(', ')}`);
  return {
    definition,
    order,
    digests: new Map(definition.steps.map((s) => [s.id, stepDigest(s)])),
    maxConcurrentGenerations: maxConcurrentGenerationsOf(definition),
    output,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Checks a workflow definition (a TypeScript object or parsed JSON) and returns it, frozen: a
 * host defines its flows with it so that a bad one fails when the host starts, not when it runs.
 * @throws WorkflowDefinitionError naming the field and the step (unknown step references,
 *   cycles, duplicate ids, blocked tools, out-of-range limits, malformed fields).
 */
export function defineWorkflow(definition: WorkflowDefinition): WorkflowDefinition {
  return deepFreeze(structuredClone(validateWorkflow(definition).definition));
}
