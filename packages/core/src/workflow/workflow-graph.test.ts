import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from './workflow-definition.js';
import { WorkflowDefinitionError } from './workflow-errors.js';
import { defineWorkflow, validateWorkflow } from './workflow-graph.js';

const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
const gen = (id: string, inputs: string[] = [], prompt = 'go') => ({
  id,
  kind: 'generate_object' as const,
  inputs,
  prompt,
  schema,
});
const prog = (id: string, inputs: string[] = [], extra: Record<string, unknown> = {}) => ({
  id,
  kind: 'program' as const,
  inputs,
  source: 'export default async function run() { return 1; }',
  ...extra,
});

/** The typed error a definition fails with. */
function problem(definition: unknown): WorkflowDefinitionError {
  try {
    validateWorkflow(definition);
  } catch (e) {
    expect(e).toBeInstanceOf(WorkflowDefinitionError);
    return e as WorkflowDefinitionError;
  }
  throw new Error('the definition was accepted');
}

describe('workflow definitions: graph validation', () => {
  it('an unknown input names the step, the field and the steps that exist', () => {
    const e = problem({ name: 'w', steps: [gen('a'), gen('b', ['nope'])] });
    expect(e).toMatchObject({ code: 'WORKFLOW_INVALID', step: 'b', field: 'steps[1].inputs[0]' });
    expect(e.message).toBe("dynamic_workflow: step 'b': steps[1].inputs[0]: unknown step 'nope'; steps: a, b");
  });

  it('a cycle names the steps around it', () => {
    const e = problem({ name: 'w', steps: [gen('a', ['c']), gen('b', ['a']), gen('c', ['b'])] });
    expect(e.step).toBe('a');
    expect(e.message).toContain('the inputs form a cycle: a → c → b → a');
  });

  it('a duplicate id names both places', () => {
    const e = problem({ name: 'w', steps: [gen('a'), prog('b'), gen('a')] });
    expect(e).toMatchObject({ step: 'a', field: 'steps[2].id' });
    expect(e.message).toContain('duplicate step id (also steps[0])');
  });

  it('a step that is its own input, or lists one twice, is refused', () => {
    expect(problem({ name: 'w', steps: [gen('a', ['a'])] }).message).toContain('a step cannot be its own input');
    expect(problem({ name: 'w', steps: [gen('a'), gen('b', ['a', 'a'])] }).message).toContain("'a' is listed twice");
  });

  it('a template may read only declared inputs, and item/index only in a forEach task', () => {
    const e = problem({ name: 'w', steps: [gen('a'), gen('b', [], 'use {{steps.a.n}}')] });
    expect(e).toMatchObject({ step: 'b', field: 'steps[1].prompt' });
    expect(e.message).toContain("reads step 'a', which is not among this step's inputs (none); add it to inputs");
    expect(problem({ name: 'w', steps: [gen('a', [], 'x {{item}}')] }).message).toContain('only available in the task');
    expect(problem({ name: 'w', steps: [gen('a', [], 'x {{ env.HOME }}')] }).message).toContain(
      '{{ env.HOME }} is not a reference',
    );
  });

  it('parallel_task steps need tasks, or forEach with task, over an input array', () => {
    const task = { description: 'd {{index}}', prompt: 'p {{item.title}}' };
    expect(problem({ name: 'w', steps: [{ id: 'p', kind: 'parallel_task', task, tasks: [task] }] }).message).toContain(
      'give either tasks, or forEach together with task',
    );
    expect(
      problem({
        name: 'w',
        steps: [gen('a'), { id: 'p', kind: 'parallel_task', forEach: 'a.tasks', task, inputs: ['a'] }],
      }).message,
    ).toContain("must name an input step's array");
    const ok = validateWorkflow({
      name: 'w',
      steps: [gen('a'), { id: 'p', kind: 'parallel_task', forEach: 'steps.a.tasks', task, inputs: ['a'] }],
    });
    expect(ok.order.map((s) => s.id)).toEqual(['a', 'p']);
  });

  it('a program step may not allow program, dynamic_workflow or parallel_task, and needs source or path', () => {
    for (const tool of ['program', 'dynamic_workflow', 'parallel_task']) {
      const e = problem({ name: 'w', steps: [prog('a', [], { allowedTools: ['read', tool] })] });
      expect(e).toMatchObject({ step: 'a', field: 'steps[0].allowedTools' });
      expect(e.message).toContain(`'${tool}' may not be called from a workflow step`);
    }
    expect(problem({ name: 'w', steps: [{ id: 'a', kind: 'program' }] }).message).toContain(
      'give exactly one of source or path',
    );
  });

  it('DWF-05: limits.maxConcurrentGenerations accepts 1 to 4 (default 1) and refuses anything else', () => {
    expect(validateWorkflow({ name: 'w', steps: [gen('a')] }).maxConcurrentGenerations).toBe(1);
    for (const n of [1, 2, 3, 4])
      expect(
        validateWorkflow({ name: 'w', limits: { maxConcurrentGenerations: n }, steps: [gen('a')] })
          .maxConcurrentGenerations,
      ).toBe(n);
    for (const n of [0, 5, 2.5, '3', -1]) {
      const e = problem({ name: 'w', limits: { maxConcurrentGenerations: n }, steps: [gen('a')] });
      expect(e.field).toBe('limits.maxConcurrentGenerations');
      expect(e.message).toContain('must be an integer from 1 to 4');
    }
  });

  it('structural problems name the field and the step; an unknown kind lists the kinds', () => {
    expect(problem({ name: 'w', steps: [{ id: 'a', kind: 'shell' }] }).message).toBe(
      'dynamic_workflow: step \'a\': steps[0].kind: must be one of program, generate_object, parallel_task, got "shell"',
    );
    const e = problem({ name: 'w', steps: [{ ...gen('a'), extra: true }] });
    expect(e).toMatchObject({ step: 'a' });
    expect(problem({ name: 'w', steps: [] }).field).toBe('steps');
    expect(problem({ name: 'w', steps: [{ ...gen('a'), schema: { type: 'nonsense' } }] }).message).toContain(
      'is not a valid JSON Schema',
    );
    expect(problem({ name: 'w', steps: [gen('a')], output: 'z' }).message).toContain("output: unknown step 'z'");
  });

  it('a generation schema that loops on itself or nests without end is refused before any step runs', () => {
    const loop = problem({ name: 'w', steps: [{ ...gen('a'), schema: { $ref: '#' } }] });
    expect(loop).toMatchObject({ code: 'WORKFLOW_INVALID', step: 'a', field: 'steps[0].schema' });
    expect(loop.message).toContain('without descending into the value');
    let deep: Record<string, unknown> = { type: 'integer' };
    for (let i = 0; i < 3000; i++) deep = { type: 'object', properties: { a: deep } };
    const nested = problem({ name: 'w', steps: [{ ...gen('a'), schema: deep }] });
    expect(nested).toMatchObject({ code: 'WORKFLOW_INVALID', field: 'steps[0].schema' });
    expect(nested.message).toContain('nests deeper than 200 levels');
  });

  it('steps start in declaration order, moved only behind their inputs', () => {
    const w = validateWorkflow({ name: 'w', steps: [gen('c', ['b']), gen('a'), gen('b', ['a']), gen('d')] });
    expect(w.order.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(w.output).toBe('d');
    // Digests are per step definition and stable.
    expect(w.digests.get('a')).toBe(validateWorkflow({ name: 'x', steps: [gen('a')] }).digests.get('a'));
    expect(w.digests.get('a')).not.toBe(w.digests.get('d'));
  });

  it('defineWorkflow returns a frozen copy', () => {
    const input: WorkflowDefinition = { name: 'w', steps: [gen('a')] };
    const defined = defineWorkflow(input);
    expect(defined).toEqual(input);
    expect(Object.isFrozen(defined.steps[0])).toBe(true);
  });
});
