import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarness, fold, parseLog, summarizeLog, type Fact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';

const { track } = closeAfterEach();

const runIdsOf = (facts: readonly Fact[], type: string) =>
  facts.filter((f) => f.type === type).map((f) => (f.payload as { run_id: string }).run_id);

describe('one FactRun per admitted run', () => {
  it('ARCH-03: each admitted send opens exactly one run (one run.started, one run.ended, one run id), and a refused one opens none', async () => {
    const { session } = await track(
      open([
        { delay_ms: 60, text: 'first', tool_calls: [{ id: 'e', name: 'echo', args: { text: 'x' } }] },
        { text: 'first done' },
        { text: 'second' },
      ]),
    );
    const first = session.send('one');
    const refused = await session.send('overlap').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'SESSION_BUSY' });
    const a = await first;
    const b = await session.send('two');
    const facts = session.store.log.facts;
    expect(runIdsOf(facts, 'run.started')).toEqual([a.runId, b.runId]);
    expect(runIdsOf(facts, 'run.ended')).toEqual([a.runId, b.runId]);
    expect(a.runId).not.toBe(b.runId);
    // The refused prompt left nothing: no user.message carries it.
    const prompts = facts.filter((f) => f.type === 'user.message').map((f) => (f.payload as { text: string }).text);
    expect(prompts).toEqual(['one', 'two']);
    // Every fact between a run's start and its end belongs to that run: runs never interleave.
    const starts = facts.filter((f) => f.type === 'run.started').map((f) => f.seq);
    const ends = facts.filter((f) => f.type === 'run.ended').map((f) => f.seq);
    expect(starts[0]! < ends[0]! && ends[0]! < starts[1]! && starts[1]! < ends[1]!).toBe(true);
  });

  it('ARCH-04: a run is its fact log file, its fold, the kernel checks, the LLM invoker, the tool invoker and its event stream', async () => {
    const { session, model, state, dir } = await track(
      open(
        [
          {
            text: 'Working.',
            tool_calls: [
              { id: 'ok', name: 'echo', args: { text: 'hi' } },
              { id: 'no', name: 'write_note', args: { path: 'n', content: 'x' } },
            ],
            usage: { input_tokens: 11, output_tokens: 3 },
          },
          { text: 'All done.', usage: { input_tokens: 20, output_tokens: 2 } },
        ],
        { sessionId: 'arch-04', permissions: { deny: ['write_note'], defaultDecision: 'allow' } },
      ),
    );
    const events: { type: string; runId: string; name?: unknown; source?: unknown }[] = [];
    const stream = session.stream('go');
    for await (const ev of stream) {
      const p = ev.payload as { name?: unknown; source?: unknown; tool_name?: unknown };
      events.push({ type: ev.type, runId: ev.metadata.run_id, name: p.name ?? p.tool_name, source: p.source });
    }
    const result = await stream.result;

    // Fact log: `.a3s/effect-log/<thread>.jsonl`, holding exactly what the session folded.
    const text = readFileSync(join(dir, '.a3s', 'effect-log', 'arch-04.jsonl'), 'utf8');
    const onDisk = parseLog(text).facts;
    expect(onDisk).toEqual(session.store.log.facts);
    // Fold: the file alone folds to the finished view the run answered from.
    const folded = fold(onDisk);
    expect(folded.view.assistant_text).toBe('All done.');
    expect(result.text).toBe('All done.');
    // Kernel: the permission projection recorded the denied call in the infer transition; the gate decided completion.
    const denied = onDisk.find(
      (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'no',
    );
    expect(denied).toMatchObject({ cause: 'infer:1:0', payload: { ok: false } });
    expect(onDisk.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { status: 'completed', completion: 'narrative' },
    });
    // LLM invoker: two provider calls, their usage recorded on the model.turn facts and in the result.
    expect(model.requests).toHaveLength(2);
    expect(result.usage).toEqual({ inputTokens: 31, outputTokens: 5 });
    // Tool invoker: only the allowed call ran, as an agent-source call.
    expect(state.executions.map((e) => [e.tool, e.source])).toEqual([['echo', 'agent']]);
    // Events: the run's own stream, every envelope tagged with its run id.
    expect(events.every((e) => e.runId === result.runId)).toBe(true);
    expect(events).toContainEqual({ type: 'tool_start', runId: result.runId, name: 'echo', source: 'agent' });
    expect(events.find((e) => e.type === 'permission_denied')).toMatchObject({ name: 'write_note' });
  });
});

describe('kernel wrap', () => {
  it('KERN-01: every harness, whatever its recipe, has both kernel checks on, and a run with a recipe is still projected and gated', async () => {
    for (const recipe of [undefined, {}, { tool_budget: 1 }, { max_tool_rounds: 0, compact_threshold_chars: 10 }])
      expect(createHarness(recipe).kernel).toEqual({ permission_projection: true, completion_gate: true });
    const { session, state } = await track(
      open(
        [
          {
            tool_calls: [
              { id: 'd', name: 'run', args: { command: 'rm -rf /' } },
              { id: 'w', name: 'write_note', args: { path: 'a', content: 'x' } },
            ],
          },
          { text: 'Changed a, all verified.' },
        ],
        {
          toolBudget: 5,
          maxToolRounds: 3,
          permissions: { deny: ['run'], defaultDecision: 'allow' },
          gate: { continuation: { enabled: false } },
        },
      ),
    );
    // Projection: the denied call never ran. Gate: the write without verification cannot complete.
    await expect(session.send('change it')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(state.executions.map((e) => e.tool)).toEqual(['write_note']);
    const denied = session.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'd',
    );
    expect(denied).toMatchObject({ cause: 'infer:1:0', payload: { ok: false } });
  });
});

describe('the recipe on record', () => {
  it("run.started records the run's harness settings, so the file alone folds and summarises as the run went", async () => {
    const calls = Array.from({ length: 9 }, (_, i) => ({
      text: `call ${i}`,
      tool_calls: [{ id: `e${i}`, name: 'echo', args: { text: `${i}` } }],
    }));
    const { session, dir } = await track(
      open([...calls, { text: 'All nine echoed.' }], { sessionId: 'budget-20', toolBudget: 20 }),
    );
    await session.send('echo nine times');
    const onDisk = parseLog(readFileSync(join(dir, '.a3s', 'effect-log', 'budget-20.jsonl'), 'utf8')).facts;
    expect(onDisk[0]).toMatchObject({ type: 'run.started', payload: { recipe: { tool_budget: 20 } } });
    const summary = summarizeLog(onDisk);
    expect(summary.phase_timeline.map((t) => t.phase)).not.toContain('deny');
    expect(summary.final_phase).not.toBe('deny');
    expect(summary.budget_denials).toBe(0);
    expect(fold(onDisk).view.assistant_text).toBe('All nine echoed.');
  });
});

describe('lease release', () => {
  it('ADM-07: the lease is released once a run has fully ended (completed, failed, cancelled or streamed), so the next operation is admitted', async () => {
    const { session, model } = await track(
      open([
        { text: 'one' },
        { error: { kind: 'status', status: 400, message: 'bad request' } },
        { delay_ms: 5000, text: 'never' },
        { text: 'streamed' },
        { text: 'last' },
      ]),
    );
    const lastType = () => session.store.log.facts.at(-1)?.type;
    // Completed: when send resolves, run.ended is written and no run is live.
    expect((await session.send('a')).text).toBe('one');
    expect(lastType()).toBe('run.ended');
    expect(session.activeRunId).toBeNull();
    // Failed: the error is thrown after the run ended; the next operation is admitted.
    await expect(session.send('b')).rejects.toMatchObject({ code: 'LLM_STATUS' });
    expect(session.store.log.facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'failed' } });
    // Cancelled.
    const slow = session.send('c');
    while (model.requests.length < 3) await new Promise((r) => setTimeout(r, 2));
    session.interrupt('stop');
    expect((await slow).status).toBe('cancelled');
    // Streamed to its end: the loop finishing means the lease is free.
    for await (const _ of session.stream('d'));
    expect(lastType()).toBe('run.ended');
    expect((await session.send('e')).text).toBe('last');
  });
});
