// A call the process died while running has no result in the log: a resume runs it again, exactly
// once, and whatever the re-run reports, the interrupted attempt may have changed the workspace.
// These tests write the log up to the crash (the attempt's change made on disk, as it would have
// been) and resume it in a real session on a real folder.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drafts, effectLogPath, encodeFact, FactLog, type FactDraft } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { filePack } from '../../test/gate-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { defineTool, defineToolPack } from '../tools/index.js';
import { Agent } from '../session/agent.js';
import type { AgentSession } from '../session/agent-session.js';
import type { SessionOptions } from '../session/session-options.js';
import { ScriptedConfirmationManager, ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import { ToolInvoker } from '../invoker/tool-invoker.js';
import { ToolRegistry } from '../registry/index.js';
import { nullEventSink } from '../events/agent-event.js';

const { sessions } = closeAfterEach();

/** `replace` (write tier): replaces `from` by `to` in a file, failing when `from` is not there; `peek` (read tier). */
function replacePack(dir: string, runs: string[]) {
  const replace = defineTool({
    name: 'replace',
    description: 'Replace text in a file.',
    tier: 'write',
    input: z.object({ file_path: z.string(), from: z.string(), to: z.string() }),
    execute: async ({ file_path, from, to }, ctx) => {
      runs.push(ctx.callId);
      const text = readFileSync(join(dir, file_path), 'utf8');
      if (!text.includes(from)) return { output: `${file_path}: '${from}' not found`, exitCode: 1 };
      writeFileSync(join(dir, file_path), text.replace(from, to));
      return { output: 'replaced', exitCode: 0, metadata: { changed_paths: [file_path] } };
    },
  });
  const peek = defineTool({
    name: 'peek',
    description: 'Read a file.',
    tier: 'read',
    capabilities: { readOnly: true, idempotent: true },
    input: z.object({ file_path: z.string() }),
    execute: async ({ file_path }, ctx) => {
      runs.push(ctx.callId);
      return { output: readFileSync(join(dir, file_path), 'utf8'), exitCode: 0 };
    },
  });
  return defineToolPack({ name: 'replace-test', version: '1.0.0', tools: [replace, peek] });
}

type Call = { id: string; name: string; args: Record<string, unknown>; needs_confirmation?: boolean };

/** Writes the log of a run whose model asked for `calls` and whose process died before any result (`after`: facts appended then). */
function crashedLog(dir: string, calls: Call[], after: FactDraft[] = []): void {
  const log = new FactLog();
  log.append(
    [
      { type: 'run.started', key: 'run:r1', payload: { run_id: 'r1', system: [], tools: [] } },
      { type: 'user.message', key: 'user:r1', payload: { text: 'fix it', source: 'user' } },
    ],
    null,
  );
  const decision = { kind: 'tool' as const, calls: calls.map((c) => ({ needs_confirmation: false, ...c })) };
  log.append([drafts.modelTurn(1, 0, { decision, usage: { input_tokens: 1, output_tokens: 1 } })], 'infer:1:0');
  if (after.length > 0) log.append(after, null);
  mkdirSync(join(dir, '.a3s', 'effect-log'), { recursive: true });
  writeFileSync(join(dir, effectLogPath('s1')), log.facts.map((f) => `${encodeFact(f)}\n`).join(''));
}

async function resumed(turns: ScriptedTurn[], setup: (dir: string) => void, options: SessionOptions = {}) {
  const ws = workspace();
  writeFileSync(join(ws.dir, 'a.txt'), 'i < end\n');
  setup(ws.dir);
  const runs: string[] = [];
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [filePack(ws.dir), replacePack(ws.dir, runs)],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, { sessionId: 's1', ...options });
  sessions.push(session);
  return { session, model, runs, dir: ws.dir };
}

const edit: Call = { id: 'c1', name: 'replace', args: { file_path: 'a.txt', from: 'i < end', to: 'i <= end' } };
/** The crash: the attempt changed the file, its result never reached the log. */
const editedThenCrashed = (dir: string, calls: Call[] = [edit], after: FactDraft[] = []) => {
  crashedLog(dir, calls, after);
  writeFileSync(join(dir, 'a.txt'), 'i <= end\n');
};
const verify = (command: string): ScriptedTurn => ({
  tool_calls: [{ name: 'verify', args: { subject: 'the fix', commands: [{ id: 'test', kind: 'test', command }] } }],
});
const noContinue = { gate: { continuation: { enabled: false } } };
const recordOf = (s: AgentSession, callId: string) =>
  (
    s.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === callId,
    )!.payload as { metadata: { change_record?: { tool: string; path: string; digest: string }[] } }
  ).metadata.change_record ?? [];

describe('a call interrupted by a crash, resumed', () => {
  it('RES-04/GATE-01: a write call whose attempt changed a file before the crash runs once more; its re-run fails and reports nothing, yet the run cannot complete unverified', async () => {
    const later: Call = { id: 'c2', name: 'replace', args: { file_path: 'a.txt', from: 'zzz', to: 'y' } };
    const { session, runs } = await resumed(
      [{ text: 'Fixed the bound.' }],
      (d) => editedThenCrashed(d, [edit, later]),
      noContinue,
    );
    const e = await session.resumeRun().catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect((e as Error).message).toMatch(/'replace' may have changed before the process stopped while it ran/);
    // Exactly once each: the interrupted call again, then the call that had not started.
    expect(runs).toEqual(['c1', 'c2']);
    expect(recordOf(session, 'c1')).toEqual([
      { call_id: 'c1', tool: 'replace', path: '(unknown)', digest: expect.stringMatching(/^unknown:interrupted:c1#/) },
    ]);
    // The call after it had not started when the process died: its failure changed nothing.
    expect(recordOf(session, 'c2')).toEqual([]);
    expect(session.changeLedger().entries).toEqual([
      { tool: 'replace', path: '(unknown)', digest: expect.stringMatching(/^unknown:interrupted:/) },
    ]);
  });

  it('GATE-06: after the resume a passed verification covers the interrupted change: the run completes verified', async () => {
    const { session, model } = await resumed([{ text: 'Fixed.' }, verify('grep -q "<=" a.txt')], (d) =>
      editedThenCrashed(d),
    );
    const r = await session.resumeRun();
    expect(r).toMatchObject({ status: 'completed', completion: 'verified', runId: 'r1' });
    expect(model.requests).toHaveLength(2);
    const continuation = model.requests[1]!.messages.at(-1)!.content as string;
    expect(continuation).toMatch(/'replace' may have changed before the process stopped/);
    expect(r.verification?.effect_digest).toBe(session.changeLedger('r1').digest);
  });

  it('GATE-01: a host waiver of the digest that holds the interrupted change completes the run as waived', async () => {
    const { session } = await resumed([{ text: 'Fixed.' }], (d) => editedThenCrashed(d), noContinue);
    const s = session.streamResume();
    for await (const ev of s)
      if (ev.type === 'tool_end') session.waiveCompletion(session.changeLedger().digest!, 'checked by hand');
    expect(await s.result).toMatchObject({ status: 'completed', completion: 'waived' });
  });

  it('a read call in flight at the crash changed nothing: the resumed run completes as narrative', async () => {
    const read: Call = { id: 'p1', name: 'peek', args: { file_path: 'a.txt' } };
    const { session, runs } = await resumed([{ text: 'It says i < end.' }], (d) => crashedLog(d, [read]), noContinue);
    expect(await session.resumeRun()).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(runs).toEqual(['p1']);
    expect(session.changeLedger().entries).toEqual([]);
  });

  it('a batch in flight whose nested write may have run before the crash counts as a change with unknown paths', async () => {
    const batch: Call = { id: 'b1', name: 'batch', args: { calls: [{ tool: 'replace', args: edit.args }] } };
    const { session } = await resumed([{ text: 'Done.' }], (d) => editedThenCrashed(d, [batch]), noContinue);
    await expect(session.resumeRun()).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(recordOf(session, 'b1')).toEqual([
      { call_id: 'b1', tool: 'batch', path: '(unknown)', digest: expect.stringMatching(/^unknown:interrupted:b1#/) },
    ]);
  });

  it('a batch of reads in flight at the crash records nothing', async () => {
    const batch: Call = { id: 'b1', name: 'batch', args: { calls: [{ tool: 'peek', args: { file_path: 'a.txt' } }] } };
    const { session } = await resumed([{ text: 'Read.' }], (d) => crashedLog(d, [batch]), noContinue);
    expect(await session.resumeRun()).toMatchObject({ completion: 'narrative' });
  });

  it('a confirmed call whose answer was in the log at the crash may have run: it counts', async () => {
    const confirmed = { ...edit, needs_confirmation: true };
    const answer = drafts.confirmationAnswered('r1', 'tool:1:0:c1', { tool_call_id: 'c1', approved: true });
    const { session } = await resumed([{ text: 'Done.' }], (d) => editedThenCrashed(d, [confirmed], [answer]), {
      ...noContinue,
      permissions: { ask: ['replace'], defaultDecision: 'allow' },
    });
    await expect(session.resumeRun()).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  });

  it('RES-04: a confirmed call the crash cut off is asked again, with why, and runs only on the new approval', async () => {
    const confirmed = { ...edit, needs_confirmation: true };
    const answer = drafts.confirmationAnswered('r1', 'tool:1:0:c1', { tool_call_id: 'c1', approved: true });
    for (const again of [true, false]) {
      const confirmation = new ScriptedConfirmationManager([again]);
      const { session, runs } = await resumed([{ text: 'Done.' }], (d) => crashedLog(d, [confirmed], [answer]), {
        ...noContinue,
        permissions: { ask: ['replace'], defaultDecision: 'allow' },
        confirmation,
      });
      const asked: unknown[] = [];
      const s = session.streamResume();
      // The run then fails unverified (the cut-off attempt may have changed the file): not the point here.
      try {
        for await (const ev of s) if (ev.type === 'confirmation_required') asked.push(ev.payload);
      } catch {}
      await s.result.catch(() => undefined);
      expect(confirmation.requests).toHaveLength(1);
      expect(confirmation.requests[0]).toMatchObject({ toolName: 'replace', note: expect.stringMatching(/cut off/) });
      expect(asked).toEqual([
        expect.objectContaining({
          tool_name: 'replace',
          note: expect.stringMatching(/runs again only if approved again/),
        }),
      ]);
      expect(runs).toEqual(again ? ['c1'] : []);
      const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
        ok: boolean;
        output: string;
      };
      if (!again) expect(result).toMatchObject({ ok: false, output: expect.stringMatching(/not confirmed/) });
    }
  });

  it('a confirmed call the crash cut off is asked again even when repeating it is harmless (idempotent): the approval is only a line of the log', async () => {
    const peek: Call = { id: 'p1', name: 'peek', args: { file_path: 'a.txt' }, needs_confirmation: true };
    const answer = drafts.confirmationAnswered('r1', 'tool:1:0:p1', { tool_call_id: 'p1', approved: true });
    const confirmation = new ScriptedConfirmationManager([false]);
    const { session, runs } = await resumed([{ text: 'Read.' }], (d) => crashedLog(d, [peek], [answer]), {
      ...noContinue,
      permissions: { ask: ['peek'], defaultDecision: 'allow' },
      confirmation,
    });
    await session.resumeRun().catch(() => undefined);
    expect(confirmation.requests).toEqual([
      expect.objectContaining({ toolName: 'peek', note: expect.stringMatching(/cut off/) }),
    ]);
    expect(runs).toEqual([]);
  });

  it('a cut-off call nobody had to confirm runs again unasked', async () => {
    const allowed = await resumed([{ text: 'Done.' }], (d) => crashedLog(d, [edit]), noContinue);
    await allowed.session.resumeRun().catch(() => undefined);
    expect(allowed.runs).toEqual(['c1']);
  });

  it('a call released by confirmToolUse while no run was live has not started: resuming it records no interrupted attempt', async () => {
    const { session, runs } = await resumed(
      [
        { tool_calls: [{ id: 'c1', name: 'replace', args: { file_path: 'a.txt', from: 'zzz', to: 'y' } }] },
        { text: 'It was not there.' },
      ],
      () => undefined,
      {
        ...noContinue,
        permissions: { ask: ['replace'], defaultDecision: 'allow' },
        confirmation: new ScriptedConfirmationManager(),
        parkMode: 'return',
      },
    );
    expect(await session.send('replace zzz')).toMatchObject({ status: 'parked' });
    await session.confirmToolUse('c1', true);
    expect(await session.resumeRun()).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(runs).toEqual(['c1']);
    expect(recordOf(session, 'c1')).toEqual([]);
  });

  it('interrupted is only for model calls: a host call with it is refused with a typed error', async () => {
    const invoker = new ToolInvoker({ registry: new ToolRegistry() });
    const context = { runId: 'r', sessionId: 's', signal: new AbortController().signal, events: nullEventSink };
    expect(() =>
      invoker.invoke({ id: 'x', name: 'noop', args: {} }, context as never, 'host', { interrupted: true }),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_INVOCATION', message: expect.stringMatching(/options\.interrupted/) }),
    );
  });
});
