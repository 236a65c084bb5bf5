import { describe, expect, it } from 'vitest';
import { zodJsonSchemaOf } from '../tools/define-tool.js';
import { AGENT_NAMES_PLACEHOLDER, withAgentNames } from './task-args.js';
import { createParallelTaskTool, createTaskTool, type DelegationPort } from './task-tools.js';

/** A port listing `names`; the tools are only defined here, never run. */
function port(names: readonly string[]): DelegationPort {
  const agents = new Map(names.map((name) => [name, { name, description: `the ${name} agent` }]));
  return { agents, settings: { maxParallelTasks: 4 } } as unknown as DelegationPort;
}

describe('the JSON Schemas of task and parallel_task', () => {
  it.each([[['general']], [['general', 'explore', 'code-reviewer', 'Z_9']]])(
    'hold the session’s agents %j, as zod would build them, without building them with zod',
    (names) => {
      for (const tool of [createTaskTool(port(names)), createParallelTaskTool(port(names))]) {
        expect(Object.getOwnPropertyDescriptor(tool, 'inputSchema')?.get).toBeUndefined();
        expect(JSON.stringify(tool.inputSchema)).toBe(JSON.stringify(zodJsonSchemaOf(tool)));
        expect(JSON.stringify(tool.inputSchema)).not.toContain(AGENT_NAMES_PLACEHOLDER);
      }
    },
  );

  it('leave names zod lists in another order, and repeats, to zod', () => {
    const schema = { type: 'object', properties: { agent: { type: 'string', enum: [AGENT_NAMES_PLACEHOLDER] } } };
    expect(withAgentNames(schema, ['b', '2', 'a'])).toBeUndefined();
    expect(withAgentNames(schema, ['a', 'a'])).toBeUndefined();
    expect(withAgentNames(schema, [])).toBeUndefined();
    const tool = createTaskTool(port(['b', '2', 'a']));
    expect(Object.getOwnPropertyDescriptor(tool, 'inputSchema')?.get).toBeTypeOf('function');
    expect((tool.inputSchema.properties?.agent as { enum?: unknown } | undefined)?.enum).toEqual(['2', 'b', 'a']);
  });
});
