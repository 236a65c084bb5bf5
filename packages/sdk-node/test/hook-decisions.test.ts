// A pre-hook that returns something other than a decision (a misspelt action, a bare string, a
// block without a reason, a modify without args, a number) fails the call closed with
// INVALID_HOOK_DECISION naming the hook and the forms it may return; the call never runs and the
// run goes on. `null` continues, like `undefined`. Before, each was taken as a `modify` whose args
// failed ("args: must be object"), or crashed on `null` ("Cannot read properties of null"). A
// post-hook returning no ToolResult failed the whole run with a TypeError and lost the call's
// tool.result; a prompt or stop hook's bad answer crashed, was ignored, or failed as INVALID_FACT.
import { readFileSync } from 'node:fs';
import { defineTool, defineToolPack } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { parseLog } from '@a3s-code/effect';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

async function callThrough(decision: unknown, hooks?: Record<string, unknown>) {
  let ran = 0;
  const pack = defineToolPack({
    name: 'note-pack',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'note',
        description: 'Notes a text.',
        tier: 'read',
        input: z.object({ text: z.string() }).strict(),
        execute: async () => {
          ran++;
          return { output: 'noted', exitCode: 0 };
        },
      }),
    ],
  });
  const model = new ScriptedLlmClient([
    { tool_calls: [{ id: 'n1', name: 'note', args: { text: 'x' } }] },
    { text: 'done' },
  ]);
  const agent = await Agent.create({ model, tools: [pack] });
  const s = await agent.session(tempRepo(), {
    permissions: { allow: ['note'] },
    hooks: (hooks ?? { pre: [{ name: 'gate', before: () => decision as never }] }) as never,
  });
  try {
    const status = await s.send('go').then(
      (r) => r.status,
      (e: { code?: unknown; message?: unknown }) => ({ code: e.code, message: e.message }),
    );
    const facts = parseLog(readFileSync(s.logPath!, 'utf8')).facts;
    const result = facts.find((f) => f.type === 'tool.result')?.payload;
    const types = facts.map((f) => f.type);
    return { status, ran, types, result: result as { ok: boolean; output: string; metadata: { error_code?: string } } };
  } finally {
    await s.close();
  }
}

const FORMS =
  /a pre-hook returns undefined, \{ action: 'continue' \}, \{ action: 'block', reason: string \} or \{ action: 'modify', args \}/;

describe('a pre-hook that returns no decision', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a misspelt action', { action: 'allow' }, /pre-hook 'gate' returned action "allow"/],
    ['a bare string', 'block', /pre-hook 'gate' returned string/],
    ['a block without a reason', { action: 'block' }, /returned a block without a reason/],
    ['a modify without args', { action: 'modify' }, /returned a modify without args/],
    ['a number', 5, /returned number/],
  ];
  for (const [what, decision, message] of cases)
    it(`${what}: the call fails closed with INVALID_HOOK_DECISION naming the hook, and does not run`, async () => {
      const { status, ran, result } = await callThrough(decision);
      expect(status).toBe('completed');
      expect(ran).toBe(0);
      expect(result).toMatchObject({ ok: false, metadata: { error_code: 'INVALID_HOOK_DECISION' } });
      expect(result.output).toMatch(message);
      expect(result.output).toMatch(FORMS);
    });

  it('null continues, like undefined', async () => {
    const { ran, result } = await callThrough(null);
    expect(ran).toBe(1);
    expect(result).toMatchObject({ ok: true, output: 'noted' });
  });
});

describe('a post-hook, prompt hook or stop hook that returns no decision', () => {
  for (const [what, value, problem] of [
    ['a string', 'x', /post-hook 'p' returned string/],
    ['a result whose output is a number', { output: 5, exitCode: 0 }, /returned a result with output number/],
  ] as const)
    it(`a post-hook returning ${what}: the call fails with INVALID_HOOK_DECISION, its tool.result is recorded, the run goes on`, async () => {
      const { status, ran, result } = await callThrough(undefined, { post: [{ name: 'p', after: () => value }] });
      expect(status).toBe('completed');
      expect(ran).toBe(1);
      expect(result).toMatchObject({ ok: false, metadata: { error_code: 'INVALID_HOOK_DECISION' } });
      expect(result.output).toMatch(problem);
      expect(result.output).toContain('a post-hook returns undefined (the result stays) or a ToolResult');
    });

  it('a post-hook returning null keeps the result', async () => {
    const { result } = await callThrough(undefined, { post: [{ name: 'p', after: () => null }] });
    expect(result).toMatchObject({ ok: true, output: 'noted' });
  });

  it('a prompt hook with a misspelt action and a stop hook blocking without a reason fail the run by name; null continues', async () => {
    const prompt = await callThrough(undefined, { userPromptSubmit: [() => ({ action: 'allow' })] });
    expect(prompt.status).toEqual({
      code: 'INVALID_HOOK_DECISION',
      message:
        "user_prompt_submit: a hook returned action \"allow\"; it returns undefined, { action: 'continue' }, { action: 'block', reason: string } or { action: 'modify', prompt: string }",
    });
    expect(prompt.ran).toBe(0);
    for (const reason of [undefined, 5, '  ']) {
      const stop = await callThrough(undefined, { stop: [() => ({ action: 'block', reason })] });
      expect(stop.status).toMatchObject({
        code: 'INVALID_HOOK_DECISION',
        message: expect.stringMatching(/^stop: a hook returned a block without a reason \(a non-empty string\)/),
      });
      expect(stop.types.at(-1)).toBe('run.ended');
    }
    const passing = await callThrough(undefined, { userPromptSubmit: [() => null], stop: [() => null] });
    expect(passing.status).toBe('completed');
  });
});
