// An approver that fails never lets the call it was asked about run: the model asks for writes
// at the top level, in a batch and in a program's parallel ctx.tool calls, and the host's
// approver throws or answers in a form it may not. The top-level call fails the run with a
// SESSION_CONFIGURATION error naming the approver and the call (it was a bare "boom" before); a
// nested call is refused (permission_denied, with a permission_denied event), where it used to
// fail as an "execution" error that looked as if the write itself had run and failed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type ConfirmHandler, type Session } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  tool_calls: [{ id, name, args }],
});
const write = (file_path: string) => ({ file_path, content: 'pwned\n' });

async function open(turns: ScriptedTurn[], onConfirm: ConfirmHandler) {
  const dir = tempRepo();
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    permissions: { allow: ['program'] },
    onConfirm,
  });
  opened.push(session);
  const events: Record<string, unknown>[] = [];
  const stream = session.stream('go');
  let failure: { code?: string; message?: string } | undefined;
  try {
    for await (const e of stream) events.push(e as unknown as Record<string, unknown>);
    await stream.result;
  } catch (e) {
    failure = e as { code?: string; message?: string };
  }
  return { dir, session, events, failure };
}

const THROWS: ConfirmHandler = () => {
  throw new TypeError('approval service down');
};
const GARBAGE = (() => 'yes') as unknown as ConfirmHandler;

describe('a failing approver runs nothing', () => {
  it('PERM-06: an approver that throws fails the run at a top-level call with an error naming it and the call', async () => {
    const { dir, session, failure } = await open([call('w1', 'write', write('A.md'))], THROWS);
    expect(failure).toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringMatching(
        /confirmation: the approver \(onConfirm, or confirmation\.confirm\) threw TypeError: approval service down; the call 'write' \(w1\) was not run/,
      ),
    });
    // The approver's own error is kept as the cause, for the host's logs.
    expect((failure as { cause?: unknown }).cause).toBeInstanceOf(TypeError);
    expect(existsSync(join(dir, 'A.md'))).toBe(false);
    expect(toolResults(session).size).toBe(0);
    const answered = session.core.store.log.facts.filter((f) => f.type === 'confirmation.answered');
    expect(answered).toEqual([]);
  });

  it('PERM-06: an approver that returns nothing is named so ("it returned undefined"), and nothing runs', async () => {
    const { dir, failure } = await open(
      [call('w1', 'write', write('A.md'))],
      (async () => undefined) as unknown as ConfirmHandler,
    );
    expect(failure?.message).toMatch(/; it returned undefined$/);
    expect(existsSync(join(dir, 'A.md'))).toBe(false);
  });

  for (const [name, approver, why] of [
    ['throws', THROWS, /threw TypeError: approval service down; the call 'write' \(.+\) was not run/],
    [
      'answers a string',
      GARBAGE,
      /must resolve to \{ approved: true \| false, reason\?: string \}; it returned string yes/,
    ],
  ] as const) {
    it(`PERM-06: an approver that ${name} refuses nested calls in batch and in a program's parallel ctx.tool calls`, async () => {
      const { dir, session, events } = await open(
        [
          call('b1', 'batch', {
            calls: [
              { tool: 'write', args: write('B.md') },
              { tool: 'write', args: write('C.md') },
            ],
          }),
          call('p1', 'program', {
            source:
              "export default async function run(ctx) { return await Promise.all([ctx.tool('write', { file_path: 'P.md', content: 'x' }), ctx.tool('write', { file_path: 'Q.md', content: 'x' })]); }",
          }),
        ],
        approver,
      );
      for (const f of ['B.md', 'C.md', 'P.md', 'Q.md']) expect(existsSync(join(dir, f)), f).toBe(false);
      const batch = JSON.parse(toolResults(session).get('b1')?.output ?? '{}') as {
        results: { error_kind: string; output: string }[];
      };
      expect(batch.results).toHaveLength(2);
      for (const r of batch.results) {
        expect(r.error_kind).toBe('permission_denied');
        expect(r.output).toMatch(
          /^Permission denied: not confirmed: session configuration: confirmation: the approver/,
        );
        expect(r.output).toMatch(why);
      }
      const program = toolResults(session).get('p1')?.output ?? '';
      expect(program.match(/"error_kind": "permission_denied"/g)).toHaveLength(2);
      const denied = events.filter((e) => e.type === 'permission_denied');
      expect(denied.length).toBeGreaterThanOrEqual(4);
    });
  }
});
