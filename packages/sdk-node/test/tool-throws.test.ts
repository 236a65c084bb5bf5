// A tool handler that throws something other than an Error (a string, undefined, a plain object,
// an object without a prototype, one whose getters or toString throw, a Proxy that throws on
// every trap): the call fails with TOOL_EXECUTION naming the tool and what was thrown, for the
// model and for the host alike; the run goes on. Before, a value that cannot be turned into a
// string made the message that of the conversion ("Cannot convert object to primitive value").
import { readFileSync } from 'node:fs';
import { defineTool, defineToolPack } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { parseLog } from '@a3s-code/effect';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

class BrokenError extends Error {
  override get message(): string {
    throw new Error('message getter');
  }
}
const hostile = new Proxy(
  {},
  {
    get: () => {
      throw new Error('trap');
    },
    ownKeys: () => {
      throw new Error('trap');
    },
    getPrototypeOf: () => {
      throw new Error('trap');
    },
  },
);

const cases: [string, () => unknown, RegExp][] = [
  ['a string', () => 'disk full', /^bad: disk full$/],
  ['undefined', () => undefined, /^bad: undefined$/],
  [
    'a plain object',
    () => ({ code: 'E1', why: 'nope' }),
    /^bad: threw a non-Error object \{"code":"E1","why":"nope"\}$/,
  ],
  ['an object without a prototype', () => Object.create(null), /^bad: threw a non-Error object$/],
  [
    'an object whose toString throws',
    () => ({
      toString() {
        throw new Error('ts');
      },
    }),
    /^bad: threw a non-Error object$/,
  ],
  ['an Error whose message getter throws', () => new BrokenError(), /^bad: threw a value that cannot be read/],
  ['a Proxy that throws on every trap', () => hostile, /^bad: threw a value that cannot be read/],
];

describe('a tool handler that throws a value that is not an Error', () => {
  for (const [what, value, message] of cases)
    it(`${what}: the call fails with TOOL_EXECUTION naming the tool, the run goes on`, async () => {
      const pack = defineToolPack({
        name: 'bad-pack',
        version: '1.0.0',
        tools: [
          defineTool({
            name: 'bad',
            description: 'Throws.',
            tier: 'read',
            input: z.object({}).strict(),
            execute: async () => {
              throw value();
            },
          }),
        ],
      });
      const model = new ScriptedLlmClient([{ tool_calls: [{ id: 't1', name: 'bad', args: {} }] }, { text: 'done' }]);
      const agent = await Agent.create({ model, tools: [pack] });
      const s = await agent.session(tempRepo(), { permissions: { allow: ['bad'] } });
      try {
        expect(await s.send('go')).toMatchObject({ status: 'completed', text: 'done' });
        const result = parseLog(readFileSync(s.logPath!, 'utf8')).facts.find((f) => f.type === 'tool.result')!;
        expect(result.payload).toMatchObject({ ok: false, metadata: { error_code: 'TOOL_EXECUTION' } });
        expect((result.payload as { output: string }).output).toMatch(message);
        const direct = await s.tool('bad', {});
        expect(direct).toMatchObject({ exitCode: 1, error: { code: 'TOOL_EXECUTION' } });
        expect(direct.output).toMatch(message);
      } finally {
        await s.close();
      }
    });
});
