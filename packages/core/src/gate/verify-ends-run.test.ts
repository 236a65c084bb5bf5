import { summarizeLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { filePack } from '../../test/gate-kit.js';
import { workspace, closeAfterEach } from '../../test/session-kit.js';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import { RUNTIME_CONTRACT } from '../prompt/contracts.js';
import { Agent } from '../session/agent.js';
import type { SessionOptions } from '../session/session-options.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';

const { sessions } = closeAfterEach();

async function open(turns: ScriptedTurn[], options: SessionOptions = {}) {
  const ws = workspace();
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [filePack(ws.dir)],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, options);
  sessions.push(session);
  return { session, model };
}

const write: ScriptedTurn = {
  text: 'Writing the fix.',
  tool_calls: [{ name: 'write_file', args: { file_path: 'a.txt', content: 'v1' } }],
};
const verify = (command: string, text = 'Verifying.'): ScriptedTurn => ({
  text,
  tool_calls: [
    {
      name: 'verify',
      args: {
        subject: 'the fix',
        commands: [
          { id: 'test', kind: 'test', command },
          { id: 'lint', kind: 'lint', command: 'exit 2', required: false },
        ],
      },
    },
  ],
});

async function collect(stream: AsyncIterable<EventEnvelopeV1>): Promise<EventEnvelopeV1[]> {
  const out: EventEnvelopeV1[] = [];
  for await (const ev of stream) out.push(ev);
  return out;
}

describe('a passing verification ends the run', () => {
  it('GATE-06: a model that writes, verifies and would write again is ended after the verify; the result text is the verification summary', async () => {
    const { session, model } = await open([
      write,
      verify('true'),
      { text: 'never requested', tool_calls: [{ name: 'write_file', args: { file_path: 'b.txt', content: 'x' } }] },
    ]);
    const stream = session.stream('fix it');
    const events = await collect(stream);
    const r = await stream.result;
    expect(model.requests).toHaveLength(2);
    expect(r).toMatchObject({ status: 'completed', completion: 'verified', endedBy: 'verification' });
    expect(r.text).toBe(
      "verification 'the fix': passed\n- test (test, required): passed [exit 0]\n- lint (lint, optional): failed [exit 2]",
    );
    expect(r.verification).toMatchObject({
      subject: 'the fix',
      status: 'passed',
      effect_digest: session.changeLedger().digest,
    });
    const end = events.find((e) => e.type === 'agent_end')!;
    expect(end.payload).toMatchObject({ text: r.text, ended_by: 'verification', completion: 'verified' });
    expect(events.filter((e) => e.type === 'run_continued')).toEqual([]);
  });

  it("GATE-04: a run that changed nothing ends with the model's answer, says so, and keeps the model's text", async () => {
    const { session } = await open([{ text: 'Nothing to change.' }]);
    expect(await session.send('look')).toMatchObject({
      text: 'Nothing to change.',
      endedBy: 'answer',
      completion: 'narrative',
    });
  });

  it('GATE-06/PROMPT-02: the verify tool and the system prompt tell the model that a passing verify ends the run', async () => {
    const { session } = await open([]);
    const verifyTool = session.toolDefinitions().find((t) => t.name === 'verify')!;
    expect(verifyTool.description).toMatch(/ENDS THE RUN/);
    expect(verifyTool.description).toMatch(/all the work is done/);
    expect(RUNTIME_CONTRACT).toMatch(/passing verify call ends the run/);
    expect(session.system.join('\n')).not.toMatch(/verify each one/);
  });
});

describe('gate continuations are visible', () => {
  it("the gate's extra turn is announced as run_continued with its reason, and replay lists it", async () => {
    const { session, model } = await open([write, { text: 'Done.' }, verify('true'), { text: 'never requested' }]);
    const stream = session.stream('fix it');
    const events = await collect(stream);
    const r = await stream.result;
    expect(r).toMatchObject({ completion: 'verified', endedBy: 'verification' });
    expect(model.requests).toHaveLength(3);
    const continued = events.filter((e) => e.type === 'run_continued');
    expect(continued).toHaveLength(1);
    expect(continued[0]!.payload).toEqual({
      origin: 'completion_gate',
      reason: 'the changes have not been verified',
      attempt: 1,
      max_attempts: 3,
      effect_digest: session.changeLedger().digest,
    });
    // It comes after the model's answer and before the extra provider call.
    const types = events.map((e) => e.type);
    expect(types.indexOf('run_continued')).toBeGreaterThan(types.indexOf('turn_end'));
    expect(types.lastIndexOf('turn_start')).toBeGreaterThan(types.indexOf('run_continued'));
    const summary = summarizeLog(session.store.log.facts);
    expect(summary.continuations).toEqual([
      {
        seq: expect.any(Number),
        run_id: r.runId,
        origin: 'completion_gate',
        reason: 'the changes have not been verified',
      },
    ]);
  });

  it("a stop hook's continuation is announced too", async () => {
    let blocked = false;
    const stop = async () => {
      if (blocked) return undefined;
      blocked = true;
      return { action: 'block' as const, reason: 'Also update the changelog.' };
    };
    const { session } = await open([{ text: 'Done.' }, { text: 'Changelog updated.' }], { hooks: { stop: [stop] } });
    const stream = session.stream('do it');
    const events = await collect(stream);
    expect((await stream.result).text).toBe('Changelog updated.');
    expect(events.find((e) => e.type === 'run_continued')!.payload).toEqual({
      origin: 'stop_hook',
      reason: 'Also update the changelog.',
      attempt: 1,
      max_attempts: 3,
    });
    expect(summarizeLog(session.store.log.facts).continuations.map((c) => c.origin)).toEqual(['stop_hook']);
  });
});
