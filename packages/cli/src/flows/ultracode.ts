/**
 * `/ultracode <task>`: plan the task, implement its parts in parallel sub-agents, verify the
 * result with a verification sub-agent, and summarise. A dynamic workflow, so an interrupted run
 * continued with its run id keeps the steps that had finished.
 */
import type { WorkflowDefinition } from '@a3s-code/core';

const PLAN_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string', description: 'the approach, in two or three sentences' },
    tasks: {
      type: 'array',
      minItems: 1,
      maxItems: 6,
      description: 'independent parts that can be done at the same time without editing the same files',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string', description: 'a short title' },
          instructions: { type: 'string', description: 'what to change, where, and how to tell it is done' },
        },
        required: ['title', 'instructions'],
        additionalProperties: false,
      },
    },
    verification: {
      type: 'string',
      description: 'how to check the whole change: commands to run, behaviour to observe',
    },
  },
  required: ['summary', 'tasks', 'verification'],
  additionalProperties: false,
} as const;

const SUMMARY_SCHEMA = {
  type: 'object',
  properties: {
    summary: { type: 'string', description: 'what was done, for the person who asked' },
    changes: { type: 'array', items: { type: 'string' }, description: 'the changes, one line each' },
    verification: {
      type: 'object',
      properties: {
        passed: { type: 'boolean' },
        evidence: { type: 'string', description: 'what was run or checked, and what it showed' },
      },
      required: ['passed', 'evidence'],
      additionalProperties: false,
    },
    follow_ups: { type: 'array', items: { type: 'string' }, description: 'what is left or worth doing next' },
  },
  required: ['summary', 'changes', 'verification', 'follow_ups'],
  additionalProperties: false,
} as const;

/** Condenses the sub-agents' reports and the workspace's git status for the later steps (runs in QuickJS). */
const COLLECT = `export default async function run(ctx, inputs) {
  const tasks = inputs.steps.plan.tasks;
  const results = inputs.steps.implement.results || [];
  const parts = results.map((r) => ({
    title: (tasks[r.index] || {}).title || 'part ' + r.index,
    status: r.status,
    report: String(r.text ?? JSON.stringify(r.output ?? r.error ?? '')).slice(0, 2000),
  }));
  let status = '';
  try {
    const g = await ctx.tool('git', { operation: 'status' });
    status = g.ok ? g.output.slice(0, 4000) : 'git status failed: ' + g.output.slice(0, 200);
  } catch (e) {
    status = 'git is not available: ' + e.message;
  }
  return { parts, completed: parts.filter((p) => p.status === 'completed').length, git_status: status };
}`;

/** The `/ultracode` workflow. */
export const ULTRACODE_FLOW: WorkflowDefinition = {
  name: 'ultracode',
  description: 'plan → parallel implementation → verification → summary',
  steps: [
    {
      id: 'plan',
      kind: 'generate_object',
      schemaName: 'plan',
      prompt:
        'Plan this coding task in the current repository, for sub-agents that will each implement one part in parallel.\n\nTask: {{query}}\n\nSplit it into 1 to 6 independent parts that do not edit the same files, give each precise instructions, and say how to verify the whole change.',
      schema: PLAN_SCHEMA,
    },
    {
      id: 'implement',
      kind: 'parallel_task',
      inputs: ['plan'],
      forEach: 'steps.plan.tasks',
      task: {
        agent: 'general',
        description: '{{item.title}}',
        prompt:
          'You implement one part of a larger change.\n\nOverall task: {{query}}\nApproach: {{steps.plan.summary}}\n\nYour part: {{item.title}}\n{{item.instructions}}\n\nOther parts are being done at the same time by others: change only what your part needs. Finish with a short report of exactly what you changed.',
      },
      allowPartialFailure: true,
      minSuccessCount: 1,
    },
    { id: 'collect', kind: 'program', inputs: ['plan', 'implement'], source: COLLECT, allowedTools: ['git'] },
    {
      id: 'verify',
      kind: 'parallel_task',
      inputs: ['plan', 'collect'],
      tasks: [
        {
          agent: 'verification',
          description: 'verify the change',
          prompt:
            'Verify a change made to this repository.\n\nTask: {{query}}\nHow to verify: {{steps.plan.verification}}\n\nWhat the implementers reported:\n{{steps.collect}}\n\nRun the checks, then report PASS or FAIL with the evidence.',
        },
      ],
    },
    {
      id: 'summary',
      kind: 'generate_object',
      schemaName: 'summary',
      inputs: ['plan', 'collect', 'verify'],
      prompt:
        'Summarise the work done on this task for the person who asked.\n\nTask: {{query}}\nPlan: {{steps.plan}}\nImplementation: {{steps.collect}}\nVerification: {{steps.verify.results}}\n\nSay plainly whether verification passed, and what is left.',
      schema: SUMMARY_SCHEMA,
    },
  ],
};
