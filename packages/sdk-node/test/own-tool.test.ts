// A tool of the host's own, made with the SDK's `defineTool` and zod, as its README shows: the
// model's calls pass the kernel (a call with bad arguments is answered with what was wrong, never
// run; a rule names it) and their results reach the model.
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, defineToolPack } from '../src/index.js';
import { tempRepo } from './kit.js';

describe('a tool of your own', () => {
  it('runs through the kernel: good arguments run it, bad ones are refused naming the field, a deny rule holds', async () => {
    const cities: string[] = [];
    const weather = defineTool({
      name: 'weather',
      description: 'The weather of a city today.',
      tier: 'read',
      input: z.object({ city: z.string() }),
      async execute({ city }) {
        cities.push(city);
        return { output: `sunny in ${city}`, exitCode: 0 };
      },
    });
    const model = new ScriptedLlmClient([
      {
        tool_calls: [
          { id: 't1', name: 'weather', args: { city: 'Oslo' } },
          { id: 't2', name: 'weather', args: { city: 42 } },
          { id: 't3', name: 'weather', args: { city: 'Lima' } },
        ],
      },
      { text: 'done' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [defineToolPack({ name: 'my-tools', version: '1.0.0', tools: [weather] })],
    });
    const s = await agent.session(tempRepo(), {
      permissions: { allow: ['weather'], deny: ['weather(*Lima*)'] },
      gate: { continuation: { enabled: false } },
    });
    try {
      const run = s.stream('weather?');
      const outputs: string[] = [];
      for await (const e of run) if (e.type === 'tool_end') outputs.push(String(e.payload.output));
      const r = await run.result;
      expect(cities).toEqual(['Oslo']);
      expect(outputs).toHaveLength(3);
      expect(outputs).toContain('sunny in Oslo');
      expect(outputs).toContain('Permission denied: weather(*Lima*)');
      expect(outputs.find((o) => !o.startsWith('sunny') && !o.startsWith('Permission'))).toMatch(/city/);
      expect(r).toMatchObject({ status: 'completed', deniedCalls: 1 });
    } finally {
      await agent.close();
    }
  });
});
