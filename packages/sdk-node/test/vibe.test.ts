// Vibe mode in SDK sessions: a lead agent conducting background workers (each a real run on its
// own fact-log thread, under the session's permissions) with scripted models, real files and the
// real workspace tools.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog, threadIdFor } from '@a3s-code/effect';
import type { LlmClient } from '@a3s-code/core';
import type { ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type ProjectedEventV1, type Session, type SessionOptions } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the crash test's child process.
import { RoutingModel } from './fixtures/vibe-world.mjs';
import { tempRepo, toolResults } from './kit.js';

interface Routing extends LlmClient {
  readonly served: string[];
  readonly maxRunning: number;
  readonly clients: Map<string, { requests: { messages: { role: string; content: string }[] }[] }>;
}
const routing = (name: string, scripts: Record<string, ScriptedTurn[]>): Routing =>
  new RoutingModel(name, scripts) as Routing;

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(lead: Routing, options: SessionOptions = {}) {
  const dir = tempRepo();
  const session = await (await Agent.create({ model: lead })).session(dir, options);
  opened.push(session);
  return { dir, session };
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });
const results = toolResults;
const out = (s: Session, id: string) => JSON.parse(results(s).get(id)!.output) as Record<string, unknown>;
const workerLog = (dir: string, s: Session, n: number) =>
  parseLog(readFileSync(join(dir, '.a3s', 'effect-log', `${threadIdFor(s.sessionId)}.worker-${n}.jsonl`), 'utf8'))
    .facts;
async function collect(stream: AsyncIterable<ProjectedEventV1>): Promise<ProjectedEventV1[]> {
  const events: ProjectedEventV1[] = [];
  for await (const ev of stream) events.push(ev);
  return events;
}
const verifyTurn = (id: string, file: string): ScriptedTurn => ({
  tool_calls: [call(id, 'verify', { subject: file, commands: [{ id: 'exists', command: `test -f ${file}` }] })],
});

describe('vibe: a lead agent conducts background workers', () => {
  it('VIBE-03/VIBE-05/VIBE-08: three workers spawn at once, run in the background on their tier’s model, and vibe_wait returns each result', async () => {
    const fast = routing('fast', {
      'brief-a': [
        { delay_ms: 500, tool_calls: [call('a1', 'write', { file_path: 'a.txt', content: 'A\n' })] },
        verifyTurn('a2', 'a.txt'),
      ],
      'brief-b': [
        { delay_ms: 500, tool_calls: [call('b1', 'write', { file_path: 'b.txt', content: 'B\n' })] },
        verifyTurn('b2', 'b.txt'),
      ],
    });
    const good = routing('good', { 'brief-c': [{ delay_ms: 200, text: 'reviewed: fine' }] });
    const lead = routing('lead', {
      conduct: [
        {
          tool_calls: [
            call('s1', 'vibe_spawn', { brief: 'brief-a', label: 'write a' }),
            call('s2', 'vibe_spawn', { brief: 'brief-b', label: 'write b', tier: 'fast' }),
            call('s3', 'vibe_spawn', { brief: 'brief-c', label: 'review', tier: 'good' }),
          ],
        },
        {
          tool_calls: [
            call('w1', 'vibe_wait', { worker_id: 'worker-1' }),
            call('w2', 'vibe_wait', { worker_id: 'worker-2' }),
            call('w3', 'vibe_wait', { worker_id: 'worker-3' }),
          ],
        },
        // The workers could write: the lead's own run is done only once it verified their work.
        { text: 'all three done', ...verifyTurn('v1', 'a.txt') },
      ],
    });
    const { dir, session } = await open(lead, { governance: { yolo: true }, vibe: { tiers: { fast, good } } });
    const events = await collect(session.stream('conduct'));
    expect(session.state.view.run.status).toBe('completed');
    // Spawn returned at once: every worker was still running when its spawn call returned.
    for (const id of ['s1', 's2', 's3']) expect(out(session, id)).toMatchObject({ status: 'running', runs: 1 });
    expect(out(session, 's1')).toMatchObject({ worker_id: 'worker-1', tier: 'fast', label: 'write a' });
    expect(out(session, 's3')).toMatchObject({ worker_id: 'worker-3', tier: 'good' });
    // Each tier's model served exactly its workers; the two fast workers ran at the same time.
    expect([...fast.served].sort()).toEqual(['brief-a', 'brief-b']);
    expect(good.served).toEqual(['brief-c']);
    expect(fast.maxRunning).toBe(2);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('A\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('B\n');
    expect(out(session, 'w1')).toMatchObject({ status: 'completed', done: true, timed_out: false });
    expect(String(out(session, 'w1').last_result)).toContain('exists');
    expect(out(session, 'w3')).toMatchObject({ status: 'completed', last_result: 'reviewed: fine' });
    // Each worker is a real run on its own thread, recorded with its label and tier.
    const log = workerLog(dir, session, 3);
    expect(log.find((f) => f.type === 'run.started')?.payload).toMatchObject({
      worker: { id: 'worker-3', label: 'review', tier: 'good', record: { brief: 'brief-c' } },
    });
    expect(log.at(-1)?.payload).toMatchObject({ status: 'completed' });
    // worker_* events reached the host through the run's own stream.
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'worker_spawned')).toHaveLength(3);
    expect(types.filter((t) => t === 'worker_finished')).toHaveLength(3);
    expect(events.find((e) => e.type === 'worker_progress' && e.payload.tool_name === 'write')?.payload).toMatchObject({
      worker_id: expect.stringMatching(/^worker-[12]$/),
      type: 'tool_start',
    });
  });

  it('VIBE-07: vibe_list reports each worker’s tier, status, elapsed time and most recent result', async () => {
    const fast = routing('fast', { 'brief-l': [{ delay_ms: 1000, text: 'listed result' }] });
    const lead = routing('lead', {
      conduct: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'brief-l', label: 'lister' })] },
        { tool_calls: [call('l1', 'vibe_list', {})] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        { tool_calls: [call('l2', 'vibe_list', {})] },
        // The worker only reported (it changed nothing): the lead's run ends on its answer.
        { text: 'ok' },
      ],
    });
    const { session } = await open(lead, { vibe: { tiers: { fast } } });
    await session.send('conduct');
    expect(out(session, 'l1')).toMatchObject({
      running: 1,
      max_workers: 8,
      workers: [{ worker_id: 'worker-1', tier: 'fast', status: 'running', last_result: '', runs: 1 }],
    });
    const after = out(session, 'l2') as { running: number; workers: Record<string, unknown>[] };
    expect(after.running).toBe(0);
    expect(after.workers).toEqual([
      expect.objectContaining({ worker_id: 'worker-1', label: 'lister', tier: 'fast', status: 'completed' }),
    ]);
    expect(after.workers[0]!.last_result).toBe('listed result');
    expect(after.workers[0]!.elapsed_seconds).toBeGreaterThanOrEqual(0.9);
  });

  it('VIBE-04/VIBE-06: vibe_send appends to the brief and re-runs the worker on its thread; vibe_kill stops a running one', async () => {
    const fast = routing('fast', {
      'brief-s': [{ text: 'first pass' }, { text: 'second pass, with the addition' }],
      'brief-k': [{ delay_ms: 60_000, text: 'never' }],
    });
    const lead = routing('lead', {
      conduct: [
        {
          tool_calls: [
            call('s1', 'vibe_spawn', { brief: 'brief-s', label: 'resend' }),
            call('s2', 'vibe_spawn', { brief: 'brief-k', label: 'doomed' }),
          ],
        },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        { tool_calls: [call('m1', 'vibe_send', { worker_id: 'worker-1', message: 'also cover the edge case' })] },
        { tool_calls: [call('w2', 'vibe_wait', { worker_id: 'worker-1' })] },
        { tool_calls: [call('k1', 'vibe_kill', { worker_id: 'worker-2' })] },
        { tool_calls: [call('k2', 'vibe_kill', { worker_id: 'worker-2' })] },
        { tool_calls: [call('l1', 'vibe_list', {})] },
        // The workers changed nothing (one reported twice, one was killed in a model call): no verification.
        { text: 'ok' },
      ],
    });
    const { dir, session } = await open(lead, { vibe: { tiers: { fast } } });
    const started = Date.now();
    const events = await collect(session.stream('conduct'));
    expect(Date.now() - started).toBeLessThan(20_000); // the kill did not wait out the 60 s turn
    expect(out(session, 'w1')).toMatchObject({ status: 'completed', last_result: 'first pass' });
    expect(out(session, 'm1')).toMatchObject({ status: 'running', runs: 2 });
    expect(out(session, 'w2')).toMatchObject({ status: 'completed', last_result: 'second pass, with the addition' });
    // The re-run continued the worker's thread: it saw its brief, its first answer, then the message.
    const second = fast.clients.get('brief-s')!.requests[1]!.messages;
    expect(second.map((m) => m.content)).toEqual([
      'brief-s',
      'first pass',
      expect.stringContaining('also cover the edge case'),
    ]);
    const log = workerLog(dir, session, 1);
    expect(log.filter((f) => f.type === 'run.started').at(-1)?.payload).toMatchObject({
      worker: { record: { brief: 'brief-s\n\nalso cover the edge case' } },
    });
    expect(out(session, 'k1')).toMatchObject({ worker_id: 'worker-2', status: 'killed', killed: true });
    expect(out(session, 'k2')).toMatchObject({ status: 'killed', killed: false });
    expect(workerLog(dir, session, 2).at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(out(session, 'l1')).toMatchObject({
      workers: [
        { worker_id: 'worker-1', status: 'completed', runs: 2 },
        { worker_id: 'worker-2', status: 'killed', runs: 1 },
      ],
    });
    expect(events.find((e) => e.type === 'worker_killed')?.payload).toEqual({
      worker_id: 'worker-2',
      label: 'doomed',
      reason: 'killed by vibe_kill',
    });
  });

  it('cancelling the lead’s run stops the workers it started; closing the session stops the rest', async () => {
    const fast = routing('fast', {
      'brief-r': [{ delay_ms: 60_000, text: 'never' }],
      'brief-h': [{ delay_ms: 60_000, text: 'never' }],
    });
    const lead = routing('lead', {
      conduct: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'brief-r', label: 'in the run' })] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        { text: 'never' },
      ],
    });
    const { dir, session } = await open(lead, { vibe: { tiers: { fast } } });
    const stream = session.stream('conduct');
    const events: ProjectedEventV1[] = [];
    for await (const ev of stream) {
      events.push(ev);
      if (ev.type === 'tool_start' && ev.payload.name === 'vibe_wait') session.interrupt('the user pressed Esc');
    }
    expect((await stream.result).status).toBe('cancelled');
    expect(events.find((e) => e.type === 'worker_killed')?.payload).toMatchObject({
      worker_id: 'worker-1',
      reason: 'the run that started it was cancelled',
    });
    expect(workerLog(dir, session, 1).at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(JSON.parse((await session.tool('vibe_list', {})).output).workers[0]).toMatchObject({ status: 'cancelled' });

    // A worker started by a host call lives with the session: closing it stops the worker.
    await session.tool('vibe_spawn', { brief: 'brief-h', label: 'host started' });
    await new Promise((r) => setTimeout(r, 100));
    await session.close();
    expect(workerLog(dir, session, 2).at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
  });
});
